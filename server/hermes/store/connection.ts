// The only place that knows which SQLite binding is in use. Everything else talks to a
// `SqliteConnection`: better-sqlite3 where its native binary loads, Node's built-in `node:sqlite`
// where the runtime has it (Node >= 22.5, recent VS Code), else a clear error naming the setting.
import fs = require('node:fs');
import path = require('node:path');
import { HermesError } from '../errors';

export type SqlValue = string | number | bigint | null | Uint8Array;
export type Row = Record<string, unknown>;

export interface SqliteStatement {
  all(...params: SqlValue[]): Row[];
  /** `all`, each row as the array of its column values in select order (no object per row: faster for many rows). */
  values(...params: SqlValue[]): unknown[][];
  get(...params: SqlValue[]): Row | undefined;
  run(...params: SqlValue[]): { changes: number };
}

export interface SqliteConnection {
  readonly driver: 'better-sqlite3' | 'node:sqlite';
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  close(): void;
}

export interface OpenOptions {
  readonly readonly: boolean;
  /** Busy timeout in milliseconds (Hermes: 5 s for readers, 1 s for its writer). */
  readonly busyTimeoutMs: number;
  /**
   * The connection's page cache (`PRAGMA cache_size`, a setting of this connection only), when not
   * the binding's own (better-sqlite3 builds SQLite with 16 MB).
   */
  readonly pageCacheKiB?: number;
}

let nativeBindingOverride: string | undefined;
/** Where the extension ships `better_sqlite3.node` (next to the bundled server). */
export function setNativeBinding(file: string | undefined): void {
  nativeBindingOverride = file;
}

type Driver = (file: string, options: OpenOptions) => SqliteConnection;
let chosen: { name: string; open: Driver } | undefined;
let unavailableReason: string | undefined;

/** Which binding this process uses, or why none loads. */
export function sqliteDriverStatus(): { driver?: string; problem?: string } {
  try {
    return { driver: pickDriver().name };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

export function openConnection(file: string, options: OpenOptions): SqliteConnection {
  return pickDriver().open(file, options);
}

function pickDriver(): { name: string; open: Driver } {
  if (chosen) return chosen;
  if (unavailableReason) throw new HermesError('native-unavailable', unavailableReason);
  const problems: string[] = [];
  try {
    chosen = { name: 'better-sqlite3', open: betterSqlite3Driver() };
    return chosen;
  } catch (error) {
    problems.push(`better-sqlite3: ${(error as Error).message.split('\n')[0]}`);
  }
  try {
    chosen = { name: 'node:sqlite', open: nodeSqliteDriver() };
    return chosen;
  } catch (error) {
    problems.push(`node:sqlite: ${(error as Error).message.split('\n')[0]}`);
  }
  unavailableReason =
    `No SQLite binding loads in this runtime (${process.version}; ${problems.join('; ')}). ` +
    'Set "hermesLens.server.runtime" to a Node.js 20+ executable.';
  throw new HermesError('native-unavailable', unavailableReason);
}

function betterSqlite3Driver(): Driver {
  // Required lazily so a runtime without a loadable binary falls through to node:sqlite.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const shipped = nativeBindingOverride ?? path.join(__dirname, 'native', 'better_sqlite3.node');
  const nativeBinding = fs.existsSync(shipped) ? shipped : undefined;
  // Prove the binary loads now (it is loaded on first open), so a failure picks the next driver.
  new Database(':memory:', { nativeBinding }).close();
  return (file, options) => {
    const db = new Database(file, {
      readonly: options.readonly,
      fileMustExist: true,
      timeout: options.busyTimeoutMs,
      nativeBinding,
    });
    if (options.pageCacheKiB !== undefined) db.exec(cacheSizePragma(options.pageCacheKiB));
    return {
      driver: 'better-sqlite3',
      prepare(sql) {
        const statement = db.prepare(sql);
        return {
          all: (...params) => statement.all(...params) as Row[],
          values: (...params) => {
            try {
              return statement.raw(true).all(...params) as unknown[][];
            } finally {
              statement.raw(false);
            }
          },
          get: (...params) => statement.get(...params) as Row | undefined,
          run: (...params) => ({ changes: statement.run(...params).changes }),
        };
      },
      exec: (sql) => void db.exec(sql),
      close: () => db.close(),
    };
  };
}

function nodeSqliteDriver(): Driver {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { DatabaseSync } = require('node:sqlite') as {
    DatabaseSync: new (file: string, options?: Record<string, unknown>) => {
      prepare(sql: string): {
        all(...p: unknown[]): Row[];
        get(...p: unknown[]): Row | undefined;
        run(...p: unknown[]): { changes: number | bigint };
      };
      exec(sql: string): void;
      close(): void;
    };
  };
  return (file, options) => {
    if (!fs.existsSync(file)) throw new HermesError('db-missing', `${file} does not exist.`, file);
    const db = new DatabaseSync(file, { readOnly: options.readonly, timeout: options.busyTimeoutMs });
    if (options.pageCacheKiB !== undefined) db.exec(cacheSizePragma(options.pageCacheKiB));
    return {
      driver: 'node:sqlite',
      prepare(sql) {
        const statement = db.prepare(sql);
        return {
          all: (...params) => statement.all(...params),
          values: (...params) => statement.all(...params).map((row) => Object.values(row)),
          get: (...params) => statement.get(...params),
          run: (...params) => ({ changes: Number(statement.run(...params).changes) }),
        };
      },
      exec: (sql) => db.exec(sql),
      close: () => db.close(),
    };
  };
}

/** A negative cache_size is a size in KiB rather than a count of pages, whatever the page size. */
function cacheSizePragma(kib: number): string {
  return `PRAGMA cache_size = -${Math.max(1, Math.round(kib))}`;
}
