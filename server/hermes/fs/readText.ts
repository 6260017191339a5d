// Reading a source file the way Hermes does: strict UTF-8 (Python raises on invalid bytes, and
// Hermes then skips the file), optionally dropping one BOM (`utf-8-sig`). Never throws: a file
// that cannot be used becomes a SourceProblem.
import type { SourceProblem } from '../problems';
import type { FileRead, SourceFs } from './sourceFs';

export type TextRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly missing: true }
  | { readonly ok: false; readonly missing: false; readonly problem: SourceProblem };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `dropBom` mirrors `encoding="utf-8-sig"` (SOUL.md, context files, skills); memory files are read
 * as plain `utf-8`, so a BOM stays in their text.
 */
export function readText(fs: SourceFs, file: string, options: { readonly dropBom: boolean }): TextRead {
  let read: FileRead;
  try {
    read = fs.read(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true };
    if (code === 'EISDIR') return unusable(file, 'unreadable', `Cannot read ${file} (it is a directory); Hermes skips it too. Remove or rename the directory.`);
    if (code === 'ENOTREG') return unusable(file, 'unreadable', `${file} is not a regular file (a pipe, socket or device), so it is not read; Hermes cannot use it either. Replace it with a text file.`);
    if (code === 'EACCES' || code === 'EPERM') return unusable(file, 'unreadable', `Cannot read ${file} (permission denied); Hermes skips it too when it runs as this user. Fix the file's owner or mode.`);
    return unusable(file, 'unreadable', `Cannot read ${file} (${(error as Error).message}); Hermes skips it too. Check the file and its folder.`);
  }
  // Text an fs holds as text (an editor's buffer) is taken as it is.
  if (read.text !== undefined) return { ok: true, text: read.text };
  let text: string;
  try {
    text = decoder.decode(read.bytes);
  } catch {
    return unusable(file, 'binary', `${file} is not valid UTF-8 text; Hermes cannot decode it and leaves it out of the prompt. Save it as UTF-8.`);
  }
  if (options.dropBom && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text };
}

function unusable(file: string, code: 'unreadable' | 'binary', message: string): TextRead {
  return { ok: false, missing: false, problem: { file, code, message } };
}

/**
 * `readText` for a file that is often absent (project context candidates): a stat first, so a
 * missing file costs no thrown error (a few dozen per session cwd made that a tenth of discovery).
 * Anything but "no such file" is left to readText to tell.
 */
export function readTextIfPresent(fs: SourceFs, file: string, options: { readonly dropBom: boolean }): TextRead {
  try {
    if (fs.stat(file) === undefined) return { ok: false, missing: true };
  } catch {
    // ENOTDIR, EACCES, a link loop: readText says which
  }
  return readText(fs, file, options);
}

/** True when `file` exists and is (or links to) a regular file, like Python's `Path.is_file()`. */
export function isFile(fs: SourceFs, file: string): boolean {
  try {
    return fs.stat(file)?.isFile() ?? false;
  } catch {
    return false;
  }
}

/** Whether `dir` is a folder (links followed); false when it cannot be told. */
export function isFolder(fs: SourceFs, dir: string): boolean {
  try {
    return fs.stat(dir)?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
