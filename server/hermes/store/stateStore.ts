// The one interface to a profile's state.db (FACTS §2). Reads open `mode=ro`-style read-only
// connections with Hermes' 5 s reader timeout; the only writes are refresh requests, made through
// `writeTransaction` in one short BEGIN IMMEDIATE transaction, followed by a PASSIVE checkpoint of
// the WAL (handBackWal). No DDL, no VACUUM, no TRUNCATE checkpoint, no pragma that changes the
// file's settings, ever.
import fs = require('node:fs');
import path = require('node:path');
import { HermesError } from '../errors';
import type { SessionRecord, TranscriptMessage, TranscriptSize } from '../model';
import { decodeMessageContent, optionalNumber, optionalString, parseModelConfig } from './codec';
import { DecodedColumns } from './decodedColumns';
import { openConnection, type Row, type SqliteConnection, type SqliteStatement } from './connection';
import { hasColumn, hasTable, readSchema, type SchemaInfo } from './schema';
import { compareCodePoints } from '../text/pyText';
import { runImmediate, type RetryPolicy } from './transaction';

export const READER_BUSY_TIMEOUT_MS = 5000;
export const WRITER_BUSY_TIMEOUT_MS = 1000;

/** How a connection will be used: see StateStore.openReadOnly. */
export type ConnectionUse = 'once' | 'kept';

/**
 * The page cache of a connection that reads each page once. A cache only pays when pages are read
 * again; filling better-sqlite3's 16 MB costs a fresh page of memory per page read (a page fault
 * each: about 10 µs on the virtual machines here, so a cold status's scan of 2,400 session pages
 * took 55 ms instead of 10). Half a megabyte still holds every interior page a pass descends
 * through.
 */
const ONE_PASS_PAGE_CACHE_KIB = 512;
/**
 * The page cache of the language server's kept connection. It does not outlive Hermes' next
 * commit: in WAL mode SQLite drops a connection's whole cache when its next read finds that another
 * connection committed, page by page, so the larger the cache the longer the first read after a
 * Hermes write (the `PRAGMA data_version` probe: 0.53 ms with the binding's 16 MB, filled by the
 * full scan that follows each burst of writes, 0.14 ms with 2 MB, over 30 writes on 20,000
 * sessions). Between two commits an evaluation reads most pages once; 2 MB holds the interior pages
 * it descends through again (the full scan took as long as with 16 MB), and the server's peak RSS
 * went from 134 to 119 MB.
 */
const KEPT_PAGE_CACHE_KIB = 2048;
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
   * `id` and parsed `model_config` of every session that may hold an epoch stamp (to read them).
   * Sessions whose `model_config` cannot hold one are left out: their stamp is 0. Read just before
   * the lock; when another connection committed in between, these are that moment's configs and
   * those of the sessions added since, and `earlierStateMeta` says so.
   */
  sessionModelConfigs(): Array<{ id: string; modelConfig: Record<string, unknown> }>;
  /**
   * state_meta as it was when `sessionModelConfigs` were read, when another connection has
   * committed since (undefined when they are current). A session stamped since took an epoch
   * requested in state_meta then or now (FACTS §5), so the two together bound every stamp.
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
  /** `sessionModelConfigs` (an epoch request exceeds every stamp). */
  readonly epochStamps: boolean;
}

const READ_ALL_AHEAD: ReadAheadNeeds = { storedPromptsOf: 'all', epochStamps: true };

/** What a write transaction may take from the reads made just before it (see writeTransaction). */
interface ReadAhead {
  /** PRAGMA data_version of the snapshot these were read in. */
  readonly version: number;
  readonly configs: ReadonlyArray<{ id: string; modelConfig: Record<string, unknown> }> | undefined;
  /** The stored-prompt count, with the sessions it was taken among. */
  readonly stored: { readonly among: readonly string[] | 'all'; readonly count: number } | undefined;
  /** state_meta in that snapshot. */
  readonly meta: Map<string, string>;
  /** The sessions' largest rowid in that snapshot: rows past it were added since. */
  readonly lastSession: number;
}

/** A session as listSessionsSince returns it: its record and a digest of the columns it came from. */
export interface StampedSession {
  readonly stamp: string;
  readonly record: SessionRecord;
}

