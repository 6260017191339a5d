// The only place that knows which SQLite binding is in use. Everything else talks to a
// `SqliteConnection`. The bindings are tried in a fixed order (SQLITE_DRIVERS): better-sqlite3 where
// its native binary loads (a plain Node of the ABI it was built for: the CLI and the tests),
// @photostructure/sqlite (N-API, so one binary per platform loads in every Node and Electron: VS
// Code's extension host), Node's built-in `node:sqlite` (Node >= 22.5) for a platform neither ships,
// else a clear error naming the setting. HERMES_LENS_SQLITE_DRIVER names one binding to use alone.
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

export const SQLITE_DRIVERS = ['better-sqlite3', '@photostructure/sqlite', 'node:sqlite'] as const;
export type SqliteDriverName = (typeof SQLITE_DRIVERS)[number];
/** The environment variable that makes one binding the only one tried (tests run each driver this way). */
export const SQLITE_DRIVER_ENV = 'HERMES_LENS_SQLITE_DRIVER';

export interface SqliteConnection {
  readonly driver: SqliteDriverName;
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

export interface SqliteDriverStatus {
  /** The binding in use, when one loads. */
  readonly driver?: SqliteDriverName;
  /** The SQLite library inside it (`sqlite_version()`). */
  readonly sqliteVersion?: string;
  /** Why none loads: each binding tried, with its error. */
  readonly problem?: string;
}

type Driver = (file: string, options: OpenOptions) => SqliteConnection;
let chosen: { name: SqliteDriverName; open: Driver; sqliteVersion: string } | undefined;
let unavailableReason: string | undefined;

/** Which binding this process uses and its SQLite version, or why none loads. */
export function sqliteDriverStatus(): SqliteDriverStatus {
  try {
    const { name, sqliteVersion } = pickDriver();
    return { driver: name, sqliteVersion };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

export function openConnection(file: string, options: OpenOptions): SqliteConnection {
  return pickDriver().open(file, options);
}

const LOADERS: Record<SqliteDriverName, () => Driver> = {
  'better-sqlite3': betterSqlite3Driver,
  '@photostructure/sqlite': () => databaseSyncDriver('@photostructure/sqlite', loadPhotostructure()),
  'node:sqlite': () => databaseSyncDriver('node:sqlite', loadNodeSqlite()),
};

function pickDriver(): NonNullable<typeof chosen> {
  if (chosen) return chosen;
  if (unavailableReason) throw new HermesError('native-unavailable', unavailableReason);
  const forced = process.env[SQLITE_DRIVER_ENV];
  if (forced && !(SQLITE_DRIVERS as readonly string[]).includes(forced)) {
    unavailableReason = `${SQLITE_DRIVER_ENV} is "${forced}"; it names one of ${SQLITE_DRIVERS.join(', ')}, or is unset to try them in that order.`;
    throw new HermesError('native-unavailable', unavailableReason);
  }
  const problems: string[] = [];
  for (const name of forced ? [forced as SqliteDriverName] : SQLITE_DRIVERS) {
    try {
      const open = LOADERS[name]();
      // Prove the binding works now (a binary is loaded lazily by some), so a failure picks the next one.
      const probe = open(':memory:', { readonly: false, busyTimeoutMs: 0 });
      const sqliteVersion = String(probe.prepare('SELECT sqlite_version() AS v').get()?.v);
      probe.close();
      chosen = { name, open, sqliteVersion };
      return chosen;
    } catch (error) {
      problems.push(`${name}: ${oneLine((error as Error).message)}`);
    }
  }
  const tried = forced ? `${SQLITE_DRIVER_ENV}=${forced}: ` : '';
  unavailableReason =
    `No SQLite binding loads in this runtime (${process.version}, ${process.platform}-${process.arch}; ${tried}${problems.join('; ')}). ` +
    'Set "hermesLens.server.runtime" to a Node.js 22.5 or later executable (node:sqlite is built in).';
  throw new HermesError('native-unavailable', unavailableReason);
}

/** A binding's load error on one line (Node's ABI mismatch takes three), not past a few hundred characters. */
function oneLine(message: string): string {
  const line = message.replace(/\s*\n\s*/g, ' ');
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function betterSqlite3Driver(): Driver {
  // Required lazily so a runtime without a loadable binary falls through to the next binding.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  // Next to the bundled code (scripts/build.mjs copies it there); from out/ the package finds its own.
  const shipped = path.join(__dirname, 'native', 'better_sqlite3.node');
  const nativeBinding = fs.existsSync(shipped) ? shipped : undefined;
  return (file, options) => {
    const db = new Database(file, {
      readonly: options.readonly,
      fileMustExist: file !== ':memory:',
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

/** The `node:sqlite` API, which @photostructure/sqlite implements too. */
interface DatabaseSyncClass {
  new (file: string, options?: Record<string, unknown>): {
    prepare(sql: string): {
      all(...p: unknown[]): Row[];
      get(...p: unknown[]): Row | undefined;
      run(...p: unknown[]): { changes: number | bigint };
      /** Not in every Node's `node:sqlite` (22 lacks it). */
      setReturnArrays?(enabled: boolean): void;
    };
    exec(sql: string): void;
    close(): void;
  };
}

/**
 * @photostructure/sqlite's prebuilt binary for this platform, loaded directly (its JavaScript
 * would look for it with node-gyp-build, which a bundle cannot carry). The build copies the
 * package's `prebuilds` folder next to the bundle; from out/ it is read in the package.
 */
function loadPhotostructure(): DatabaseSyncClass {
  const shipped = path.join(__dirname, 'native', 'photostructure-sqlite');
  const root = fs.existsSync(shipped) ? shipped : path.dirname(require.resolve('@photostructure/sqlite/package.json'));
  const candidates = photostructureBinaries(process.platform, process.arch, fs.existsSync('/etc/alpine-release')).map((file) => path.join(root, file));
  if (!candidates.some((file) => fs.existsSync(file))) throw new Error(`no prebuilt binary for ${process.platform}-${process.arch}`);
  let failure: unknown;
  for (const file of candidates) {
    const binary = { exports: {} as { DatabaseSync?: DatabaseSyncClass } };
    try {
      process.dlopen(binary, file);
      if (binary.exports.DatabaseSync) return binary.exports.DatabaseSync;
    } catch (error) {
      failure ??= error;
    }
  }
  throw failure instanceof Error ? failure : new Error('the prebuilt binary has no DatabaseSync');
}

/**
 * Where @photostructure/sqlite keeps its binary for a platform (relative to its package, or to the copy
 * next to the bundle), in the order they are tried. Linux has a glibc and a musl build; either may be
 * the system's, so both are tried, musl first on Alpine (VS Code's alpine targets).
 */
export function photostructureBinaries(platform: string, arch: string, alpine: boolean): string[] {
  const libcs = platform !== 'linux' ? ['glibc'] : alpine ? ['musl', 'glibc'] : ['glibc', 'musl'];
  return libcs.map((libc) => `prebuilds/${platform}-${arch}/@photostructure+sqlite.${libc}.node`);
}

/** Node's own binding. Node 22 warns on stderr that it is experimental when it is loaded: that one warning is ours to drop. */
function loadNodeSqlite(): DatabaseSyncClass {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/^SQLite is an experimental feature/.test(text)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('node:sqlite') as { DatabaseSync: DatabaseSyncClass }).DatabaseSync;
  } finally {
    process.emitWarning = emitWarning;
  }
}

function databaseSyncDriver(name: SqliteDriverName, DatabaseSync: DatabaseSyncClass): Driver {
  return (file, options) => {
    // This API creates a missing file when it may write; as better-sqlite3's fileMustExist, it is an error.
    if (file !== ':memory:' && !fs.existsSync(file)) throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
    const db = withSqliteCodes(() => new DatabaseSync(file, { readOnly: options.readonly, timeout: options.busyTimeoutMs }));
    if (options.pageCacheKiB !== undefined) {
      try {
        withSqliteCodes(() => db.exec(cacheSizePragma(options.pageCacheKiB!)));
      } catch (error) {
        db.close();
        throw error;
      }
    }
    return {
      driver: name,
      prepare(sql) {
        const statement = withSqliteCodes(() => db.prepare(sql));
        return {
          all: (...params) => withSqliteCodes(() => statement.all(...params)),
          values: (...params) => {
            if (!statement.setReturnArrays) return withSqliteCodes(() => statement.all(...params)).map((row) => Object.values(row));
            statement.setReturnArrays(true);
            try {
              return withSqliteCodes(() => statement.all(...params)) as unknown as unknown[][];
            } finally {
              statement.setReturnArrays(false);
            }
          },
          get: (...params) => withSqliteCodes(() => statement.get(...params)),
          run: (...params) => ({ changes: Number(withSqliteCodes(() => statement.run(...params)).changes) }),
        };
      },
      exec: (sql) => withSqliteCodes(() => db.exec(sql)),
      close: () => db.close(),
    };
  };
}

/**
 * The `node:sqlite` API reports SQLite's failures as ERR_SQLITE_ERROR with the number in `errcode`;
 * the store reads better-sqlite3's names (`SQLITE_BUSY`, `SQLITE_READONLY_ROLLBACK`), so the error is
 * given the name of its code.
 */
function withSqliteCodes<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    // @photostructure/sqlite also gives `sqliteExtendedCode` where `errcode` is the primary code alone.
    const errcode = (error as { sqliteExtendedCode?: unknown }).sqliteExtendedCode ?? (error as { errcode?: unknown }).errcode;
    if (typeof errcode === 'number') (error as { code?: string }).code = sqliteCodeName(errcode);
    throw error;
  }
}

const PRIMARY_CODES: Record<number, string> = {
  1: 'ERROR', 3: 'PERM', 4: 'ABORT', 5: 'BUSY', 6: 'LOCKED', 7: 'NOMEM', 8: 'READONLY', 9: 'INTERRUPT', 10: 'IOERR',
  11: 'CORRUPT', 13: 'FULL', 14: 'CANTOPEN', 15: 'PROTOCOL', 17: 'SCHEMA', 18: 'TOOBIG', 19: 'CONSTRAINT',
  20: 'MISMATCH', 21: 'MISUSE', 23: 'AUTH', 25: 'RANGE', 26: 'NOTADB',
};
/** The extended codes the store tells apart (sqlite3.h). */
const EXTENDED_CODES: Record<number, string> = {
  261: 'BUSY_RECOVERY', 517: 'BUSY_SNAPSHOT', 773: 'BUSY_TIMEOUT',
  264: 'READONLY_RECOVERY', 520: 'READONLY_CANTLOCK', 776: 'READONLY_ROLLBACK', 1032: 'READONLY_DBMOVED', 1288: 'READONLY_CANTINIT', 1544: 'READONLY_DIRECTORY',
};

function sqliteCodeName(errcode: number): string {
  const name = EXTENDED_CODES[errcode] ?? PRIMARY_CODES[errcode & 0xff];
  return name ? `SQLITE_${name}` : `SQLITE_ERROR_${errcode}`;
}

/** A negative cache_size is a size in KiB rather than a count of pages, whatever the page size. */
function cacheSizePragma(kib: number): string {
  return `PRAGMA cache_size = -${Math.max(1, Math.round(kib))}`;
}
