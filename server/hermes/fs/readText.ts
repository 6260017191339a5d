// Reading a source file the way Hermes does: strict UTF-8 (Python raises on invalid bytes, and
// Hermes then skips the file), optionally dropping one BOM (`utf-8-sig`). Never throws: a file
// that cannot be used becomes a SourceProblem.
import fs = require('node:fs');
import { noteFileRead, noteFileUnread, statPath } from './readLog';
import type { SourceProblem } from '../problems';

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
    bytes = readRegularFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true };
    if (code === 'EISDIR') return unusable(file, 'unreadable', `Cannot read ${file} (it is a directory); Hermes skips it too. Remove or rename the directory.`);
    if (code === 'ENOTREG') return unusable(file, 'unreadable', `${file} is not a regular file (a pipe, socket or device), so it is not read; Hermes cannot use it either. Replace it with a text file.`);
    if (code === 'EACCES' || code === 'EPERM') return unusable(file, 'unreadable', `Cannot read ${file} (permission denied); Hermes skips it too when it runs as this user. Fix the file's owner or mode.`);
    return unusable(file, 'unreadable', `Cannot read ${file} (${(error as Error).message}); Hermes skips it too. Check the file and its folder.`);
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return unusable(file, 'binary', `${file} is not valid UTF-8 text; Hermes cannot decode it and leaves it out of the prompt. Save it as UTF-8.`);
  }
  if (options.dropBom && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text };
}

/**
 * The bytes of a regular file. Opened non-blocking and checked before reading, so a FIFO never
 * blocks and a device (`/dev/zero`) is never read without end: either throws `ENOTREG`.
 */
export function readRegularFile(file: string): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    noteFileUnread(file);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    noteFileRead(file, stat);
    if (stat.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
    if (!stat.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTREG' });
    return readToEnd(fd, stat.size);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The rest of `fd`, expecting `size` bytes (readFileSync(fd) would fstat it a second time: a
 * thousand skill files make that count). A file that grew meanwhile is read to its new end. When
 * a read asked for one byte more than fstat's size and got exactly that size, the file ended
 * there: the usual file takes one read, not a second one that returns nothing. Anything else
 * (a /proc file of size 0, a short read) reads on until a read returns nothing, as before.
 */
function readToEnd(fd: number, size: number): Buffer {
  let buffer = Buffer.allocUnsafe(size + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
    const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) return buffer.subarray(0, length);
    length += read;
    if (length === size && size > 0) return buffer.subarray(0, length);
  }
}

function unusable(file: string, code: 'unreadable' | 'binary', message: string): TextRead {
  return { ok: false, missing: false, problem: { file, code, message } };
}

/**
 * `readText` for a file that is often absent (project context candidates): a stat first, so a
 * missing file costs no thrown error (a few dozen per session cwd made that a tenth of discovery).
 * Anything but "no such file" is left to readText to tell.
 */
export function readTextIfPresent(file: string, options: { readonly dropBom: boolean }): TextRead {
  try {
    if (statPath(file) === undefined) return { ok: false, missing: true };
  } catch {
    // ENOTDIR, EACCES, a link loop: readText says which
  }
  return readText(file, options);
}

/** True when `file` exists and is (or links to) a regular file, like Python's `Path.is_file()`. */
export function isFile(file: string): boolean {
  try {
    return statPath(file)?.isFile() ?? false;
  } catch {
    return false;
  }
}