/**
 * The last rowid seen in the sessions and messages tables. Hermes appends a turn's messages (their
 * ids only grow: AUTOINCREMENT) and adds sessions as new rows, so what lies past these marks names
 * the sessions a write touched (touchedSince).
 */
export interface TableMarks {
  readonly sessions: number;
  readonly messages: number;
}

export class StateStore {
  private constructor(
    readonly file: string,
    private readonly db: SqliteConnection,
    readonly schema: SchemaInfo,
    readonly writable: boolean,
  ) {
    if (!hasTable(schema, 'sessions')) {
      throw new HermesError(
        'db-schema',
        `${file} has no sessions table, so it is not a Hermes state.db (or Hermes never finished creating it). Run Hermes once with this profile.`,
        file,
      );
    }
  }

  /** The JSON columns of session rows, decoded once per distinct text. */
  private readonly decoded = new DecodedColumns();
  /** Prepared statements by SQL text, reused for the per-prompt and per-session reads. */
  private readonly statements = new Map<string, SqliteStatement>();
  private octetLength: boolean | undefined;
  private utf8: boolean | undefined;

  /**
   * `use`: `once` for a connection that reads what it needs once and closes (a CLI command, a
   * refresh request), `kept` for one kept open to read the same tables again and again (the
   * language server's).
   */
  static openReadOnly(file: string, use: ConnectionUse = 'once'): StateStore {
    return StateStore.open(file, false, use);
  }

  /** Only for a refresh the user asked for. */
  static openForWrite(file: string): StateStore {
    return StateStore.open(file, true, 'once');
  }

  private static open(file: string, writable: boolean, use: ConnectionUse): StateStore {
    let db: SqliteConnection | undefined;
    try {
      db = openConnection(file, {
        readonly: !writable,
        busyTimeoutMs: writable ? WRITER_BUSY_TIMEOUT_MS : READER_BUSY_TIMEOUT_MS,
        pageCacheKiB: use === 'once' ? ONE_PASS_PAGE_CACHE_KIB : KEPT_PAGE_CACHE_KIB,
      });
      if (writable) {
        db.exec('PRAGMA foreign_keys=ON');
        // This connection's commits never run SQLite's autocheckpoint (a setting of the connection,
        // not of the file): writeTransaction decides after its commit whether to copy the WAL (handBackWal).
        db.exec('PRAGMA wal_autocheckpoint=0');
      }
      return new StateStore(file, db, readSchema(db), writable);
    } catch (error) {
      db?.close();
      throw translateSqliteError(error, file, writable ? 'write' : 'read');
    }
  }

  close(): void {
    this.db.close();
  }

  /** Changes whenever another connection commits: a cheap "did Hermes write?" probe. */
  dataVersion(): number {
    return Number(this.read(() => this.statement('PRAGMA data_version').get()?.data_version ?? 0));
  }

  get hasStateMeta(): boolean {
    return hasTable(this.schema, 'state_meta');
  }

  /** Sessions, newest activity first; ended ones only when asked. */
  listSessions(options: { includeEnded?: boolean } = {}): SessionRecord[] {
    const q = this.sessionQuery(options);
    return this.read(() => this.statement(`SELECT ${q.columns.join(', ')} ${q.from} ${q.where}`).values().map((row) => this.toSessionRecord(row))).sort(byActivity);
  }

  /**
   * `listSessions`, re-reading only the rows that changed since `known` (the previous answer): one
   * pass compares a digest of every column read (SQLite's `quote()` of each, so any change shows),
   * then only new or changed rows are read and decoded. Unchanged sessions keep their records.
   */
  listSessionsSince(known: ReadonlyMap<string, StampedSession>, options: { includeEnded?: boolean } = {}): StampedSession[] {
    const q = this.sessionQuery(options);
    const stamp = stampOf(q.columns);
    return this.read(() => {
      // Unordered: SQLite would sort the rows with their digests (a third of the pass); sorted below.
      const rows = this.statement(`SELECT s.id AS id, ${stamp} AS stamp ${q.from} ${q.where}`).all();
      const changed = rows.filter((r) => known.get(String(r.id))?.stamp !== r.stamp).map((r) => String(r.id));
      const fresh = new Map<string, SessionRecord>();
      if (changed.length > 0) {
        for (const row of this.statement(`SELECT ${q.columns.join(', ')} ${q.from} ${idsWhere(q.where)}`).values(JSON.stringify(changed))) {
          const record = this.toSessionRecord(row);
          fresh.set(record.id, record);
        }
      }
      const stamped = rows.map((r) => {
        const id = String(r.id);
        const record = fresh.get(id);
        return record ? { stamp: String(r.stamp), record } : known.get(id)!;
      });
      return stamped.sort((a, b) => byActivity(a.record, b.record));
    });
  }

