// SQLite's failures as messages that name the file and say what to do (the lens never shows a bare
// SQLITE_BUSY): what an open, a read or a write of state.db can run into.
import fs = require('node:fs');
import path = require('node:path');
import { HermesError } from '../errors';

/** Turns SQLite's codes into messages that name the file and say what to do. */
export function translateSqliteError(error: unknown, file: string, purpose: 'read' | 'write' = 'read'): unknown {
  if (error instanceof HermesError) return error;
  const code = String((error as { code?: string }).code ?? '');
  const message = (error as Error)?.message ?? String(error);
  const nothing = purpose === 'write' ? ' Nothing was written.' : ' The lens wrote nothing.';
  // A reader is refused a write when SQLite must roll back a hot journal; @photostructure/sqlite may
  // report that without the extended code (or, on a later statement, without any code).
  const hotJournal = purpose === 'read' && /readonly database/i.test(message) && fileSize(`${file}-journal`) > 0;
  if (code === 'SQLITE_READONLY_ROLLBACK' || code === 'SQLITE_READONLY_RECOVERY' || hotJournal) {
    // A writer (Hermes) stopped mid-transaction; only a read-write open may repair the file.
    const sidecar = code === 'SQLITE_READONLY_RECOVERY' ? `${file}-wal` : `${file}-journal`;
    return new HermesError(
      'db-unfinished',
      `${file} holds an unfinished write of a process that stopped mid-transaction (${sidecar}), and the lens only reads, so it cannot roll it back. Start Hermes with this profile once (its next open repairs the file), then reload.`,
      file,
    );
  }
  const openFailed =
    code === 'ENOENT' || code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR') ||
    /does not exist|unable to open database file/i.test(message);
  if (openFailed) {
    const diagnosed = diagnoseOpen(file, purpose);
    if (diagnosed) return diagnosed;
  }
  if (code === 'ENOENT' || /does not exist|unable to open database file/i.test(message)) {
    return new HermesError('db-missing', `Cannot open ${file}: it does not exist or its folder is not readable. Run Hermes once with this profile, or check the path.`, file);
  }
  if (code === 'SQLITE_NOTADB' || /not a database/i.test(message)) {
    return new HermesError('db-not-sqlite', `${file} is not an SQLite database (it may be truncated or overwritten). Restore it from a backup; the lens never writes to it.`, file);
  }
  if (code === 'SQLITE_CORRUPT' || /malformed/i.test(message)) {
    return new HermesError('db-not-sqlite', `${file} is damaged ("${message}"). Stop Hermes and check it with "sqlite3 ${file} 'PRAGMA integrity_check'".`, file);
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || /database is locked|busy/i.test(message)) {
    return new HermesError('db-locked', `${file} stayed locked by another writer past the timeout.${nothing} Try again in a moment.`, file);
  }
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY') || /readonly|read-only/i.test(message)) {
    return new HermesError('db-readonly', `${file} is read-only (file mode, owner or filesystem), so the refresh request cannot be recorded. Fix its permissions; nothing was written.`, file);
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'EACCES') {
    return new HermesError('db-unreadable', `Cannot open ${file} (${message}). Check its permissions and those of its folder.`, file);
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new HermesError('db-unreadable', `Reading ${file} failed with an I/O error (${message}). Check the disk and the file.${nothing}`, file);
  }
  if (/no such (table|column)/i.test(message)) {
    return new HermesError('db-schema', `${file} lacks what the lens expected (${message}). Run Hermes once to migrate it.`, file);
  }
  return error;
}

/**
 * Why SQLite could not open `file`, found with stat/access only: those never open the file, so they
 * cannot drop the POSIX locks this process may hold on it.
 */
function diagnoseOpen(file: string, purpose: 'read' | 'write'): HermesError | undefined {
  const dir = path.dirname(file);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return new HermesError('db-unreadable', `${file} is a symbolic link that loops. Point it at the real state.db, or remove it so Hermes creates a new one.`, file);
    if (code === 'EACCES') return new HermesError('db-unreadable', `Cannot open ${file}: its folder ${dir} is not accessible to this user. Run the lens as the user that runs Hermes, or fix the folder's permissions.`, file);
    return undefined;
  }
  if (stat.isDirectory()) {
    return new HermesError('db-unreadable', `${file} is a directory, not Hermes' database. Move it out of the way; Hermes creates state.db on its next start.`, file);
  }
  const owner = `owner uid ${stat.uid}, mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}`;
  if (!accessible(file, fs.constants.R_OK)) {
    return new HermesError('db-unreadable', `Cannot read ${file}: permission denied for this user (${owner}). Run the lens as the user that runs Hermes, or fix the file's owner or mode.`, file);
  }
  const dirWrite = accessError(dir, fs.constants.W_OK);
  if (dirWrite === 'EROFS') {
    return new HermesError(
      purpose === 'write' ? 'db-readonly' : 'db-unreadable',
      purpose === 'write'
        ? `${file} is on a read-only file system, so the refresh request cannot be recorded. Nothing was written; remount it read-write (Hermes needs that too).`
        : `Cannot read ${file}: it is on a read-only file system, and SQLite needs to create ${path.basename(file)}-shm next to a WAL database to read it. Remount it read-write (Hermes needs that too); the lens wrote nothing.`,
      file,
    );
  }
  if (dirWrite === 'EACCES') {
    return new HermesError(
      purpose === 'write' ? 'db-readonly' : 'db-unreadable',
      `Cannot ${purpose === 'write' ? 'write to' : 'read'} ${file}: its folder ${dir} is not writable for this user, and SQLite must create ${path.basename(file)}-wal/-shm (or -journal) there. Run the lens as the user that runs Hermes, or make the folder writable.${purpose === 'write' ? ' Nothing was written.' : ''}`,
      file,
    );
  }
  if (purpose === 'write' && !accessible(file, fs.constants.W_OK)) {
    return new HermesError('db-readonly', `${file} is read-only for this user (${owner}), so the refresh request cannot be recorded. Nothing was written; run the lens as the user that runs Hermes, or fix the file's owner or mode.`, file);
  }
  return undefined;
}

function accessError(file: string, mode: number): string | undefined {
  try {
    fs.accessSync(file, mode);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

function accessible(file: string, mode: number): boolean {
  return accessError(file, mode) === undefined;
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
