// What stat() says of a state.db and its WAL, as one string: files whose size, times and inode did
// not change hold the same database (every write goes through write(2), which moves mtime and
// ctime). stat() only: the files are never opened here (FACTS §2: POSIX locks are per process).
import * as fs from 'node:fs';

export interface DatabaseFiles {
  readonly signature: string;
  /** The newest modification or change time of the two, for the caller's racy check. */
  readonly newestChangeMs: number;
}

export function databaseFiles(dbFile: string): DatabaseFiles {
  let newestChangeMs = 0;
  const part = (file: string) => {
    try {
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st) return '-';
      newestChangeMs = Math.max(newestChangeMs, st.mtimeMs, st.ctimeMs);
      return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      return '?';
    }
  };
  return { signature: `${part(dbFile)}|${part(`${dbFile}-wal`)}`, newestChangeMs };
}