  /** Where the sessions and messages tables end now. */
  tableMarks(): TableMarks {
    const last = (table: string) => (hasTable(this.schema, table) ? Number(this.statement(`SELECT MAX(rowid) AS m FROM ${table}`).get()?.m ?? 0) : 0);
    return this.read(() => ({ sessions: last('sessions'), messages: last('messages') }));
  }

  /**
   * The sessions that gained messages or were added past `marks`, and the marks moved past what was
   * seen (not past what may have landed since: a later call finds that). Other changes (a session
   * ended, renamed, restamped without a message) show only in listSessionsSince's full pass.
   */
  touchedSince(marks: TableMarks): { ids: Set<string>; marks: TableMarks } {
    return this.read(() => {
      const ids = new Set<string>();
      let { sessions, messages } = marks;
      if (hasTable(this.schema, 'messages')) {
        for (const row of this.statement('SELECT rowid AS r, session_id AS id FROM messages WHERE rowid > ?').all(marks.messages)) {
          ids.add(String(row.id));
          messages = Math.max(messages, Number(row.r));
        }
      }
      for (const row of this.statement('SELECT rowid AS r, id FROM sessions WHERE rowid > ?').all(marks.sessions)) {
        ids.add(String(row.id));
        sessions = Math.max(sessions, Number(row.r));
      }
      return { ids, marks: { sessions, messages } };
    });
  }

  /**
   * `listSessionsSince` for the `touched` sessions only (see touchedSince): they are read again,
   * every other session keeps its known row. Touched sessions no longer listed (ended, deleted) go.
   * `known` is the last answer, in its order; the result keeps that order.
   */
  listTouchedSessions(known: readonly StampedSession[], touched: ReadonlySet<string>, options: { includeEnded?: boolean } = {}): StampedSession[] {
    const q = this.sessionQuery(options);
    const rows = this.read(() => this.statement(`SELECT ${q.columns.join(', ')}, ${stampOf(q.columns)} AS stamp ${q.from} ${idsWhere(q.where)}`).values(JSON.stringify([...touched])));
    const kept = known.filter((s) => !touched.has(s.record.id));
    for (const row of rows) insertByActivity(kept, { stamp: String(row[SESSION_COLUMNS.length]), record: this.toSessionRecord(row) });
    return kept;
  }

  /** Bumped by SQLite whenever the schema changes (Hermes migrating its database). */
  schemaVersion(): number {
    return Number(this.read(() => this.statement('PRAGMA schema_version').get()?.schema_version ?? 0));
  }

  private sessionQuery(options: { includeEnded?: boolean }): { columns: string[]; from: string; where: string } {
    const s = this.schema;
    const col = (name: string, alias = name) => (hasColumn(s, 'sessions', name) ? `s.${name} AS ${alias}` : `NULL AS ${alias}`);
    const activity = hasColumn(s, 'sessions', 'last_activity_at')
      ? 'COALESCE(s.last_activity_at, s.started_at)'
      : hasColumn(s, 'sessions', 'started_at')
        ? 's.started_at'
        : 'NULL';
    const computed: Partial<Record<SessionColumn, string>> = { id: 's.id AS id', prompt_key: `${this.promptKeySql()} AS prompt_key`, last_activity: `${activity} AS last_activity` };
    const columns = SESSION_COLUMNS.map((name) => computed[name] ?? col(name));
    const where = !options.includeEnded && hasColumn(s, 'sessions', 'ended_at') ? 'WHERE s.ended_at IS NULL' : '';
    return { columns, from: `FROM sessions s ${this.promptJoinSql()}`, where };
  }

