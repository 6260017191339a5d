// A SourceFs held in memory, for tests: a home built from paths and texts, no disk. Folders are
// implied by the files under them; there are no links (a real path is the resolved path). Each path
// is read in its own flavour (pathFlavour.ts), so a Windows home (`C:\Users\ann\…`) can be held on
// any machine; its names are matched whatever their case, as on NTFS, and keep the case they were
// first written with.
import path = require('node:path');
import { flavourOf } from '../pathFlavour';
import { fsError, type DirEntry, type FileRead, type FileStat, type SourceFs } from './sourceFs';

interface Folder {
  /** Entry names by their key (lower case on Windows), as first written. */
  readonly names: Map<string, string>;
  stat: FileStat;
}

export class MemoryFs implements SourceFs {
  private readonly files = new Map<string, { bytes: Buffer; stat: FileStat }>();
  private readonly dirs = new Map<string, Folder>();
  private nextIno = 1;
  private clock = 1;

  /** `files`: text (or bytes) by absolute path. */
  constructor(files: Readonly<Record<string, string | Uint8Array>> = {}) {
    for (const [file, content] of Object.entries(files)) this.write(file, content);
  }

  /** Adds or replaces a file (and makes its folders); its stat changes as a disk's would. */
  write(file: string, content: string | Uint8Array): this {
    const p = flavourOf(file);
    const full = p.resolve(file);
    const folder = this.folder(p.dirname(full));
    const name = p.basename(full);
    if (!folder.names.has(nameKey(p, name))) folder.names.set(nameKey(p, name), name);
    this.touch(p.dirname(full));
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const ino = this.files.get(key(full))?.stat.ino ?? this.nextIno++;
    this.files.set(key(full), { bytes, stat: stat('file', ino, bytes.length, this.clock++) });
    return this;
  }

  /** Removes a file. */
  remove(file: string): this {
    const p = flavourOf(file);
    const full = p.resolve(file);
    if (this.files.delete(key(full))) {
      this.dirs.get(key(p.dirname(full)))?.names.delete(nameKey(p, p.basename(full)));
      this.touch(p.dirname(full));
    }
    return this;
  }

  read(file: string): FileRead {
    const full = key(flavourOf(file).resolve(file));
    const found = this.files.get(full);
    if (found) return { stat: found.stat, bytes: Buffer.from(found.bytes) };
    const dir = this.dirs.get(full);
    if (dir) throw fsError('EISDIR', `${file} is a directory`, dir.stat);
    throw fsError('ENOENT', `ENOENT: no such file or directory, open '${file}'`);
  }

  stat(file: string): FileStat | undefined {
    const full = key(flavourOf(file).resolve(file));
    return this.files.get(full)?.stat ?? this.dirs.get(full)?.stat;
  }

  list(dir: string): DirEntry[] {
    const p = flavourOf(dir);
    const full = p.resolve(dir);
    return this.listNames(dir).map((name) => entry(name, this.dirs.has(key(p.join(full, name)))));
  }

  listNames(dir: string): string[] {
    return [...this.folderOrThrow(dir).names.values()].sort();
  }

  /** The path as named, resolved (Node's realpath on Windows keeps the case it was given too). */
  realPath(file: string): string {
    const full = flavourOf(file).resolve(file);
    if (!this.files.has(key(full)) && !this.dirs.has(key(full))) throw fsError('ENOENT', `ENOENT: no such file or directory, realpath '${file}'`);
    return full;
  }

  private folderOrThrow(dir: string): Folder {
    const full = key(flavourOf(dir).resolve(dir));
    const found = this.dirs.get(full);
    if (found) return found;
    throw fsError(this.files.has(full) ? 'ENOTDIR' : 'ENOENT', `cannot list ${dir}`);
  }

  private folder(dir: string): Folder {
    let found = this.dirs.get(key(dir));
    if (!found) {
      found = { names: new Map(), stat: stat('dir', this.nextIno++, 0, this.clock++) };
      this.dirs.set(key(dir), found);
      const p = flavourOf(dir);
      const parent = p.dirname(dir);
      if (parent !== dir) {
        const name = p.basename(dir);
        const names = this.folder(parent).names;
        if (!names.has(nameKey(p, name))) names.set(nameKey(p, name), name);
      }
    }
    return found;
  }

  /** A folder's listing changed: its times move, as on a disk. */
  private touch(dir: string): void {
    const found = this.folder(dir);
    found.stat = stat('dir', found.stat.ino, 0, this.clock++);
  }
}

/** The key of a resolved path: Windows paths match whatever their case. */
function key(full: string): string {
  return flavourOf(full) === path.win32 ? full.toLowerCase() : full;
}

function nameKey(p: path.PlatformPath, name: string): string {
  return p === path.win32 ? name.toLowerCase() : name;
}

function stat(kind: 'file' | 'dir', ino: number, size: number, time: number): FileStat {
  const isFile = kind === 'file';
  return { isFile: () => isFile, isDirectory: () => !isFile, dev: 1, ino, size, mtimeMs: time, ctimeMs: time, mode: isFile ? 0o100644 : 0o40755 };
}

function entry(name: string, isDir: boolean): DirEntry {
  return { name, isFile: () => !isDir, isDirectory: () => isDir, isSymbolicLink: () => false };
}
