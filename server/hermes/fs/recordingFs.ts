// A SourceFs that notes what rendering the sources read, so a later run can tell with stat() alone
// that rendering again would read the same: every file read, folder listed, path tested and real
// path resolved, each with what stat() said of it then. `readsStillHold` stats every noted path
// again (a few thousand for a thousand skills, a tenth of reading them) and compares.
//
// Why stat() is enough: a file's content does not change without its size or mtime changing, nor
// either without its ctime changing (ctime cannot be set from user space); a folder's listing
// does not change without its mtime changing. Paths are compared as the readers named them, with
// what the readers saw there (a folder, a file, nothing), so a link pointed elsewhere or a file
// appearing where none was is a change too. A file changed within the clock's grain of the
// recording could still look the same (git's "racy" case), so `newestChangeMs` lets the caller
// refuse to keep a recording that saw anything change in its last seconds.
import { createHash } from 'node:crypto';
import { diskFs } from './diskFs';
import type { DirEntry, FileRead, FileStat, OpenedError, SourceFs } from './sourceFs';

type ReadKind = 'file' | 'list' | 'kind' | 'real';

/** A change this recent may share its file times with the next one: a recording that saw one is not kept between runs. */
export const RACY_MS = 3000;

/** What was seen, in the order of the reads: stat fields as numbers, other answers as text. */
class Seen {
  /** Grown by doubling; `length` of them are used. A typed array: a number costs no allocation. */
  private numbers: Float64Array;
  private length = 0;
  texts: string[] = [];
  newestChangeMs = 0;

  constructor(expectedReads = 64) {
    this.numbers = new Float64Array(expectedReads * STAT_FIELDS);
  }

  stat(stat: FileStat | undefined, times: boolean): void {
    if (!stat) return this.push(-1);
    const kind = stat.isFile() ? 1 : stat.isDirectory() ? 2 : 3;
    if (!times) return this.push(kind);
    this.room(STAT_FIELDS);
    const n = this.numbers;
    let i = this.length;
    n[i++] = kind;
    n[i++] = stat.dev;
    n[i++] = stat.ino;
    n[i++] = stat.size;
    n[i++] = stat.mtimeMs;
    n[i++] = stat.ctimeMs;
    n[i++] = stat.mode;
    this.length = i;
    this.newestChangeMs = Math.max(this.newestChangeMs, stat.mtimeMs, stat.ctimeMs);
  }

  /** Pushes again `count` numbers pushed from `start` on (what a stat of the same path pushed). */
  repeat(start: number, count: number): void {
    this.room(count);
    this.numbers.copyWithin(this.length, start, start + count);
    this.length += count;
  }

  numberAt(index: number): number {
    return this.numbers[index]!;
  }

  /** Where the next pushed number goes. */
  get position(): number {
    return this.length;
  }

  text(text: string): void {
    this.push(-2);
    this.texts.push(text);
  }

  /** One hash of everything seen, without formatting a number. */
  digest(): string {
    const bytes = new Uint8Array(this.numbers.buffer, 0, this.length * Float64Array.BYTES_PER_ELEMENT);
    return createHash('sha256').update(bytes).update(this.texts.join('\n')).digest('base64url');
  }

  private push(value: number): void {
    this.room(1);
    this.numbers[this.length++] = value;
  }

  private room(count: number): void {
    if (this.length + count <= this.numbers.length) return;
    const grown = new Float64Array(Math.max(this.numbers.length * 2, this.length + count));
    grown.set(this.numbers.subarray(0, this.length));
    this.numbers = grown;
  }
}

/** The numbers a stat with times pushes: kind, dev, ino, size, mtimeMs, ctimeMs, mode. */
const STAT_FIELDS = 7;

/** Reads as kept on disk: the paths front-coded (a thousand skills share most of their path) and one hash of what was seen. */
export interface PackedReads {
  readonly paths: string;
  readonly seen: string;
}

/** Reads through `inner`, noting each (one or more renderings, in order). */
export class RecordingFs implements SourceFs {
  readonly reads: Array<readonly [path: string, how: ReadKind]> = [];
  readonly seen = new Seen();

  /**
   * `statTimes`: stat() is noted with the path's times, as a read is, not its kind alone: for a
   * reader whose answer depends on what it stat()ed (a file passed over for its size).
   */
  constructor(
    private readonly inner: SourceFs = diskFs,
    private readonly statTimes = false,
  ) {}