  /** One session, ended or not. */
  session(id: string): SessionRecord | undefined {
    const q = this.sessionQuery({ includeEnded: true });
    const [row] = this.read(() => this.statement(`SELECT ${q.columns.join(', ')} ${q.from} WHERE s.id = ?`).values(id));
    return row ? this.toSessionRecord(row) : undefined;
  }

  /** The stored prompt of a session: `COALESCE(system_prompts.prompt, sessions.system_prompt)`. */
  storedPrompt(sessionId: string): string | undefined {
    const sql = `SELECT ${this.promptTextSql()} AS prompt FROM sessions s ${this.promptJoinSql()} WHERE s.id = ?`;
    // Prepared once: before v25, every live session's prompt is read through here.
    const row = this.read(() => this.statement(sql).get(sessionId));
    const text = row?.prompt;
    return typeof text === 'string' && text !== '' ? text : undefined;
  }

  /**
   * The text behind an inline `promptKey` as the UTF-8 bytes SQLite holds (`CAST(… AS BLOB)`), or
   * undefined for another key, a session without one, or a database that stores text as UTF-16.
   * Before v25 every live session's ~30 KB copy is hashed to learn which text it holds: the bytes
   * are hashed as they are, where reading the text decodes each copy into a string (most prompts are
   * not ASCII: two bytes a character) that the hash then encodes back to UTF-8 (60 MB for 2,000
   * sessions, twice).
   */
  inlinePromptBytes(promptKey: string): Uint8Array | undefined {
    if (!promptKey.startsWith(INLINE_PROMPT_KEY) || !this.storesUtf8()) return undefined;
    const sql = `SELECT CAST(${this.promptTextSql()} AS BLOB) AS prompt FROM sessions s ${this.promptJoinSql()} WHERE s.id = ?`;
    const row = this.read(() => this.statement(sql).get(promptKey.slice(INLINE_PROMPT_KEY.length)));
    const bytes = row?.prompt;
    return bytes instanceof Uint8Array && bytes.length > 0 ? bytes : undefined;
  }

  /**
   * Of these sessions, those whose stored prompt is exactly `text` (or its UTF-8 bytes, as
   * inlinePromptBytes gives them): SQLite compares each with it, so no copy of the prompts is made
   * (before v25 every session holds its own ~30 KB copy).
   */
  sessionsHoldingPrompt(sessionIds: readonly string[], text: string | Uint8Array): string[] {
    const stored = typeof text === 'string' ? this.promptTextSql() : `CAST(${this.promptTextSql()} AS BLOB)`;
    const sql = `SELECT s.id AS id FROM sessions s ${this.promptJoinSql()} ${idsWhere(`WHERE ${stored} = ?`)}`;
    return this.read(() => this.statement(sql).all(text, JSON.stringify(sessionIds))).map((row) => String(row.id));
  }

  /** The text behind a `promptKey` of `listSessions` (one read per distinct prompt). */
  promptText(promptKey: string): string | undefined {
    if (promptKey.startsWith('hash:') && hasTable(this.schema, 'system_prompts')) {
      const row = this.read(() => this.statement('SELECT prompt FROM system_prompts WHERE hash = ?').get(promptKey.slice(5)));
      if (typeof row?.prompt === 'string') return row.prompt;
    }
    if (promptKey.startsWith(INLINE_PROMPT_KEY)) return this.storedPrompt(promptKey.slice(INLINE_PROMPT_KEY.length));
    return undefined;
  }

  /** The live transcript: `active = 1 ORDER BY id` (every message when the column is missing). */
  liveTranscript(sessionId: string): TranscriptMessage[] {
    if (!hasTable(this.schema, 'messages')) return [];
    const s = this.schema;
    const col = (name: string) => (hasColumn(s, 'messages', name) ? name : `NULL AS ${name}`);
    const active = hasColumn(s, 'messages', 'active') ? 'AND active = 1' : '';
    const sql = `SELECT id, ${col('role')}, ${col('content')}, ${col('tool_calls')}, ${col('token_count')}
      FROM messages WHERE session_id = ? ${active} ORDER BY id`;
    return this.read(() =>
      this.db.prepare(sql).all(sessionId).map((r) => ({
        id: Number(r.id),
        role: String(r.role ?? ''),
        content: decodeMessageContent(r.content),
        toolCalls: optionalString(r.tool_calls),
        tokenCount: optionalNumber(r.token_count),
      })),
    );
  }

