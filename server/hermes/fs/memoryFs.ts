// A SourceFs held in memory, for tests: a home built from paths and texts, no disk. Folders are
// implied by the files under them; there are no links (a real path is the resolved path).
import path = require('node:path');
import { fsError, type DirEntry, type FileRead, type FileStat, type SourceFs } from './sourceFs';

export class MemoryFs implements SourceFs {
  private readonly files = new Map<string, { bytes: Buffer; stat: FileStat }>();
  private readonly dirs = new Map<string, { names: Set<string>; stat: FileStat }>();
  private nextIno = 1;
  private clock = 1;

  /** `files`: text (or bytes) by absolute path. */
  constructor(files: Readonly<Record<string, string | Uint8Array>> = {}) {
    for (const [file, content] of Object.entries(files)) this.write(file, content);
  }

  /** Adds or replaces a file (and makes its folders); its stat changes as a disk's would. */
  write(file: string, content: string | Uint8Array): this {
    const full = path.resolve(file);
    this.folder(path.dirname(full)).names.add(path.basename(full));
    this.touch(path.dirname(full));
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const ino = this.files.get(full)?.stat.ino ?? this.nextIno++;
    this.files.set(full, { bytes, stat: stat('file', ino, bytes.length, this.clock++) });
    return this;
  }

  /** Removes a file. */
  remove(file: string): this {
    const full = path.resolve(file);
    if (this.files.delete(full)) {
      this.dirs.get(path.dirname(full))?.names.delete(path.basename(full));
      this.touch(path.dirname(full));
    }
    return this;
  }

  read(file: string): FileRead {
    const full = path.resolve(file);
    const found = this.files.get(full);
    if (found) return { stat: found.stat, bytes: Buffer.from(found.bytes) };
    const dir = this.dirs.get(full);
    if (dir) throw fsError('EISDIR', `${file} is a directory`, dir.stat);
    throw fsError('ENOENT', `ENOENT: no such file or directory, open '${file}'`);
  }

  stat(file: string): FileStat | undefined {
    const full = path.resolve(file);
    return this.files.get(full)?.stat ?? this.dirs.get(full)?.stat;
  }

  list(dir: string): DirEntry[] {
    const full = path.resolve(dir);
    return [...this.folderOrThrow(dir).names].sort().map((name) => entry(name, this.dirs.has(path.join(full, name))));
  }

  listNames(dir: string): string[] {
    return [...this.folderOrThrow(dir).names].sort();
  }

  realPath(file: string): string {
    const full = path.resolve(file);
    if (!this.files.has(full) && !this.dirs.has(full)) throw fsError('ENOENT', `ENOENT: no such file or directory, realpath '${file}'`);
    return full;
  }

  private folderOrThrow(dir: string): { names: Set<string> } {
    const full = path.resolve(dir);
    const found = this.dirs.get(full);
    if (found) return found;
    throw fsError(this.files.has(full) ? 'ENOTDIR' : 'ENOENT', `cannot list ${dir}`);
  }

  private folder(dir: string): { names: Set<string>; stat: FileStat } {
    let found = this.dirs.get(dir);
    if (!found) {
      found = { names: new Set(), stat: stat('dir', this.nextIno++, 0, this.clock++) };
      this.dirs.set(dir, found);
      const parent = path.dirname(dir);
      if (parent !== dir) this.folder(parent).names.add(path.basename(dir));
    }
    return found;
  }

  /** A folder's listing changed: its times move, as on a disk. */
  private touch(dir: string): void {
    const found = this.folder(dir);
    found.stat = stat('dir', found.stat.ino, 0, this.clock++);
  }
}

function stat(kind: 'file' | 'dir', ino: number, size: number, time: number): FileStat {
  const isFile = kind === 'file';
  return { isFile: () => isFile, isDirectory: () => !isFile, dev: 1, ino, size, mtimeMs: time, ctimeMs: time, mode: isFile ? 0o100644 : 0o40755 };
}

function entry(name: string, isDir: boolean): DirEntry {
  return { name, isFile: () => !isDir, isDirectory: () => isDir, isSymbolicLink: () => false };
}