  /** A file about to be read is noted as its open file's stat saw it; one that could not be opened, as what is at the path now. */
  read(file: string): FileRead {
    let read: FileRead;
    try {
      read = this.inner.read(file);
    } catch (error) {
      const opened = (error as OpenedError).opened;
      if (opened) this.noteStat(file, opened);
      else this.note(file, 'file');
      throw error;
    }
    this.noteStat(file, read.stat);
    return read;
  }

  /** Noted as its kind (not its times), unless the recording notes stats with their times. */
  stat(file: string): FileStat | undefined {
    this.note(file, this.statTimes ? 'file' : 'kind');
    return this.inner.stat(file);
  }

  /** Noted with the folder's times. */
  list(dir: string): DirEntry[] {
    this.note(dir, 'list');
    return this.inner.list(dir);
  }

  listNames(dir: string): string[] {
    this.note(dir, 'list');
    return this.inner.listNames(dir);
  }

  /** Noted with its answer. */
  realPath(file: string): string {
    this.note(file, 'real');
    return this.inner.realPath(file);
  }

  /** The newest modification or change time of anything read (for the racy check). */
  get newestChangeMs(): number {
    return this.seen.newestChangeMs;
  }

  pack(): PackedReads {
    const lines: string[] = [];
    let previous = '';
    for (const [file, how] of this.reads) {
      let shared = 0;
      const limit = Math.min(previous.length, file.length);
      while (shared < limit && previous.charCodeAt(shared) === file.charCodeAt(shared)) shared++;
      lines.push(`${shared}${KIND_CODE[how]}${file.slice(shared)}`);
      previous = file;
    }
    return { paths: lines.join('\n'), seen: this.seen.digest() };
  }

  private noteStat(file: string, stat: FileStat): void {
    this.reads.push([file, 'file']);
    this.seen.stat(stat, true);
  }

  private note(file: string, how: ReadKind): void {
    this.reads.push([file, how]);
    void sense(this.inner, file, how, this.seen);
  }
}

/** Whether every packed read would see the same today (false for anything that does not unpack). */
export function readsStillHold(packed: PackedReads, fs: SourceFs = diskFs): boolean {
  const lines = packed.paths === '' ? [] : packed.paths.split('\n');
  const seen = new Seen(lines.length);
  // A path read in two ways (tested for, then read: a project's AGENTS.md) is stat'ed once: what
  // its stat pushed is pushed again. Only where it went is kept (`start`, or `~start` when the
  // stat pushed one number: nothing there, or only its kind), not the Stats object: a few
  // thousand of those living through the pass made the collector copy them from space to space.
  const statted = new Map<string, number>();
  let previous = '';
  for (const line of lines) {
    let digits = 0;
    while (digits < line.length && isDigit(line.charCodeAt(digits))) digits++;
    const how = CODE_KIND[line.charAt(digits)];
    if (digits === 0 || how === undefined) return false;
    const file = previous.slice(0, Number(line.slice(0, digits))) + line.slice(digits + 1);
    previous = file;
    const times = how !== 'kind';
    const earlier = how === 'real' ? undefined : statted.get(file);
    if (earlier !== undefined && earlier >= 0) {
      seen.repeat(earlier, times ? STAT_FIELDS : 1);
      continue;
    }
    if (earlier !== undefined && (!times || seen.numberAt(~earlier) === -1)) {
      seen.repeat(~earlier, 1);
      continue;
    }
    const start = seen.position;
    if (!sense(fs, file, how, seen)) continue;
    statted.set(file, seen.position - start === STAT_FIELDS ? start : ~start);
  }
  return seen.digest() === packed.seen;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * What `how` sees at `file` now, into `seen`: the same calls at recording and at checking. True
 * when that was a stat (false: a real path or an error, pushed as text).
 */
function sense(fs: SourceFs, file: string, how: ReadKind, seen: Seen): boolean {
  try {
    if (how === 'real') return seen.text(fs.realPath(file)), false;
    seen.stat(fs.stat(file), how !== 'kind');
    return true;
  } catch (error) {
    seen.text(`error:${(error as NodeJS.ErrnoException).code ?? ''}`);
    return false;
  }
}

const KIND_CODE: Readonly<Record<ReadKind, string>> = { file: 'f', list: 'l', kind: 'k', real: 'r' };
const CODE_KIND: Readonly<Record<string, ReadKind>> = { f: 'file', l: 'list', k: 'kind', r: 'real' };