  /** Sizes of the live transcript, computed in SQL so no message text is loaded. */
  transcriptSize(sessionId: string): TranscriptSize {
    if (!hasTable(this.schema, 'messages')) return EMPTY_TRANSCRIPT;
    const row = this.read(() => this.statement(this.transcriptSizeSql('session_id = ?', false)).get(sessionId));
    return row ? toTranscriptSize(row) : EMPTY_TRANSCRIPT;
  }

  /**
   * `transcriptSize` of many sessions in one grouped query (one pass over their messages instead
   * of one query each); sessions without live messages get zeros.
   */
  transcriptSizes(sessionIds: readonly string[]): Map<string, TranscriptSize> {
    const sizes = new Map<string, TranscriptSize>(sessionIds.map((id) => [id, EMPTY_TRANSCRIPT]));
    if (!hasTable(this.schema, 'messages') || sessionIds.length === 0) return sizes;
    const sql = this.transcriptSizeSql('session_id IN (SELECT value FROM json_each(?))', true);
    const rows = this.read(() => this.statement(sql).all(JSON.stringify(sessionIds)));
    for (const row of rows) sizes.set(String(row.session_id), toTranscriptSize(row));
    return sizes;
  }

  private transcriptSizeSql(where: string, grouped: boolean): string {
    const s = this.schema;
    const len = (c: string) => (hasColumn(s, 'messages', c) ? `COALESCE(${this.byteLength(c)}, 0)` : '0');
    const size = `${len('content')} + ${len('tool_calls')}`;
    const tokens = hasColumn(s, 'messages', 'token_count') ? 'token_count' : 'NULL';
    const active = hasColumn(s, 'messages', 'active') ? 'AND active = 1' : '';
    return `SELECT ${grouped ? 'session_id, ' : ''}COUNT(*) AS n, SUM(${size}) AS chars, SUM(COALESCE(${tokens}, 0)) AS tokens,
        SUM(CASE WHEN ${tokens} IS NULL THEN ${size} ELSE 0 END) AS uncounted
      FROM messages WHERE ${where} ${active}${grouped ? ' GROUP BY session_id' : ''}`;
  }

  /** Every `state_meta` row (empty when the table is missing). */
  stateMeta(): Map<string, string> {
    return this.read(() => stateMetaOf(this.db, this.schema));
  }

  /**
   * Runs `work` in one BEGIN IMMEDIATE transaction with Hermes' writer discipline: 1 s busy
   * timeout, jittered retries, then a clear `db-locked` error with nothing written. After the
   * commit, the WAL is handed back (handBackWal).
   */
  writeTransaction<T>(work: (tx: StateWriteTx) => T, retry?: Partial<RetryPolicy>, needs: ReadAheadNeeds = READ_ALL_AHEAD): T {
    if (!this.writable) throw new Error('writeTransaction on a read-only StateStore');
    let result: T;
    let walBefore: number;
    try {
      // The scans over every session (the epoch stamps, the stored-prompt count) are made in one
      // snapshot before taking the lock, so Hermes never waits for them; under the lock only
      // state_meta and the sessions added since are read (see earlierStateMeta).
      const ahead = this.readAhead(needs);
      walBefore = this.walFramesAtMost();
      result = runImmediate(this.db, () => work(this.writeTx(ahead, ahead !== undefined && this.dataVersion() === ahead.version)), retry);
    } catch (error) {
      throw translateSqliteError(error, this.file, 'write');
    }
    this.handBackWal(walBefore);
    return result;
  }

  /**
   * Runs `work` on the reads a write transaction makes, with its writes left out and no lock taken:
   * what a dry run of a refresh reports. A read-only store will do.
   */
  dryRunTransaction<T>(work: (tx: StateWriteTx) => T): T {
    return this.read(() => work({ ...this.writeTx(), setStateMeta: () => undefined, clearStoredPrompts: () => 0 }));
  }

