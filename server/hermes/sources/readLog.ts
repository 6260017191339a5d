// What rendering the sources read of the file system, so a later run can tell with stat() alone
// that rendering again would read the same: every file read, folder listed, path tested and real
// path resolved, each with what stat() said of it then. The readers of this folder make their file
// system calls through the functions here; while a ReadRecording runs a rendering, each call
// notes what it touched. `readsStillHold` stats every noted path again (a few thousand for a thousand skills,
// a tenth of reading them) and compares.
//
// Why stat() is enough: a file's content does not change without its size or mtime changing, nor
// either without its ctime changing (ctime cannot be set from user space); a folder's listing
// does not change without its mtime changing. Paths are compared as the readers named them, with
// what the readers saw there (a folder, a file, nothing), so a link pointed elsewhere or a file
// appearing where none was is a change too. A file changed within the clock's grain of the
// recording could still look the same (git's "racy" case), so `newestChangeMs` lets the caller
// refuse to keep a recording that saw anything change in its last seconds.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { resolvedRealPath } from '../canonicalPath';

type ReadKind = 'file' | 'list' | 'kind' | 'real';

/** What was seen, in the order of the reads: stat fields as numbers, other answers as text. */
class Seen {
  numbers: number[] = [];
  texts: string[] = [];
  newestChangeMs = 0;

  stat(stat: fs.Stats | undefined, times: boolean): void {
    if (!stat) return void this.numbers.push(-1);
    const kind = stat.isFile() ? 1 : stat.isDirectory() ? 2 : 3;
    if (!times) return void this.numbers.push(kind);
    this.numbers.push(kind, stat.dev, stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs, stat.mode);
    this.newestChangeMs = Math.max(this.newestChangeMs, stat.mtimeMs, stat.ctimeMs);
  }

  text(text: string): void {
    this.numbers.push(-2);
    this.texts.push(text);
  }

  /** One hash of everything seen, without formatting a number. */
  digest(): string {
    return createHash('sha256').update(new Uint8Array(Float64Array.from(this.numbers).buffer)).update(this.texts.join('\n')).digest('base64url');
  }
}

let recording: ReadRecording | undefined;

/** Reads as kept on disk: the paths front-coded (a thousand skills share most of their path) and one hash of what was seen. */
export interface PackedReads {
  readonly paths: string;
  readonly seen: string;
}

/** The reads of one or more renderings, in order. */
export class ReadRecording {
  readonly reads: Array<readonly [path: string, how: ReadKind]> = [];
  readonly seen = new Seen();

  /** Runs `render` noting every read of the functions below into this recording. */
  during<T>(render: () => T): T {
    const outer = recording;
    recording = this;
    try {
      return render();
    } finally {
      recording = outer;
    }
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
}

/** Whether every packed read would see the same today (false for anything that does not unpack). */
export function readsStillHold(packed: PackedReads): boolean {
  const seen = new Seen();
  // A path read in two ways (tested for, then read: a project's AGENTS.md) is stat'ed once.
  const stats = new Map<string, fs.Stats | undefined>();
  let previous = '';
  for (const line of packed.paths === '' ? [] : packed.paths.split('\n')) {
    const match = /^(\d+)([flkr])/.exec(line);
    if (!match) return false;
    const file = previous.slice(0, Number(match[1])) + line.slice(match[0].length);
    sense(file, CODE_KIND[match[2]!]!, seen, stats);
    previous = file;
  }
  return seen.digest() === packed.seen;
}

/** A file about to be read, as its descriptor's fstat saw it (readText.ts opens, fstats, reads). */
export function noteFileRead(file: string, stat: fs.Stats): void {
  if (!recording) return;
  recording.reads.push([file, 'file']);
  recording.seen.stat(stat, true);
}

/** A file that could not be opened: what is at the path now (nothing, a folder, a locked file). */
export function noteFileUnread(file: string): void {
  if (recording) note(file, 'file');
}

/** `fs.readdirSync(dir, { withFileTypes: true })`, noted with the folder's times. */
export function listFolder(dir: string): fs.Dirent[] {
  if (recording) note(dir, 'list');
  return fs.readdirSync(dir, { withFileTypes: true });
}

/** `fs.readdirSync(dir)` (names), noted with the folder's times. */
export function listFolderNames(dir: string): string[] {
  if (recording) note(dir, 'list');
  return fs.readdirSync(dir);
}

/** `fs.statSync(file, { throwIfNoEntry: false })`: what is there, noted as its kind (not its times). */
export function statPath(file: string): fs.Stats | undefined {
  if (recording) note(file, 'kind');
  return fs.statSync(file, { throwIfNoEntry: false });
}

/** `fs.realpathSync.native` (the JavaScript one on Windows), noted with its answer. */
export function realPath(file: string): string {
  if (recording) note(file, 'real');
  return resolvedRealPath(file);
}

function note(file: string, how: ReadKind): void {
  recording!.reads.push([file, how]);
  sense(file, how, recording!.seen);
}

/**
 * What `how` sees at `file` now, into `seen`: the same calls at recording and at checking (a check
 * passes `stats`, the answers of its stat calls so far by path).
 */
function sense(file: string, how: ReadKind, seen: Seen, stats?: Map<string, fs.Stats | undefined>): void {
  try {
    if (how === 'real') return seen.text(resolvedRealPath(file));
    let stat = stats?.get(file);
    if (stat === undefined && !stats?.has(file)) {
      stat = fs.statSync(file, { throwIfNoEntry: false });
      stats?.set(file, stat);
    }
    seen.stat(stat, how !== 'kind');
  } catch (error) {
    seen.text(`error:${(error as NodeJS.ErrnoException).code ?? ''}`);
  }
}

const KIND_CODE: Readonly<Record<ReadKind, string>> = { file: 'f', list: 'l', kind: 'k', real: 'r' };
const CODE_KIND: Readonly<Record<string, ReadKind>> = { f: 'file', l: 'list', k: 'kind', r: 'real' };
