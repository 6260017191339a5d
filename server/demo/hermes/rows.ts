// The rows the simulated Hermes writes and reads back: a session, its stored prompt in either
// layout, its messages, its per-model usage and `state_meta`. Callers run the writes inside their
// own BEGIN IMMEDIATE transaction; nothing here opens, commits or runs DDL.
import { parseModelConfig } from '../../hermes/store/codec';
import type { SqliteConnection } from '../../hermes/store/connection';
import { promptHash } from '../../hermes/store/promptHash';
import type { SchemaLayout } from './schema';
import type { StoredMessage, UsageCounters } from '../transcript';

export interface SessionRowInput {
  readonly id: string;
  readonly source: string;
  readonly userId?: string;
  readonly sessionKey?: string;
  readonly chatId?: string;
  readonly chatType?: string;
  readonly model: string;
  readonly modelConfig: Readonly<Record<string, unknown>>;
  readonly parentSessionId?: string;
  readonly startedAt: number;
  readonly endedAt?: number;
  readonly endReason?: string;
  readonly cwd?: string;
  readonly gitBranch?: string;
  readonly gitRepoRoot?: string;
  readonly billingProvider?: string;
  readonly billingBaseUrl?: string;
  readonly billingMode?: string;
  readonly costStatus?: string;
  readonly title?: string;
  readonly lastActivityAt: number;
  readonly profileName?: string;
  readonly toolNames: readonly string[];
}

/** Inserts the session row with zero counters (messages add them). */
export function insertSession(db: SqliteConnection, row: SessionRowInput): void {
  db.prepare(
    `INSERT INTO sessions (id, source, created_source, user_id, session_key, chat_id, chat_type, model, model_config,
       parent_session_id, started_at, ended_at, end_reason, cwd, git_branch, git_repo_root, billing_provider,
       billing_base_url, billing_mode, cost_status, title, title_source, last_activity_at, profile_name, tool_names)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.id,
    row.source,
    row.source,
    row.userId ?? null,
    row.sessionKey ?? null,
    row.chatId ?? null,
    row.chatType ?? null,
    row.model,
    JSON.stringify(row.modelConfig),
    row.parentSessionId ?? null,
    row.startedAt,
    row.endedAt ?? null,
    row.endReason ?? null,
    row.cwd ?? null,
    row.gitBranch ?? null,
    row.gitRepoRoot ?? null,
    row.billingProvider ?? null,
    row.billingBaseUrl ?? null,
    row.billingMode ?? null,
    row.costStatus ?? null,
    row.title ?? null,
    row.title ? 'llm' : null,
    row.lastActivityAt,
    row.profileName ?? null,
    JSON.stringify(row.toolNames),
  );
}

/**
 * Stores a session's prompt the way its layout does: v30 keeps one `system_prompts` row per
 * distinct text (shared) and NULLs the inline column; v24 keeps the text inline. `undefined`
 * leaves the session without a stored prompt (what `repair-prompts` leaves behind).
 */
export function storePrompt(db: SqliteConnection, layout: SchemaLayout, sessionId: string, prompt: string | undefined): void {
  if (layout === 'v24') {
    db.prepare('UPDATE sessions SET system_prompt = ? WHERE id = ?').run(prompt ?? null, sessionId);
    return;
  }
  if (prompt === undefined) {
    db.prepare('UPDATE sessions SET system_prompt = NULL, system_prompt_hash = NULL WHERE id = ?').run(sessionId);
    return;
  }
  const hash = promptHash(prompt);
  db.prepare('INSERT OR IGNORE INTO system_prompts (hash, prompt) VALUES (?, ?)').run(hash, prompt);
  db.prepare('UPDATE sessions SET system_prompt = NULL, system_prompt_hash = ? WHERE id = ?').run(hash, sessionId);
}

/** Appends messages; returns their row ids. */
export function insertMessages(db: SqliteConnection, sessionId: string, messages: readonly StoredMessage[]): number[] {
  const insert = db.prepare(
    `INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count,
       finish_reason, _compressed_summary, active, compacted)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const lastId = db.prepare('SELECT last_insert_rowid() AS id');
  return messages.map((m) => {
    insert.run(
      sessionId,
      m.role,
      m.content,
      m.toolCallId,
      m.toolCalls,
      m.toolName,
      m.timestamp,
      m.tokenCount,
      m.finishReason,
      m.compressedSummary ? 1 : 0,
      m.active ? 1 : 0,
      m.compacted ? 1 : 0,
    );
    return Number(lastId.get()?.id);
  });
}

/** Adds usage to the session's counters and to its `session_model_usage` row. */
export function addSessionUsage(
  db: SqliteConnection,
  session: { id: string; model: string; billingProvider?: string; billingBaseUrl?: string; billingMode?: string },
  usage: UsageCounters,
  seenAt: { first: number; last: number },
): void {
  // What the API calls add, in the column order of both tables.
  const calls = [usage.apiCallCount, usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.cacheWriteTokens, usage.reasoningTokens];
  db.prepare(
    `UPDATE sessions SET message_count = message_count + ?, tool_call_count = tool_call_count + ?,
       api_call_count = api_call_count + ?, input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
       cache_read_tokens = cache_read_tokens + ?, cache_write_tokens = cache_write_tokens + ?,
       reasoning_tokens = reasoning_tokens + ?
     WHERE id = ?`,
  ).run(usage.messageCount, usage.toolCallCount, ...calls, session.id);
  if (usage.apiCallCount === 0) return;
  db.prepare(
    `INSERT INTO session_model_usage (session_id, model, billing_provider, billing_base_url, billing_mode, task,
       api_call_count, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens,
       first_seen, last_seen)
     VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (session_id, model, billing_provider, billing_base_url, billing_mode, task) DO UPDATE SET
       api_call_count = api_call_count + excluded.api_call_count,
       input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens,
       cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
       cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
       reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens,
       last_seen = excluded.last_seen`,
  ).run(
    session.id,
    session.model,
    session.billingProvider ?? '',
    session.billingBaseUrl ?? '',
    session.billingMode ?? '',
    ...calls,
    seenAt.first,
    seenAt.last,
  );
}

/** The session's stored prompt, wherever its layout keeps it (a v30 row the migration left inline too). */
export function storedPromptOf(db: SqliteConnection, layout: SchemaLayout, sessionId: string): string | undefined {
  const sql =
    layout === 'v30'
      ? 'SELECT COALESCE(sp.prompt, s.system_prompt) AS prompt FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash WHERE s.id = ?'
      : 'SELECT system_prompt AS prompt FROM sessions WHERE id = ?';
  const text = db.prepare(sql).get(sessionId)?.prompt;
  return typeof text === 'string' && text !== '' ? text : undefined;
}

export function readStateMeta(db: SqliteConnection): Map<string, string> {
  const rows = db.prepare('SELECT key, value FROM state_meta').all();
  return new Map(rows.map((r) => [String(r.key), r.value == null ? '' : String(r.value)]));
}

export function setStateMeta(db: SqliteConnection, key: string, value: string): void {
  db.prepare('INSERT INTO state_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** `model_config` of a session, parsed as the lens parses it (invalid JSON counts as `{}`). */
export function readModelConfig(db: SqliteConnection, sessionId: string): Record<string, unknown> {
  return parseModelConfig(db.prepare('SELECT model_config FROM sessions WHERE id = ?').get(sessionId)?.model_config);
}
