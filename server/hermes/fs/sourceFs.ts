// The one way the domain reads a Hermes source: SOUL.md, skills, memory, project context and
// config.yaml are read through a SourceFs given by the caller, never through node:fs directly. The
// disk (diskFs.ts), a recording of what was read (recordingFs.ts), an editor's unsaved buffers over
// another fs (overlayFs.ts) and a home held in memory (memoryFs.ts) are the implementations.

/** What a stat says of a path: node's fs.Stats has these, and an fs in memory makes them up. */
export interface FileStat {
  isFile(): boolean;
  isDirectory(): boolean;
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly mode: number;
}

/** A folder's entry as a listing gives it (node's fs.Dirent has these). */
export interface DirEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * A regular file as read, with what a stat of the open file said: its bytes, or its text where the
 * fs holds text (an editor's buffer: used as it is, not encoded and decoded again).
 */
export type FileRead = { readonly stat: FileStat; readonly bytes: Buffer; readonly text?: undefined } | { readonly stat: FileStat; readonly text: string; readonly bytes?: undefined };

export interface SourceFs {
  /**
   * A regular file's content. Throws an error with node's `code` when it cannot: ENOENT, ENOTDIR,
   * EACCES, EISDIR for a folder, ENOTREG for anything else that is not a regular file (a pipe, a
   * device: never read). An error raised once the file was opened carries what its stat said
   * (`opened`), for the recording.
   */
  read(file: string): FileRead;
  /** What is at `file` (links followed); undefined when nothing is. May throw (ENOTDIR, EACCES, a loop). */
  stat(file: string): FileStat | undefined;
  /** A folder's entries; throws when it cannot be listed. */
  list(dir: string): DirEntry[];
  /** A folder's entry names; throws when it cannot be listed. */
  listNames(dir: string): string[];
  /** The real path (links resolved); throws when there is none. */
  realPath(file: string): string;
}

/** An error a SourceFs raised after opening the file, with what its stat said then. */
export interface OpenedError extends NodeJS.ErrnoException {
  readonly opened?: FileStat;
}

/** The text of a read as UTF-8 (lenient, as `Buffer.toString`): for files that are not sources (config keys, org mirror notes). */
export function utf8Of(read: FileRead): string {
  return read.text ?? read.bytes.toString('utf8');
}

/** An error with node's `code`, as the fs readers raise them. */
export function fsError(code: string, message: string, opened?: FileStat): OpenedError {
  return Object.assign(new Error(message), { code, ...(opened ? { opened } : {}) });
}
