// Reading a source file the way Hermes does: strict UTF-8 (Python raises on invalid bytes, and
// Hermes then skips the file), optionally dropping one BOM (`utf-8-sig`). Never throws: a file
// that cannot be used becomes a SourceProblem.
import * as fs from 'node:fs';
import type { SourceProblem } from './types';

export type TextRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly missing: true }
  | { readonly ok: false; readonly missing: false; readonly problem: SourceProblem };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `dropBom` mirrors `encoding="utf-8-sig"` (SOUL.md, context files, skills); memory files are read
 * as plain `utf-8`, so a BOM stays in their text.
 */
export function readText(file: string, options: { readonly dropBom: boolean }): TextRead {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true };
    const why = code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    return unusable(file, 'unreadable', `Cannot read ${file} (${why}); Hermes skips it too.`);
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return unusable(file, 'binary', `${file} is not valid UTF-8 text; Hermes cannot decode it and leaves it out of the prompt.`);
  }
  if (options.dropBom && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text };
}

function unusable(file: string, code: 'unreadable' | 'binary', message: string): TextRead {
  return { ok: false, missing: false, problem: { file, code, message } };
}

/** True when `file` exists and is (or links to) a regular file, like Python's `Path.is_file()`. */
export function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** True when `file` exists (following links), like Python's `Path.exists()`. */
export function exists(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch {
    return false;
  }
}
