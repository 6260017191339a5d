// Where the language server keeps its refresh schedule between runs: one small JSON file per
// state.db in the lens's cache folder (tokenCacheDir: `HERMES_LENS_TOKEN_CACHE` names another,
// `off` keeps the schedule in memory only), never in state.db. A file holds the database's path,
// the sessions' ids and the times their requests are due: no prompt text, no other session data.
// Mode 0600, written whole and renamed (cacheFiles.ts); a damaged file is ignored with a message.
import { createHash } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import { writeCacheFile } from '../cacheFiles';
import { tokenCacheDir } from '../cost/tokenCountStore';

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
  /** Keeps `entries` as the schedule of `dbFile` (none: the file goes). Throws when it cannot be written. */
  save(dbFile: string, entries: readonly StoredRefresh[]): void;
}

/** The schedule files of the lens's cache folder; undefined when the folder is turned off. */
export function scheduleFiles(env: NodeJS.ProcessEnv = process.env): ScheduleFiles | undefined {
  const dir = tokenCacheDir(env);
  if (!dir) return undefined;
  const fileOf = (dbFile: string) => path.join(dir, FOLDER, `${createHash('sha256').update(path.resolve(dbFile)).digest('base64url').slice(0, 24)}.json`);
  return {
    load(dbFile) {
      const file = fileOf(dbFile);
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        return { entries: [] }; // none kept
      }
      const entries = parse(text, path.resolve(dbFile));
      return entries ? { entries } : { entries: [], problem: `The refresh schedule kept in ${file} is damaged; it was ignored, and no refresh it held will be made.` };
    },
    save(dbFile, entries) {
      const file = fileOf(dbFile);
      if (entries.length === 0) return fs.rmSync(file, { force: true });
      const rows = entries.map((e) => [e.sessionId, e.dueAt]);
      writeCacheFile(file, JSON.stringify({ format: FORMAT, db: path.resolve(dbFile), entries: rows }));
    },
  };
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
