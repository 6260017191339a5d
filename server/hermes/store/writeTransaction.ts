// A refresh request's write: the operations a BEGIN IMMEDIATE transaction may run (StateWriteTx),
// the scans over every session read ahead of the lock so Hermes never waits for them, and the WAL
// handed back after the commit. StateStore.writeTransaction runs them in this order.
import fs = require('node:fs');
import { parseModelConfig } from './codec';
import type { Row, SqliteConnection, SqliteStatement } from './connection';
import type { PromptLayout } from './promptLayout';
import { hasColumn, type SchemaInfo } from './schema';
import { stateMetaOf } from './sessionQueries';

/** SQLite's WAL file: a header, then per frame a header and a page. */
const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;
/** Twice SQLite's autocheckpoint threshold (1,000 frames): a WAL Hermes' own checkpoints keep short stays below. */
const HAND_BACK_MAX_FRAMES = 2000;

/** Operations allowed inside a refresh transaction. */
export interface StateWriteTx {
  readonly schema: SchemaInfo;
  stateMeta(): Map<string, string>;
  setStateMeta(key: string, value: string): void;
  /**
   * `id` and parsed `model_config` of every session that may hold an epoch stamp under one of
   * `stampKeys` (to read them). Sessions whose `model_config` cannot hold one are left out: their stamp is 0. Read just before
   * the lock; when another connection committed in between, these are that moment's configs and
   * those of the sessions added since, and `earlierStateMeta` says so.
   */
  sessionModelConfigs(stampKeys: readonly string[]): Array<{ id: string; modelConfig: Record<string, unknown> }>;
  /**
   * state_meta as it was when `sessionModelConfigs` were read, when another connection has
   * committed since (undefined when they are current). A session stamped since took an epoch
   * requested in state_meta then or now (refresh/epochs.ts), so the two together bound every stamp.
   */
  earlierStateMeta(): Map<string, string> | undefined;
  /**
   * Number of sessions holding a stored prompt (what Hermes' command reports), among these
   * sessions (each counted once) or in the whole profile.
   */
  countStoredPromptSessions(among?: readonly string[] | 'all'): number;
  /** The older strategy: NULL both prompt columns (what `repair-prompts` does). */
  clearStoredPrompts(sessionIds: readonly string[] | 'all'): number;
}

/**
 * The scans over every session a write transaction's work will ask for, made before the lock is
 * taken (see writeTransaction). Each takes tens of milliseconds on 20,000 sessions; one not read
 * ahead runs under the lock if the work asks for it all the same.
 */
export interface ReadAheadNeeds {
  /** The `among` the work passes to `countStoredPromptSessions`, if it counts. */
  readonly storedPromptsOf: readonly string[] | 'all' | undefined;
  /** The stamp keys the work passes to `sessionModelConfigs`, if it reads stamps (an epoch request exceeds every stamp). */
  readonly epochStamps: readonly string[] | undefined;
}

export const READ_ALL_AHEAD: ReadAheadNeeds = { storedPromptsOf: 'all', epochStamps: undefined };

/** What a write transaction may take from the reads made just before it (see writeTransaction). */
export interface ReadAhead {
  /** PRAGMA data_version of the snapshot these were read in. */
  readonly version: number;
  readonly configs: { readonly stampKeys: readonly string[]; readonly rows: ReadonlyArray<{ id: string; modelConfig: Record<string, unknown> }> } | undefined;
  /** The stored-prompt count, with the sessions it was taken among. */
  readonly stored: { readonly among: readonly string[] | 'all'; readonly count: number } | undefined;
  /** state_meta in that snapshot. */
  readonly meta: Map<string, string>;
  /** The sessions' largest rowid in that snapshot: rows past it were added since. */
  readonly lastSession: number;
}

/** What readAhead asks of the store in the snapshot it opened. */
export interface SnapshotProbes {
  /** The sessions' largest rowid (its first read starts the snapshot). */
  lastSession(): number;
  /** PRAGMA data_version. */
  dataVersion(): number;
}

/** The reads a write transaction takes, in one snapshot; undefined when reading failed. */
export function readAhead(db: SqliteConnection, schema: SchemaInfo, layout: PromptLayout, needs: ReadAheadNeeds, probes: SnapshotProbes): ReadAhead | undefined {
  try {
    db.exec('BEGIN');
    try {
      const tx = writeTxOf(db, schema, layout);
      // The first read starts the snapshot (a deferred BEGIN takes none until then); the version
      // after it is the snapshot's.
      const lastSession = probes.lastSession();
      const meta = tx.stateMeta();
      const version = probes.dataVersion();
      const among = needs.storedPromptsOf;
      const stored = among === undefined ? undefined : { among, count: tx.countStoredPromptSessions(among) };
      const stampKeys = needs.epochStamps;
      const configs = stampKeys ? { stampKeys, rows: tx.sessionModelConfigs(stampKeys) } : undefined;
      return { version, stored, configs, meta, lastSession };
    } finally {
      db.exec('COMMIT');
    }
  } catch {
    return undefined; // everything is read inside the transaction instead
  }
}

