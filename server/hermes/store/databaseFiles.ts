// What stat() says of a state.db and its WAL, as one string: files whose size, mtime and inode did
// not change hold the same database (every write goes through write(2), which moves mtime).
// stat() only: the files are never opened here (POSIX locks are per process: docs/HERMES-HOMES.md).
//
// Two things move without a write, so they are left out. ctime: as root, SQLite chowns the WAL it
// opens to the database's owner (even a read-only connection, even to the owner it already has).
// An empty WAL: a reader's open creates one where none was, and a WAL with no frames adds nothing
// to the database, so an empty WAL and none are the same.
import fs = require('node:fs');

export interface DatabaseFiles {
  readonly signature: string;
  /** The newest modification time of the two, for the caller's racy check. */
  readonly newestChangeMs: number;
}

export function databaseFiles(dbFile: string): DatabaseFiles {
  let newestChangeMs = 0;
  const part = (file: string, emptyIsNone: boolean) => {
    try {
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st || (emptyIsNone && st.size === 0)) return '-';
      newestChangeMs = Math.max(newestChangeMs, st.mtimeMs);
      return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return '?';
    }
  };
  return { signature: `${part(dbFile, false)}|${part(`${dbFile}-wal`, true)}`, newestChangeMs };
}
