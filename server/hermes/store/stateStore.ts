// The one interface to a profile's state.db (docs/HERMES-FORMATS.md §7). Reads open `mode=ro`-style read-only
// connections with Hermes' 5 s reader timeout; the only writes are refresh requests, made through
// `writeTransaction` in one short BEGIN IMMEDIATE transaction, followed by a PASSIVE checkpoint of
// the WAL (handBackWal). No DDL, no VACUUM, no TRUNCATE checkpoint, no pragma that changes the
// file's settings, ever.
import { HermesError } from '../errors';
import type { SessionRecord, TranscriptMessage, TranscriptSize } from '../model';
import { decodeMessageContent, optionalNumber, optionalString } from './codec';
import { openConnection, type SqliteConnection, type SqliteStatement } from './connection';
import { DecodedColumns } from './decodedColumns';
import { INLINE_PROMPT_KEY, PromptLayout } from './promptLayout';
import { hasColumn, hasTable, readSchema, type SchemaInfo } from './schema';
import {
  byActivity,
  EMPTY_TRANSCRIPT,
  idsWhere,
  insertByActivity,
  SESSION_COLUMNS,
  sessionQuery,
  stampOf,
  stateMetaOf,
  toSessionRecord,
  toTranscriptSize,
  transcriptSizeSql,
  type StampedSession,
  type TableMarks,
} from './sessionQueries';
import { translateSqliteError } from './sqliteErrors';
import { runImmediate, type RetryPolicy } from './transaction';
import { handBackWal, READ_ALL_AHEAD, readAhead, walFramesAtMost, writeTxOf, type ReadAheadNeeds, type StateWriteTx } from './writeTransaction';

export const READER_BUSY_TIMEOUT_MS = 5000;
export const WRITER_BUSY_TIMEOUT_MS = 1000;

/** How a connection will be used: see StateStore.openReadOnly. */
export type ConnectionUse = 'once' | 'kept';

/**
 * The page cache of a connection that reads each page once. A cache only pays when pages are read
 * again; filling better-sqlite3's 16 MB costs a fresh page of memory (a page fault) per page read.
 * Half a megabyte still holds every interior page a pass descends through.
 */
export const ONE_PASS_PAGE_CACHE_KIB = 512;
/**
 * The page cache of the language server's kept connection. It does not outlive Hermes' next
 * commit: in WAL mode SQLite drops a connection's whole cache when its next read finds that another
 * connection committed, page by page, so the larger the cache the longer the first read after a
 * Hermes write. Between two commits an evaluation reads most pages once; 2 MB holds the interior
 * pages it descends through again, so the full scan is as fast as with 16 MB and the server's peak
 * RSS is lower (docs/BENCHMARKS.md).
 */
const KEPT_PAGE_CACHE_KIB = 2048;
export class StateStore {
  private constructor(
    readonly file: string,
    private readonly db: SqliteConnection,
    readonly schema: SchemaInfo,
    readonly writable: boolean,
  ) {
    this.layout = new PromptLayout(db, schema);
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
  /** Where this database keeps stored prompts (v24 inline, v25 out of line, or both). */
  private readonly layout: PromptLayout;
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
    const q = sessionQuery(this.schema, this.layout, options);
    return this.read(() => this.statement(`SELECT ${q.columns.join(', ')} ${q.from} ${q.where}`).values().map((row) => toSessionRecord(row, this.decoded))).sort(byActivity);
  }