  /**
   * The transaction's frames (and Hermes' own since its last checkpoint) are copied into the
   * database file right after the commit: left in the WAL, they would bring forward the commit of
   * Hermes' that takes the WAL past SQLite's autocheckpoint threshold, and that turn pays the
   * checkpoint (35–60 ms on a large profile, against 1–3 ms for a turn). Copied here, Hermes' next
   * turn finds nothing left and starts the WAL over. PASSIVE: SQLite copies the committed frames no
   * reader still needs, never waiting for another connection nor making one wait (its busy handler
   * is not called; FACTS §2 rules out only the TRUNCATE kind). A WAL that was already longer than
   * twice the threshold before the transaction was let grow by a long reader: copying it could hold
   * the editor's server for seconds, so it is left to Hermes' next commit, as without the lens (the
   * transaction's own frames, even many, are the lens's to copy). This connection never runs
   * SQLite's autocheckpoint (see open), so the decision is this one alone. The transaction is
   * committed already: a checkpoint that fails changes nothing, and Hermes' own takes its place.
   */
  private handBackWal(walBefore: number): void {
    if (walBefore > HAND_BACK_MAX_FRAMES) return;
    try {
      this.db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
    } catch {
      /* the WAL stays as it is, to Hermes' autocheckpoint */
    }
  }