export function writeTxOf(db: SqliteConnection, schema: SchemaInfo, layout: PromptLayout, early?: ReadAhead, current = false): StateWriteTx {
  // A scan of every session (under the lock only when the read ahead failed): SQLite skips
  // (without parsing) every config that cannot name a stamp key, i.e. holds neither its literal
  // name nor a JSON escape.
  const configsSql = (stampKeys: readonly string[]) =>
    `SELECT id, model_config FROM sessions WHERE (${[...stampKeys.map(() => 'instr(model_config, ?) > 0'), "instr(model_config, '\\') > 0"].join(' OR ')})`;
  const configsOf = (rows: Row[]) => rows.map((r) => ({ id: String(r.id), modelConfig: parseModelConfig(r.model_config) }));
  let upsertMeta: SqliteStatement | undefined;
  return {
    schema,
    stateMeta: () => stateMetaOf(db, schema),
    setStateMeta(key, value) {
      // Prepared once: a refresh of every stale session sets a key for each, under the lock.
      upsertMeta ??= db.prepare('INSERT INTO state_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
      upsertMeta.run(key, value);
    },
    sessionModelConfigs(stampKeys) {
      if (!hasColumn(schema, 'sessions', 'model_config') || stampKeys.length === 0) return [];
      const ahead = early?.configs && sameKeys(early.configs.stampKeys, stampKeys) ? early.configs.rows : undefined;
      if (!ahead) return configsOf(db.prepare(configsSql(stampKeys)).all(...stampKeys));
      const configs = ahead.map((c) => ({ id: c.id, modelConfig: { ...c.modelConfig } }));
      return current ? configs : configs.concat(configsOf(db.prepare(`${configsSql(stampKeys)} AND rowid > ?`).all(...stampKeys, early!.lastSession)));
    },
    earlierStateMeta: () => (early && !current ? new Map(early.meta) : undefined),
    countStoredPromptSessions(among = 'all') {
      if (early?.stored?.among === among) return early.stored.count;
      if (among === 'all') return Number(db.prepare(`SELECT COUNT(*) AS n FROM sessions s WHERE ${layout.hasPromptSql()}`).get()?.n ?? 0);
      const sql = `SELECT COUNT(*) AS n FROM sessions s WHERE s.id IN (SELECT value FROM json_each(?)) AND ${layout.hasPromptSql()}`;
      return Number(db.prepare(sql).get(JSON.stringify(among))?.n ?? 0);
    },
    clearStoredPrompts(ids) {
      const sets = ['system_prompt', 'system_prompt_hash'].filter((c) => hasColumn(schema, 'sessions', c)).map((c) => `${c} = NULL`);
      if (sets.length === 0) return 0;
      if (ids === 'all') return db.prepare(`UPDATE sessions SET ${sets.join(', ')}`).run().changes;
      const update = db.prepare(`UPDATE sessions SET ${sets.join(', ')} WHERE id = ?`);
      return ids.reduce((n, id) => n + update.run(id).changes, 0);
    },
  };
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/**
 * The transaction's frames (and Hermes' own since its last checkpoint) are copied into the
 * database file right after the commit: left in the WAL, they would bring forward the commit of
 * Hermes' that takes the WAL past SQLite's autocheckpoint threshold, and that turn pays the
 * checkpoint (35–60 ms on a large profile, against 1–3 ms for a turn). Copied here, Hermes' next
 * turn finds nothing left and starts the WAL over. PASSIVE: SQLite copies the committed frames no
 * reader still needs, never waiting for another connection nor making one wait (its busy handler
 * is not called; stateStore.ts's rules exclude only the TRUNCATE kind). A WAL that was already longer than
 * twice the threshold before the transaction was let grow by a long reader: copying it could hold
 * the editor's server for seconds, so it is left to Hermes' next commit, as without the lens (the
 * transaction's own frames, even many, are the lens's to copy). This connection never runs
 * SQLite's autocheckpoint (see open), so the decision is this one alone. The transaction is
 * committed already: a checkpoint that fails changes nothing, and Hermes' own takes its place.
 */
export function handBackWal(db: SqliteConnection, walBefore: number): void {
  if (walBefore > HAND_BACK_MAX_FRAMES) return;
  try {
    db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
  } catch {
    /* the WAL stays as it is, to Hermes' autocheckpoint */
  }
}

/**
 * The most frames the WAL can hold now, from its file's size (stat() only: the WAL file is never opened): SQLite
 * starts the WAL over without shortening the file, so the file can be longer than its frames.
 * A database in a DELETE journal has no WAL: 0. Unknown (it cannot be stat'ed): Infinity, so
 * nothing is handed back.
 */
export function walFramesAtMost(db: SqliteConnection, file: string): number {
  try {
    const size = fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    if (size <= WAL_HEADER_BYTES) return 0;
    const pageSize = Number(db.prepare('PRAGMA page_size').get()?.page_size ?? 4096);
    return Math.ceil((size - WAL_HEADER_BYTES) / (WAL_FRAME_HEADER_BYTES + pageSize));
  } catch {
    return Infinity;
  }
}
