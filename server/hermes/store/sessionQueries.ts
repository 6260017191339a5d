// The SQL of the session reads: which columns a session read selects (whatever this database's
// schema has of them), how a row becomes a SessionRecord, the digest that tells a changed row, and the
// transcript sizes computed without loading a message's text.
import type { SessionRecord, TranscriptSize } from '../model';
import { compareCodePoints } from '../text/pyText';
import { optionalNumber, optionalString } from './codec';
import type { Row, SqliteConnection } from './connection';
import type { DecodedColumns } from './decodedColumns';
import type { PromptLayout } from './promptLayout';
import { hasColumn, hasTable, type SchemaInfo } from './schema';

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

/** The parts of a session read: its columns (SESSION_COLUMNS order), its FROM and its WHERE. */
export interface SessionQuery {
  readonly columns: string[];
  readonly from: string;
  readonly where: string;
}

/** The session read of this schema; ended sessions only when asked. */
export function sessionQuery(schema: SchemaInfo, layout: PromptLayout, options: { includeEnded?: boolean }): SessionQuery {
  const s = schema;
  const col = (name: string, alias = name) => (hasColumn(s, 'sessions', name) ? `s.${name} AS ${alias}` : `NULL AS ${alias}`);
  const activity = hasColumn(s, 'sessions', 'last_activity_at')
    ? 'COALESCE(s.last_activity_at, s.started_at)'
    : hasColumn(s, 'sessions', 'started_at')
      ? 's.started_at'
      : 'NULL';
  const computed: Partial<Record<SessionColumn, string>> = { id: 's.id AS id', prompt_key: `${layout.keySql()} AS prompt_key`, last_activity: `${activity} AS last_activity` };
  const columns = SESSION_COLUMNS.map((name) => computed[name] ?? col(name));
  const where = !options.includeEnded && hasColumn(s, 'sessions', 'ended_at') ? 'WHERE s.ended_at IS NULL' : '';
  return { columns, from: `FROM sessions s ${layout.joinSql()}`, where };
}

/** A session row as selected by sessionQuery: its values in SESSION_COLUMNS order. */
export function toSessionRecord(r: readonly unknown[], decoded: DecodedColumns): SessionRecord {
  return {
    id: String(r[AT.id]),
    source: optionalString(r[AT.source]),
    model: optionalString(r[AT.model]),
    modelConfig: decoded.modelConfig(r[AT.model_config]),
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
    toolNames: decoded.toolNames(r[AT.tool_names]),
    inputTokens: optionalNumber(r[AT.input_tokens]),
    cacheReadTokens: optionalNumber(r[AT.cache_read_tokens]),
    cacheWriteTokens: optionalNumber(r[AT.cache_write_tokens]),
  };
}

/** The SQL of the live transcript's sizes (one session, or grouped by session). */
export function transcriptSizeSql(schema: SchemaInfo, layout: PromptLayout, where: string, grouped: boolean): string {
  const s = schema;
  const len = (c: string) => (hasColumn(s, 'messages', c) ? `COALESCE(${layout.byteLength(c)}, 0)` : '0');
  const size = `${len('content')} + ${len('tool_calls')}`;
  const tokens = hasColumn(s, 'messages', 'token_count') ? 'token_count' : 'NULL';
  const active = hasColumn(s, 'messages', 'active') ? 'AND active = 1' : '';
  return `SELECT ${grouped ? 'session_id, ' : ''}COUNT(*) AS n, SUM(${size}) AS chars, SUM(COALESCE(${tokens}, 0)) AS tokens,
        SUM(CASE WHEN ${tokens} IS NULL THEN ${size} ELSE 0 END) AS uncounted
      FROM messages WHERE ${where} ${active}${grouped ? ' GROUP BY session_id' : ''}`;
}

/** SQL for a digest of the session columns read: SQLite's `quote()` of each, so any change shows. */
export function stampOf(columns: readonly string[]): string {
  return columns.map((c) => `quote(${c.replace(/ AS \w+$/, '')})`).join(" || ',' || ");
}

/** `where` narrowed to the sessions whose ids the one parameter lists (a JSON array). */
export function idsWhere(where: string): string {
  return `${where ? `${where} AND` : 'WHERE'} s.id IN (SELECT value FROM json_each(?))`;
}

/** Puts `session` into `sorted` (byActivity order) where it belongs. */
export function insertByActivity(sorted: StampedSession[], session: StampedSession): void {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (byActivity(sorted[mid]!.record, session.record) <= 0) low = mid + 1;
    else high = mid;
  }
  sorted.splice(low, 0, session);
}

export const EMPTY_TRANSCRIPT: TranscriptSize = { messages: 0, chars: 0, recordedTokens: 0, uncountedChars: 0 };

export function toTranscriptSize(row: Row): TranscriptSize {
  return {
    messages: Number(row.n ?? 0),
    chars: Number(row.chars ?? 0),
    recordedTokens: Number(row.tokens ?? 0),
    uncountedChars: Number(row.uncounted ?? 0),
  };
}

/** Every `state_meta` row; none when the table is missing (an older build still takes a clear-prompt request). */
export function stateMetaOf(db: SqliteConnection, schema: SchemaInfo): Map<string, string> {
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
export const SESSION_COLUMNS = [
  'id', 'source', 'model', 'model_config', 'prompt_key', 'parent_session_id', 'started_at', 'ended_at', 'end_reason',
  'message_count', 'cwd', 'billing_provider', 'billing_mode', 'title', 'last_activity', 'tool_names',
  'input_tokens', 'cache_read_tokens', 'cache_write_tokens',
] as const;
type SessionColumn = (typeof SESSION_COLUMNS)[number];
const AT = Object.fromEntries(SESSION_COLUMNS.map((name, i) => [name, i])) as Record<SessionColumn, number>;

