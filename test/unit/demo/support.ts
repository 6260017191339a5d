// Helpers for the demo-generator tests: temp dirs and a raw read-only look into a state.db
// (PRAGMAs and columns the StateStore does not expose).
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export function tempDir(prefix = 'hermes-demo-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export type RawRow = Record<string, unknown>;

/** Runs `look` on a read-only connection and closes it. */
export function inspect<T>(file: string, look: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return look(db);
  } finally {
    db.close();
  }
}

export function columnsOf(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as RawRow[]).map((r) => String(r.name));
}

export function tablesOf(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as RawRow[]).map((r) =>
    String(r.name),
  );
}

/** `PRAGMA application_id` as the header stores it (offset 68, big-endian); call with no handle open. */
export function headerApplicationId(file: string): number {
  return fs.readFileSync(file).readUInt32BE(68);
}

export function fileMode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}
