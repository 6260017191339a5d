// An editor's unsaved buffers over another fs: a file with a buffer reads as the buffer's text
// (as the editor shows it, BOM dropped) and counts as a file even before it is first saved; every
// other path is the inner fs's. What diagnostics of an open context file and the save preview read.
import type { DirEntry, FileRead, FileStat, SourceFs } from './sourceFs';

export class OverlayFs implements SourceFs {
  /** Each buffer's stat when its file is not on the inner fs yet: a file of its own, never equal to another. */
  private readonly unsaved = new Map<string, FileStat>();

  /** `texts` by absolute (real) path. */
  constructor(
    private readonly inner: SourceFs,
    private readonly texts: ReadonlyMap<string, string>,
  ) {}

  read(file: string): FileRead {
    const text = this.texts.get(file);
    return text === undefined ? this.inner.read(file) : { stat: this.bufferStat(file, text), text };
  }

  stat(file: string): FileStat | undefined {
    const text = this.texts.get(file);
    return text === undefined ? this.inner.stat(file) : this.bufferStat(file, text);
  }

  list(dir: string): DirEntry[] {
    return this.inner.list(dir);
  }

  listNames(dir: string): string[] {
    return this.inner.listNames(dir);
  }

  realPath(file: string): string {
    return this.inner.realPath(file);
  }

  /** The file's own stat where it is a file on the inner fs (its identity stays), else one made up for the buffer. */
  private bufferStat(file: string, text: string): FileStat {
    let own: FileStat | undefined;
    try {
      own = this.inner.stat(file);
    } catch {
      own = undefined;
    }
    if (own?.isFile()) return own;
    let made = this.unsaved.get(file);
    if (!made) this.unsaved.set(file, (made = unsavedStat(-1 - this.unsaved.size, text.length)));
    return made;
  }
}

function unsavedStat(ino: number, size: number): FileStat {
  return { isFile: () => true, isDirectory: () => false, dev: -1, ino, size, mtimeMs: 0, ctimeMs: 0, mode: 0o100644 };
}
