// The SourceFs of the disk. A file is opened non-blocking and fstat'ed before it is read, so a FIFO
// never blocks and a device (`/dev/zero`) is never read without end: either throws ENOTREG.
import fs = require('node:fs');
import { resolvedRealPath } from '../canonicalPath';
import { fsError, type FileRead, type SourceFs } from './sourceFs';

export const diskFs: SourceFs = {
  read: readRegularFile,
  stat: (file) => fs.statSync(file, { throwIfNoEntry: false }),
  list: (dir) => fs.readdirSync(dir, { withFileTypes: true }),
  listNames: (dir) => fs.readdirSync(dir),
  realPath: resolvedRealPath,
};

function readRegularFile(file: string): FileRead {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    try {
      if (stat.isDirectory()) throw fsError('EISDIR', `${file} is a directory`);
      if (!stat.isFile()) throw fsError('ENOTREG', `${file} is not a regular file`);
      return { stat, bytes: readToEnd(fd, stat.size) };
    } catch (error) {
      throw Object.assign(error as Error, { opened: stat });
    }
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
