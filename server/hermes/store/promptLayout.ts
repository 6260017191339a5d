// Where a session's stored prompt lives, as SQL: from Hermes' v25 on, in `system_prompts` by the
// hash its row names (one text shared by many sessions); before, inline in the session's own row.
// Both layouts can be in one database (a home first written by an older build), so each read takes
// the out-of-line text and falls back to the inline one.
import type { SqliteConnection } from './connection';
import { hasColumn, hasTable, type SchemaInfo } from './schema';

/**
 * The prompt key of a session whose prompt is stored inline in its row (before Hermes' v25): this
 * prefix and the session's id. Hermes may rewrite the text under it (AnalysisCache.knownIdentity).
 */
export const INLINE_PROMPT_KEY = 'inline:';

/** The SQL fragments of one database's layout (session rows are aliased `s`, prompt rows `sp`). */
export class PromptLayout {
  private octetLength: boolean | undefined;

  constructor(
    private readonly db: SqliteConnection,
    private readonly schema: SchemaInfo,
  ) {}

  /** The join that brings a session's out-of-line prompt (v25) in as `sp`; '' before v25. */
  joinSql(): string {
    return this.hasPromptTable() ? 'LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash' : '';
  }

  /** A session's stored prompt text: `COALESCE(system_prompts.prompt, sessions.system_prompt)`. */
  textSql(): string {
    const inline = hasColumn(this.schema, 'sessions', 'system_prompt') ? 's.system_prompt' : 'NULL';
    return this.hasPromptTable() ? `COALESCE(NULLIF(sp.prompt, ''), ${inline})` : inline;
  }

  /** A session's prompt key: `hash:<sha>` for an out-of-line prompt, `inline:<id>` for one in its row. */
  keySql(): string {
    const inline = hasColumn(this.schema, 'sessions', 'system_prompt')
      ? `CASE WHEN ${this.nonEmpty('s.system_prompt')} THEN '${INLINE_PROMPT_KEY}' || s.id END`
      : 'NULL';
    return this.hasPromptTable() ? `CASE WHEN ${this.nonEmpty('sp.prompt')} THEN 'hash:' || sp.hash ELSE ${inline} END` : inline;
  }

  /**
   * SQL true when session `s` holds a stored prompt (`COALESCE(NULLIF(sp.prompt, ''), s.system_prompt) <> ''`),
   * without a join: the non-empty prompts' hashes are looked up once, not one prompt row per session.
   */
  hasPromptSql(): string {
    const inline = hasColumn(this.schema, 'sessions', 'system_prompt') ? this.nonEmpty('s.system_prompt') : '0';
    if (!this.hasPromptTable()) return inline;
    return `(s.system_prompt_hash IN (SELECT hash FROM system_prompts WHERE ${this.nonEmpty('prompt')}) OR ${inline})`;
  }

  /**
   * `COALESCE(column, '') <> ''` without reading the text: octet_length() (SQLite 3.43+) takes the
   * size from the record header, where the comparison would load each ~30 KB prompt of every row.
   */
  nonEmpty(column: string): string {
    return this.hasOctetLength() ? `COALESCE(octet_length(${column}), 0) > 0` : `COALESCE(${column}, '') <> ''`;
  }

  /**
   * The size in bytes of a text or blob column. octet_length() reads it from the record header;
   * before SQLite 3.43, CAST AS BLOB loads the value (plain length() of text stops at the first NUL,
   * and JSON message content starts with one).
   */
  byteLength(column: string): string {
    return this.hasOctetLength() ? `octet_length(${column})` : `LENGTH(CAST(${column} AS BLOB))`;
  }

  private hasOctetLength(): boolean {
    return (this.octetLength ??= sqliteAtLeast(this.db, 3, 43));
  }

  private hasPromptTable(): boolean {
    return hasTable(this.schema, 'system_prompts') && hasColumn(this.schema, 'sessions', 'system_prompt_hash');
  }
}

function sqliteAtLeast(db: SqliteConnection, major: number, minor: number): boolean {
  try {
    const [a = 0, b = 0] = String(db.prepare('SELECT sqlite_version() AS v').get()?.v ?? '').split('.').map(Number);
    return a > major || (a === major && b >= minor);
  } catch {
    return false;
  }
}