  /**
   * `listSessions`, re-reading only the rows that changed since `known` (the previous answer): one
   * pass compares a digest of every column read (SQLite's `quote()` of each, so any change shows),
   * then only new or changed rows are read and decoded. Unchanged sessions keep their records.
   */
  listSessionsSince(known: ReadonlyMap<string, StampedSession>, options: { includeEnded?: boolean } = {}): StampedSession[] {
    const q = sessionQuery(this.schema, this.layout, options);
    const stamp = stampOf(q.columns);
    return this.read(() => {
      // Unordered: SQLite would sort the rows with their digests (a third of the pass); sorted below.
      const rows = this.statement(`SELECT s.id AS id, ${stamp} AS stamp ${q.from} ${q.where}`).all();
      const changed = rows.filter((r) => known.get(String(r.id))?.stamp !== r.stamp).map((r) => String(r.id));
      const fresh = new Map<string, SessionRecord>();
      if (changed.length > 0) {
        for (const row of this.statement(`SELECT ${q.columns.join(', ')} ${q.from} ${idsWhere(q.where)}`).values(JSON.stringify(changed))) {
          const record = toSessionRecord(row, this.decoded);
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
    const q = sessionQuery(this.schema, this.layout, options);
    const rows = this.read(() => this.statement(`SELECT ${q.columns.join(', ')}, ${stampOf(q.columns)} AS stamp ${q.from} ${idsWhere(q.where)}`).values(JSON.stringify([...touched])));
    const kept = known.filter((s) => !touched.has(s.record.id));
    for (const row of rows) insertByActivity(kept, { stamp: String(row[SESSION_COLUMNS.length]), record: toSessionRecord(row, this.decoded) });
    return kept;
  }

  /** Bumped by SQLite whenever the schema changes (Hermes migrating its database). */
  schemaVersion(): number {
    return Number(this.read(() => this.statement('PRAGMA schema_version').get()?.schema_version ?? 0));
  }

  /** One session, ended or not. */
  session(id: string): SessionRecord | undefined {
    const q = sessionQuery(this.schema, this.layout, { includeEnded: true });
    const [row] = this.read(() => this.statement(`SELECT ${q.columns.join(', ')} ${q.from} WHERE s.id = ?`).values(id));
    return row ? toSessionRecord(row, this.decoded) : undefined;
  }

  /** The stored prompt of a session: `COALESCE(system_prompts.prompt, sessions.system_prompt)`. */
  storedPrompt(sessionId: string): string | undefined {
    const sql = `SELECT ${this.layout.textSql()} AS prompt FROM sessions s ${this.layout.joinSql()} WHERE s.id = ?`;
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
    const sql = `SELECT CAST(${this.layout.textSql()} AS BLOB) AS prompt FROM sessions s ${this.layout.joinSql()} WHERE s.id = ?`;
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
    const stored = typeof text === 'string' ? this.layout.textSql() : `CAST(${this.layout.textSql()} AS BLOB)`;
    const sql = `SELECT s.id AS id FROM sessions s ${this.layout.joinSql()} ${idsWhere(`WHERE ${stored} = ?`)}`;
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
    const row = this.read(() => this.statement(transcriptSizeSql(this.schema, this.layout, 'session_id = ?', false)).get(sessionId));
    return row ? toTranscriptSize(row) : EMPTY_TRANSCRIPT;
  }

  /**
   * `transcriptSize` of many sessions in one grouped query (one pass over their messages instead
   * of one query each); sessions without live messages get zeros.
   */
  transcriptSizes(sessionIds: readonly string[]): Map<string, TranscriptSize> {
    const sizes = new Map<string, TranscriptSize>(sessionIds.map((id) => [id, EMPTY_TRANSCRIPT]));
    if (!hasTable(this.schema, 'messages') || sessionIds.length === 0) return sizes;
    const sql = transcriptSizeSql(this.schema, this.layout, 'session_id IN (SELECT value FROM json_each(?))', true);
    const rows = this.read(() => this.statement(sql).all(JSON.stringify(sessionIds)));
    for (const row of rows) sizes.set(String(row.session_id), toTranscriptSize(row));
    return sizes;
  }

  /**
   * The times (epoch seconds, ascending) of these sessions' requests to the model since `since`:
   * Hermes stores one assistant message per API call, answered or calling tools. Counts only, no text.
   */
  requestTimes(sessionIds: readonly string[], since: number): Map<string, number[]> {
    const times = new Map<string, number[]>();
    if (!hasTable(this.schema, 'messages') || sessionIds.length === 0) return times;
    const sql = "SELECT session_id AS id, timestamp AS t FROM messages WHERE session_id IN (SELECT value FROM json_each(?)) AND role = 'assistant' AND timestamp >= ? ORDER BY timestamp";
    for (const row of this.read(() => this.statement(sql).all(JSON.stringify(sessionIds), since))) {
      const t = Number(row.t);
      if (!Number.isFinite(t)) continue;
      const id = String(row.id);
      const list = times.get(id);
      if (list) list.push(t);
      else times.set(id, [t]);
    }
    return times;
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
      const ahead = readAhead(this.db, this.schema, this.layout, needs, { lastSession: () => this.tableMarks().sessions, dataVersion: () => this.dataVersion() });
      walBefore = walFramesAtMost(this.db, this.file);
      result = runImmediate(this.db, () => work(writeTxOf(this.db, this.schema, this.layout, ahead, ahead !== undefined && this.dataVersion() === ahead.version)), retry);
    } catch (error) {
      throw translateSqliteError(error, this.file, 'write');
    }
    handBackWal(this.db, walBefore);
    return result;
  }

  /**
   * Runs `work` on the reads a write transaction makes, with its writes left out and no lock taken:
   * what a dry run of a refresh reports. A read-only store will do.
   */
  dryRunTransaction<T>(work: (tx: StateWriteTx) => T): T {
    return this.read(() => work({ ...writeTxOf(this.db, this.schema, this.layout), setStateMeta: () => undefined, clearStoredPrompts: () => 0 }));
  }

  countStoredPromptSessions(among: readonly string[] | 'all' = 'all'): number {
    return this.read(() => writeTxOf(this.db, this.schema, this.layout).countStoredPromptSessions(among));
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

  private read<T>(query: () => T): T {
    try {
      return query();
    } catch (error) {
      throw translateSqliteError(error, this.file, this.writable ? 'write' : 'read');
    }
  }
}
