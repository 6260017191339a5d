// Listing and reading an installation's Python sources within bounds: a file too large to be a
// Hermes module, or one holding NUL bytes, is passed over with a sentence saying so; one that
// cannot be read is reported with its error. Only regular files are opened (a FIFO would block).
// Through a SourceFs, so a recording of it can tell later, by stat() alone, that nothing changed.
import path = require('node:path');
import { diskFs } from '../fs/diskFs';
import type { DirEntry, SourceFs } from '../fs/sourceFs';

/** Hermes' largest modules are under 1 MB; a Python file far larger is not one of its sources. */
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
const MAX_FILES = 5000;
const MAX_DEPTH = 8;
const SKIPPED_FOLDERS = new Set(['__pycache__', 'tests', 'test', 'node_modules']);

export type SourceRead =
  | { readonly kind: 'text'; readonly file: string; readonly text: string }
  /** Read, but `relevant` said it holds nothing looked for. */
  | { readonly kind: 'irrelevant'; readonly file: string }
  /** Not a Python source (too large, binary): passed over, `why` says so. */
  | { readonly kind: 'skipped'; readonly file: string; readonly why: string }
  | { readonly kind: 'unreadable'; readonly file: string; readonly code: string };

/** A file or folder that could not be read, with node's error code (`EACCES`, `EIO`, …). */
export interface UnreadableSource {
  readonly file: string;
  readonly code: string;
}

function unreadableOf(file: string, error: unknown): UnreadableSource {
  return { file, code: (error as NodeJS.ErrnoException).code ?? 'EIO' };
}

/**
 * A source's text, when it is one and holds one of `needles` (tested on its bytes: most files hold
 * none, and are never decoded).
 */
export function readSource(file: string, needles: readonly string[], fs: SourceFs = diskFs): SourceRead {
  let bytes: Buffer;
  try {
    const stat = fs.stat(file);
    if (!stat) return { kind: 'unreadable', file, code: 'ENOENT' };
    if (!stat.isFile()) return { kind: 'skipped', file, why: `${file} is not a regular file; it was not read.` };
    if (stat.size > MAX_SOURCE_BYTES) {
      return { kind: 'skipped', file, why: `${file} is ${stat.size} bytes, more than any Python source of Hermes holds; it was not read.` };
    }
    const read = fs.read(file);
    bytes = read.bytes ?? Buffer.from(read.text);
  } catch (error) {
    return { kind: 'unreadable', ...unreadableOf(file, error) };
  }
  if (bytes.includes(0)) return { kind: 'skipped', file, why: `${file} holds NUL bytes, so it is no Python source; it was not read.` };
  return needles.some((n) => bytes.includes(n)) ? { kind: 'text', file, text: bytes.toString('utf8') } : { kind: 'irrelevant', file };
}

export interface SourceListing {
  /** The `.py` files under the folder, in a stable order. */
  readonly files: readonly string[];
  readonly notes: readonly string[];
  /** Folders that could not be listed. */
  readonly unreadable: readonly UnreadableSource[];
}

/** The Python files under `dir` (none when it is missing), tests and caches left out; links to folders are not followed. */
export function sourceFiles(dir: string, fs: SourceFs = diskFs): SourceListing {
  const files: string[] = [];
  const notes: string[] = [];
  const unreadable: UnreadableSource[] = [];
  const walk = (folder: string, depth: number) => {
    let entries: DirEntry[];
    try {
      entries = fs.list(folder);
    } catch (error) {
      if (folder !== dir || (error as NodeJS.ErrnoException).code !== 'ENOENT') unreadable.push(unreadableOf(folder, error));
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= MAX_FILES) return;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name) && depth < MAX_DEPTH) walk(full, depth + 1);
      } else if (entry.name.endsWith('.py') && (entry.isFile() || entry.isSymbolicLink())) {
        files.push(full);
      }
    }
  };
  walk(dir, 0);
  // The files a CLI's commands are most likely registered in first: a build that has them is told after reading a few.
  files.sort((a, b) => likelihood(b) - likelihood(a));
  if (files.length >= MAX_FILES) notes.push(`${dir} holds more than ${MAX_FILES} Python files; only the first ${MAX_FILES} were read.`);
  return { files, notes, unreadable };
}

function likelihood(file: string): number {
  return /(?:main|parser|session|command|cli)[^/\\]*\.py$/i.test(file) ? 1 : 0;
}
