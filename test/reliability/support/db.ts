// A raw look into a state.db from the test's side: what Hermes watches (journal mode, application_id,
// db_file_generation), integrity, state_meta and row counts. Every handle is closed before returning,
// so the test process never holds SQLite locks while it hashes files (docs/HERMES-HOMES.md).
import Database from 'better-sqlite3';
import * as fs from 'node:fs';

export interface DbIdentity {
  readonly journalMode: string;
  readonly applicationId: number;
  readonly generation: string | undefined;
}

export type Meta = Map<string, string>;

/** Runs `look` on a read-only connection (what the lens uses) and closes it. */
export function readOnly<T>(file: string, look: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    return look(db);
  } finally {
    db.close();
  }
}

/**
 * Opens the file as Hermes' next writer would (read-write, 1 s busy timeout), which is what rolls
 * back a hot journal a killed writer left behind; then runs `look` and closes.
 */
export function asNextWriter<T>(file: string, look: (db: Database.Database) => T): T {
  const db = new Database(file, { fileMustExist: true, timeout: 1000 });
  try {
    return look(db);
  } finally {
    db.close();
  }
}

export function identityOf(db: Database.Database): DbIdentity {
  const generation = db.prepare("SELECT value FROM state_meta WHERE key = 'db_file_generation'").get() as { value: string } | undefined;
  return {
    journalMode: String(db.pragma('journal_mode', { simple: true })),
    applicationId: Number(db.pragma('application_id', { simple: true })),
    generation: generation?.value,
  };
}

export function integrityOf(db: Database.Database): string {
  return String(db.pragma('integrity_check', { simple: true }));
}

export function metaOf(db: Database.Database): Meta {
  const rows = db.prepare('SELECT key, value FROM state_meta ORDER BY key').all() as Array<{ key: string; value: unknown }>;
  return new Map(rows.map((r) => [r.key, r.value == null ? '' : String(r.value)]));
}

/** `journal_mode` as stored in the header (bytes 18/19: 2 = WAL, 1 = rollback journal). */
export function headerJournal(file: string): 'wal' | 'rollback' {
  const fd = fs.openSync(file, 'r');
  try {
    const header = Buffer.alloc(20);
    fs.readSync(fd, header, 0, 20, 0);
    return header[18] === 2 ? 'wal' : 'rollback';
  } finally {
    fs.closeSync(fd);
  }
}