  /**
   * The most frames the WAL can hold now, from its file's size (stat() only: FACTS §2): SQLite
   * starts the WAL over without shortening the file, so the file can be longer than its frames.
   * A database in a DELETE journal has no WAL: 0. Unknown (it cannot be stat'ed): Infinity, so
   * nothing is handed back.
   */
  private walFramesAtMost(): number {
    try {
      const size = fs.statSync(`${this.file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      if (size <= WAL_HEADER_BYTES) return 0;
      const pageSize = Number(this.db.prepare('PRAGMA page_size').get()?.page_size ?? 4096);
      return Math.ceil((size - WAL_HEADER_BYTES) / (WAL_FRAME_HEADER_BYTES + pageSize));
    } catch {
      return Infinity;
    }
  }

  /** The reads a write transaction takes, in one snapshot; undefined when reading failed. */
  private readAhead(needs: ReadAheadNeeds): ReadAhead | undefined {
    const db = this.db;
    try {
      db.exec('BEGIN');
      try {
        const tx = this.writeTx();
        // The first read starts the snapshot (a deferred BEGIN takes none until then); the version
        // after it is the snapshot's.
        const lastSession = this.tableMarks().sessions;
        const meta = tx.stateMeta();
        const version = this.dataVersion();
        const among = needs.storedPromptsOf;
        const stored = among === undefined ? undefined : { among, count: tx.countStoredPromptSessions(among) };
        const configs = needs.epochStamps ? tx.sessionModelConfigs() : undefined;
        return { version, stored, configs, meta, lastSession };
      } finally {
        db.exec('COMMIT');
      }
    } catch {
      return undefined; // everything is read inside the transaction instead
    }
  }

  private writeTx(early?: ReadAhead, current = false): StateWriteTx {
    const db = this.db;
    const schema = this.schema;
    const store = this;
    // A scan of every session (under the lock only when the read ahead failed): SQLite skips
    // (without parsing) every config that cannot name the key, i.e. holds neither its literal
    // name nor a JSON escape.
    const configsSql = "SELECT id, model_config FROM sessions WHERE (instr(model_config, 'prompt_refresh_epoch') > 0 OR instr(model_config, '\\') > 0)";
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
      sessionModelConfigs() {
        if (!hasColumn(schema, 'sessions', 'model_config')) return [];
        if (!early?.configs) return configsOf(db.prepare(configsSql).all());
        const configs = early.configs.map((c) => ({ id: c.id, modelConfig: { ...c.modelConfig } }));
        return current ? configs : configs.concat(configsOf(db.prepare(`${configsSql} AND rowid > ?`).all(early.lastSession)));
      },
      earlierStateMeta: () => (early && !current ? new Map(early.meta) : undefined),
      countStoredPromptSessions(among = 'all') {
        if (early?.stored?.among === among) return early.stored.count;
        if (among === 'all') return Number(db.prepare(`SELECT COUNT(*) AS n FROM sessions s WHERE ${store.hasPromptSql()}`).get()?.n ?? 0);
        const sql = `SELECT COUNT(*) AS n FROM sessions s WHERE s.id IN (SELECT value FROM json_each(?)) AND ${store.hasPromptSql()}`;
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

  countStoredPromptSessions(among: readonly string[] | 'all' = 'all'): number {
    return this.read(() => this.writeTx().countStoredPromptSessions(among));
  }

  private promptJoinSql(): string {
    return this.hasPromptTable() ? 'LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash' : '';
  }

  private promptTextSql(): string {
    const inline = hasColumn(this.schema, 'sessions', 'system_prompt') ? 's.system_prompt' : 'NULL';
    return this.hasPromptTable() ? `COALESCE(NULLIF(sp.prompt, ''), ${inline})` : inline;
  }

  private promptKeySql(): string {
    const inline = hasColumn(this.schema, 'sessions', 'system_prompt')
      ? `CASE WHEN ${this.nonEmpty('s.system_prompt')} THEN '${INLINE_PROMPT_KEY}' || s.id END`
      : 'NULL';
    return this.hasPromptTable() ? `CASE WHEN ${this.nonEmpty('sp.prompt')} THEN 'hash:' || sp.hash ELSE ${inline} END` : inline;
  }

  /**
   * SQL true when session `s` holds a stored prompt (`COALESCE(NULLIF(sp.prompt, ''), s.system_prompt) <> ''`),
   * without a join: the non-empty prompts' hashes are looked up once, not one prompt row per session.
   */
  private hasPromptSql(): string {
    const inline = hasColumn(this.schema, 'sessions', 'system_prompt') ? this.nonEmpty('s.system_prompt') : '0';
    if (!this.hasPromptTable()) return inline;
    return `(s.system_prompt_hash IN (SELECT hash FROM system_prompts WHERE ${this.nonEmpty('prompt')}) OR ${inline})`;
  }

  /**
   * `COALESCE(column, '') <> ''` without reading the text: octet_length() (SQLite 3.43+) takes the
   * size from the record header, where the comparison would load each ~30 KB prompt of every row.
   */
  private nonEmpty(column: string): string {
    return this.hasOctetLength() ? `COALESCE(octet_length(${column}), 0) > 0` : `COALESCE(${column}, '') <> ''`;
  }

  /**
   * The size in bytes of a text or blob column. octet_length() reads it from the record header;
   * before SQLite 3.43, CAST AS BLOB loads the value (plain length() of text stops at the first NUL,
   * and JSON message content starts with one).
   */
  private byteLength(column: string): string {
    return this.hasOctetLength() ? `octet_length(${column})` : `LENGTH(CAST(${column} AS BLOB))`;
  }

  private hasOctetLength(): boolean {
    return (this.octetLength ??= sqliteAtLeast(this.db, 3, 43));
  }

  /** A session row as selected by sessionQuery: its values in SESSION_COLUMNS order. */
  private toSessionRecord(r: readonly unknown[]): SessionRecord {
    return {
      id: String(r[AT.id]),
      source: optionalString(r[AT.source]),
      model: optionalString(r[AT.model]),
      modelConfig: this.decoded.modelConfig(r[AT.model_config]),
      promptKey: optionalString(r[AT.prompt_key]),
      parentSessionId: optionalString(r[AT.parent_session_id]),
      startedAt: optionalNumber(r[AT.started_at]),
      endedAt: optionalNumber(r[AT.ended_at]),
      endReason: optionalString(r[AT.end_reason]),
      messageCount: optionalNumber(r[AT.message_count]),
      cwd: optionalString(r[AT.cwd]),
      billingProvider: optionalString(r[AT.billing_provider]),
      billingMode: optionalString(r[AT.billing_mode]),
      title: optionalString(r[AT.title]),
      lastActivityAt: optionalNumber(r[AT.last_activity]),
      toolNames: this.decoded.toolNames(r[AT.tool_names]),
    };
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** Whether the database keeps text as UTF-8 (Hermes' always do; SQLite allows UTF-16). */
  private storesUtf8(): boolean {
    return (this.utf8 ??= this.read(() => this.statement('PRAGMA encoding').get())?.encoding === 'UTF-8');
  }

  private hasPromptTable(): boolean {
    return hasTable(this.schema, 'system_prompts') && hasColumn(this.schema, 'sessions', 'system_prompt_hash');
  }

  private read<T>(query: () => T): T {
    try {
      return query();
    } catch (error) {
      throw translateSqliteError(error, this.file, this.writable ? 'write' : 'read');
    }
  }
}

/** SQL for a digest of the session columns read: SQLite's `quote()` of each, so any change shows. */
function stampOf(columns: readonly string[]): string {
  return columns.map((c) => `quote(${c.replace(/ AS \w+$/, '')})`).join(" || ',' || ");
}

/** `where` narrowed to the sessions whose ids the one parameter lists (a JSON array). */
function idsWhere(where: string): string {
  return `${where ? `${where} AND` : 'WHERE'} s.id IN (SELECT value FROM json_each(?))`;
}

/** Puts `session` into `sorted` (byActivity order) where it belongs. */
function insertByActivity(sorted: StampedSession[], session: StampedSession): void {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byActivity(sorted[mid]!.record, session.record) <= 0) low = mid + 1;
    else high = mid;
  }
  sorted.splice(low, 0, session);
}

const EMPTY_TRANSCRIPT: TranscriptSize = { messages: 0, chars: 0, recordedTokens: 0, uncountedChars: 0 };

function toTranscriptSize(row: Row): TranscriptSize {
  return {
    messages: Number(row.n ?? 0),
    chars: Number(row.chars ?? 0),
    recordedTokens: Number(row.tokens ?? 0),
    uncountedChars: Number(row.uncounted ?? 0),
  };
}

function sqliteAtLeast(db: SqliteConnection, major: number, minor: number): boolean {
  try {
    const [a = 0, b = 0] = String(db.prepare('SELECT sqlite_version() AS v').get()?.v ?? '').split('.').map(Number);
    return a > major || (a === major && b >= minor);
  } catch {
    return false;
  }
}

/** Every `state_meta` row; none when the table is missing (an older build still takes a clear-prompt request). */
function stateMetaOf(db: SqliteConnection, schema: SchemaInfo): Map<string, string> {
  if (!hasTable(schema, 'state_meta')) return new Map();
  const rows = db.prepare('SELECT key, value FROM state_meta').all();
  return new Map(rows.map((r) => [String(r.key), r.value == null ? '' : String(r.value)]));
}

/**
 * Newest activity first, then id descending: what `ORDER BY activity DESC, id DESC` gives (NULL
 * activity last, ids by code point as SQLite's BINARY collation compares UTF-8), done here so the
 * database does not sort whole rows.
 */
export function byActivity(a: SessionRecord, b: SessionRecord): number {
  const x = a.lastActivityAt ?? -Infinity;
  const y = b.lastActivityAt ?? -Infinity;
  if (x !== y) return y - x;
  return a.id === b.id ? 0 : compareCodePoints(b.id, a.id);
}

/** The session columns every session read selects, in this order (sessionQuery; toSessionRecord reads them by position). */
/**
 * The prompt key of a session whose prompt is stored inline in its row (before Hermes' v25): this
 * prefix and the session's id. Hermes may rewrite the text under it (AnalysisCache.knownIdentity).
 */
export const INLINE_PROMPT_KEY = 'inline:';

const SESSION_COLUMNS = [
  'id', 'source', 'model', 'model_config', 'prompt_key', 'parent_session_id', 'started_at', 'ended_at', 'end_reason',
  'message_count', 'cwd', 'billing_provider', 'billing_mode', 'title', 'last_activity', 'tool_names',
] as const;
type SessionColumn = (typeof SESSION_COLUMNS)[number];
const AT = Object.fromEntries(SESSION_COLUMNS.map((name, i) => [name, i])) as Record<SessionColumn, number>;

/** Turns SQLite's codes into messages that name the file and say what to do. */
export function translateSqliteError(error: unknown, file: string, purpose: 'read' | 'write' = 'read'): unknown {
  if (error instanceof HermesError) return error;
  const code = String((error as { code?: string }).code ?? '');
  const message = (error as Error)?.message ?? String(error);
  const nothing = purpose === 'write' ? ' Nothing was written.' : ' The lens wrote nothing.';
  if (code === 'SQLITE_READONLY_ROLLBACK' || code === 'SQLITE_READONLY_RECOVERY') {
    // A writer (Hermes) stopped mid-transaction; only a read-write open may repair the file.
    const sidecar = code === 'SQLITE_READONLY_ROLLBACK' ? `${file}-journal` : `${file}-wal`;
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
 * cannot drop the POSIX locks this process may hold on it (FACTS §2).
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
