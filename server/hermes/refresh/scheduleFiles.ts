// Where the language server keeps its refresh schedule: one small JSON file per state.db in the
// lens's cache folder (lensCacheFolder: `HERMES_LENS_TOKEN_CACHE` names another, `off` keeps the
// schedule in memory only), never in state.db. A file holds the database's path, the sessions' ids
// and the times their requests are due: no prompt text, no other session data. Mode 0600, written
// whole and renamed (cacheFiles.ts); a damaged file is ignored with a message.
//
// The file is the schedule every language server of this user shares (two editor windows on one
// home): each change is made to what the file holds now, under a lock file beside it, so one
// window's cancel or write is seen by the other, and a request due in both is written once.
import { createHash } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import { writeCacheFile } from '../cacheFiles';
import { withLock } from '../lockFile';
import { lensCacheFolder, processCacheEnv } from '../cacheFolder';

const FORMAT = 1;
const FOLDER = 'refresh-schedule-v1';

/** One session's request, due at an epoch second. */
export interface StoredRefresh {
  readonly sessionId: string;
  readonly dueAt: number;
}

export interface LoadedSchedule {
  readonly entries: readonly StoredRefresh[];
  /** Why a file that was there could not be used (it is then ignored). */
  readonly problem?: string;
}

export interface ScheduleFiles {
  load(dbFile: string): LoadedSchedule;
  /**
   * Changes the schedule of `dbFile` as it is kept now (a damaged file counts as empty, its problem
   * returned), with no other process changing it meanwhile; keeps and returns what `change` makes
   * of it (none: the file goes). Throws when it cannot be read under the lock or written.
   */
  update(dbFile: string, change: (entries: readonly StoredRefresh[]) => readonly StoredRefresh[]): LoadedSchedule;
  /** Calls `changed` when a kept schedule may have changed (another process's change, or this one's); returns how to stop. */
  watch(changed: () => void): () => void;
}

/** A schedule held in this process only (the cache folder turned off, or a run that keeps nothing). */
export function memoryScheduleFiles(): ScheduleFiles {
  const kept = new Map<string, readonly StoredRefresh[]>();
  return {
    load: (dbFile) => ({ entries: kept.get(dbFile) ?? [] }),
    update(dbFile, change) {
      const entries = change(kept.get(dbFile) ?? []);
      if (entries.length === 0) kept.delete(dbFile);
      else kept.set(dbFile, entries);
      return { entries };
    },
    watch: () => () => {}, // nothing else changes it
  };
}

/** The schedule files of the lens's cache folder; undefined when the folder is turned off. */
export function scheduleFiles(env: NodeJS.ProcessEnv = processCacheEnv()): ScheduleFiles | undefined {
  const dir = lensCacheFolder(env);
  if (!dir) return undefined;
  const fileOf = (dbFile: string) => path.join(dir, FOLDER, `${createHash('sha256').update(path.resolve(dbFile)).digest('base64url').slice(0, 24)}.json`);
  const load = (dbFile: string): LoadedSchedule => {
    const file = fileOf(dbFile);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return { entries: [] }; // none kept
    }
    const entries = parse(text, path.resolve(dbFile));
    return entries ? { entries } : { entries: [], problem: `The refresh schedule kept in ${file} is damaged; it was ignored, and no refresh it held will be made.` };
  };
  return {
    load,
    update(dbFile, change) {
      const file = fileOf(dbFile);
      return withLock(`${file}.lock`, () => {
        const kept = load(dbFile);
        const entries = change(kept.entries);
        // Unchanged, the file is left alone: the other windows watching it have nothing to take up.
        if (kept.problem === undefined && sameEntries(entries, kept.entries)) return { entries };
        if (entries.length === 0) fs.rmSync(file, { force: true });
        else writeCacheFile(file, JSON.stringify({ format: FORMAT, db: path.resolve(dbFile), entries: entries.map((e) => [e.sessionId, e.dueAt]) }));
        return kept.problem ? { entries, problem: kept.problem } : { entries };
      });
    },
    watch(changed) {
      try {
        const folder = path.join(dir, FOLDER);
        fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
        const watcher = fs.watch(folder, () => changed());
        watcher.on('error', () => watcher.close()); // the folder went: changes are seen at the next look
        return () => watcher.close();
      } catch {
        return () => {}; // no watching here: changes are seen at the next look
      }
    },
  };
}

function sameEntries(a: readonly StoredRefresh[], b: readonly StoredRefresh[]): boolean {
  return a.length === b.length && a.every((e, i) => e.sessionId === b[i]!.sessionId && e.dueAt === b[i]!.dueAt);
}

/** The entries of a file's text, or undefined when it is not a schedule of `dbFile` in this format. */
function parse(text: string, dbFile: string): StoredRefresh[] | undefined {
  let shape: unknown;
  try {
    shape = JSON.parse(text);
  } catch {
    return undefined;
  }
  const s = shape as { format?: unknown; db?: unknown; entries?: unknown };
  if (!s || typeof s !== 'object' || s.format !== FORMAT || s.db !== dbFile || !Array.isArray(s.entries)) return undefined;
  const entries: StoredRefresh[] = [];
  for (const row of s.entries as unknown[]) {
    if (!Array.isArray(row) || typeof row[0] !== 'string' || !row[0] || typeof row[1] !== 'number' || !Number.isFinite(row[1])) return undefined;
    entries.push({ sessionId: row[0], dueAt: row[1] });
  }
  return entries;
}
