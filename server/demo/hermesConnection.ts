// How the simulated Hermes opens its state.db for a write (FACTS §2): a 1 s busy timeout,
// `PRAGMA foreign_keys=ON`, and one short BEGIN IMMEDIATE transaction with jittered retries.
import { openConnection, type SqliteConnection } from '../hermes/store/connection';
import { runImmediate } from '../hermes/store/transaction';
import { layoutOf, type SchemaLayout } from './hermes/schema';

export const HERMES_WRITER_BUSY_TIMEOUT_MS = 1000;

export function openHermesWriter(dbFile: string): SqliteConnection {
  const db = openConnection(dbFile, { readonly: false, busyTimeoutMs: HERMES_WRITER_BUSY_TIMEOUT_MS });
  try {
    db.exec('PRAGMA foreign_keys=ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Opens, runs `body` in one BEGIN IMMEDIATE transaction, closes. */
export function hermesWrite<T>(dbFile: string, body: (db: SqliteConnection, layout: SchemaLayout) => T): T {
  const db = openHermesWriter(dbFile);
  try {
    const layout = layoutOf(db);
    return runImmediate(db, () => body(db, layout));
  } finally {
    db.close();
  }
}
