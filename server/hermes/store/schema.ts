// What this state.db actually has (detect, never assume, never alter: docs/HERMES-HOMES.md).
import type { SqliteConnection } from './connection';

export interface SchemaInfo {
  /** `schema_version.version`, or undefined when the table is missing or empty. */
  readonly version: number | undefined;
  readonly tables: ReadonlyMap<string, ReadonlySet<string>>;
}

export function readSchema(db: SqliteConnection): SchemaInfo {
  const tables = new Map<string, Set<string>>();
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  for (const row of names) {
    const name = String(row.name);
    const columns = db.prepare(`PRAGMA table_info(${quoteIdentifier(name)})`).all();
    tables.set(name, new Set(columns.map((c) => String(c.name))));
  }
  let version: number | undefined;
  if (tables.get('schema_version')?.has('version')) {
    const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get();
    version = row?.v == null ? undefined : Number(row.v);
  }
  return { version, tables };
}

export function hasColumn(schema: SchemaInfo, table: string, column: string): boolean {
  return schema.tables.get(table)?.has(column) ?? false;
}

export function hasTable(schema: SchemaInfo, table: string): boolean {
  return schema.tables.has(table);
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
