// The DDL of Hermes' state.db (docs/HERMES-FORMATS.md §7, Hermes' `SCHEMA_SQL`, SCHEMA_VERSION 30),
// in the two layouts the lens must read: `v30` (prompts out of line in `system_prompts`, keyed by
// the sha256 hex of the UTF-8 text) and `v24` (before the v25 move: the prompt inline in
// `sessions.system_prompt`, no `system_prompts` table, no `system_prompt_hash` column).
//
// This DDL is only ever run on database files this module creates itself (demo homes, test fixtures,
// benchmarks): `createStateDb` refuses a path that already exists. The lens never runs DDL on a
// user's state.db; Hermes migrates its own files.
import { randomBytes } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import { openConnection, type SqliteConnection } from '../../hermes/store/connection';

export type SchemaLayout = 'v30' | 'v24';
export type JournalMode = 'wal' | 'delete';

/** `sessions` columns in Hermes' order; `since` marks the one the v25 migration added. */
const SESSION_COLUMNS: ReadonlyArray<readonly [name: string, decl: string, since?: number]> = [
  ['id', 'TEXT PRIMARY KEY'],
  ['source', 'TEXT NOT NULL'],
  ['created_source', 'TEXT'],
  ['user_id', 'TEXT'],
  ['session_key', 'TEXT'],
  ['chat_id', 'TEXT'],
  ['chat_type', 'TEXT'],
  ['thread_id', 'TEXT'],
  ['display_name', 'TEXT'],
  ['origin_json', 'TEXT'],
  ['expiry_finalized', 'INTEGER DEFAULT 0'],
  ['model', 'TEXT'],
  ['model_config', 'TEXT'],
  ['system_prompt', 'TEXT'],
  ['system_prompt_hash', 'TEXT', 25],
  ['parent_session_id', 'TEXT'],
  ['started_at', 'REAL NOT NULL'],
  ['ended_at', 'REAL'],
  ['end_reason', 'TEXT'],
  ['message_count', 'INTEGER DEFAULT 0'],
  ['tool_call_count', 'INTEGER DEFAULT 0'],
  ['input_tokens', 'INTEGER DEFAULT 0'],
  ['output_tokens', 'INTEGER DEFAULT 0'],
  ['cache_read_tokens', 'INTEGER DEFAULT 0'],
  ['cache_write_tokens', 'INTEGER DEFAULT 0'],
  ['reasoning_tokens', 'INTEGER DEFAULT 0'],
  ['cwd', 'TEXT'],
  ['git_branch', 'TEXT'],
  ['git_repo_root', 'TEXT'],
  ['git_metadata_generation', 'INTEGER NOT NULL DEFAULT 0'],
  ['billing_provider', 'TEXT'],
  ['billing_base_url', 'TEXT'],
  ['billing_mode', 'TEXT'],
  ['estimated_cost_usd', 'REAL'],
  ['actual_cost_usd', 'REAL'],
  ['cost_status', 'TEXT'],
  ['cost_source', 'TEXT'],
  ['pricing_version', 'TEXT'],
  ['title', 'TEXT'],
  ['title_source', 'TEXT'],
  ['last_activity_at', 'REAL'],
  ['last_activity_description', 'TEXT'],
  ['last_activity_provenance', 'TEXT'],
  ['api_call_count', 'INTEGER DEFAULT 0'],
  ['handoff_state', 'TEXT'],
  ['handoff_platform', 'TEXT'],
  ['handoff_error', 'TEXT'],
  ['compression_failure_cooldown_until', 'REAL'],
  ['compression_failure_error', 'TEXT'],
  ['compression_fallback_streak', 'INTEGER NOT NULL DEFAULT 0'],
  ['compression_ineffective_count', 'INTEGER NOT NULL DEFAULT 0'],
  ['compression_recovery_deadline', 'REAL'],
  ['compression_overload_streak', 'INTEGER NOT NULL DEFAULT 0'],
  ['profile_name', 'TEXT'],
  ['transport_profile', 'TEXT'],
  ['rewind_count', 'INTEGER NOT NULL DEFAULT 0'],
  ['archived', 'INTEGER NOT NULL DEFAULT 0'],
  ['pinned', 'INTEGER NOT NULL DEFAULT 0'],
  ['hidden', 'INTEGER NOT NULL DEFAULT 0'],
  ['last_read_at', 'REAL'],
  ['tool_names', 'TEXT'],
];

const MESSAGE_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['id', 'INTEGER PRIMARY KEY AUTOINCREMENT'],
  ['session_id', 'TEXT NOT NULL REFERENCES sessions(id)'],
  ['role', 'TEXT NOT NULL'],
  ['content', 'TEXT'],
  ['tool_call_id', 'TEXT'],
  ['tool_calls', 'TEXT'],
  ['tool_name', 'TEXT'],
  ['effect_disposition', 'TEXT'],
  ['timestamp', 'REAL NOT NULL'],
  ['token_count', 'INTEGER'],
  ['finish_reason', 'TEXT'],
  ['reasoning', 'TEXT'],
  ['reasoning_content', 'TEXT'],
  ['reasoning_details', 'TEXT'],
  ['codex_reasoning_items', 'TEXT'],
  ['codex_message_items', 'TEXT'],
  ['platform_message_id', 'TEXT'],
  ['observed', 'INTEGER DEFAULT 0'],
  ['_compressed_summary', 'INTEGER NOT NULL DEFAULT 0'],
  ['active', 'INTEGER NOT NULL DEFAULT 1'],
  ['compacted', 'INTEGER NOT NULL DEFAULT 0'],
  ['api_content', 'TEXT'],
  ['display_kind', 'TEXT'],
  ['display_metadata', 'TEXT'],
  ['display_identity', 'BLOB'],
  ['display_order', 'INTEGER'],
];

const MODEL_USAGE_DDL = `CREATE TABLE session_model_usage (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    billing_provider TEXT NOT NULL DEFAULT '',
    billing_base_url TEXT NOT NULL DEFAULT '',
    billing_mode TEXT NOT NULL DEFAULT '',
    task TEXT NOT NULL DEFAULT '',
    api_call_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    estimated_cost_usd REAL NOT NULL DEFAULT 0,
    actual_cost_usd REAL NOT NULL DEFAULT 0,
    cost_status TEXT,
    cost_source TEXT,
    first_seen REAL,
    last_seen REAL,
    PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode, task)
)`;

/** The `schema_version` row each layout carries. */
export function schemaVersionOf(layout: SchemaLayout): number {
  return layout === 'v30' ? 30 : 24;
}

/** The `sessions` column names of a layout, in order. */
export function sessionColumns(layout: SchemaLayout): string[] {
  const version = schemaVersionOf(layout);
  return SESSION_COLUMNS.filter(([, , since]) => (since ?? 0) <= version).map(([name]) => name);
}

export function messageColumns(): string[] {
  return MESSAGE_COLUMNS.map(([name]) => name);
}

/** The tables a layout creates. */
export function tablesOf(layout: SchemaLayout): string[] {
  const tables = ['schema_version', 'sessions', 'messages', 'session_model_usage', 'state_meta'];
  return layout === 'v30' ? ['system_prompts', ...tables] : tables;
}

/** The full DDL script of a layout (tables, then Hermes' indexes on them). */
export function schemaSql(layout: SchemaLayout): string {
  const version = schemaVersionOf(layout);
  const sessionDecls = SESSION_COLUMNS.filter(([, , since]) => (since ?? 0) <= version).map(([n, d]) => `    ${n} ${d}`);
  sessionDecls.push('    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)');
  if (layout === 'v30') sessionDecls.push('    FOREIGN KEY (system_prompt_hash) REFERENCES system_prompts(hash)');
  const statements = [
    'CREATE TABLE schema_version (\n    version INTEGER NOT NULL\n)',
    ...(layout === 'v30' ? ['CREATE TABLE system_prompts (\n    hash TEXT PRIMARY KEY,\n    prompt TEXT NOT NULL\n)'] : []),
    `CREATE TABLE sessions (\n${sessionDecls.join(',\n')}\n)`,
    `CREATE TABLE messages (\n${MESSAGE_COLUMNS.map(([n, d]) => `    ${n} ${d}`).join(',\n')}\n)`,
    MODEL_USAGE_DDL,
    'CREATE TABLE state_meta (\n    key TEXT PRIMARY KEY,\n    value TEXT\n)',
    'CREATE INDEX idx_sessions_source ON sessions(source)',
    'CREATE INDEX idx_sessions_source_id ON sessions(source, id)',
    'CREATE INDEX idx_sessions_parent ON sessions(parent_session_id)',
    'CREATE INDEX idx_sessions_started ON sessions(started_at DESC)',
    'CREATE INDEX idx_messages_session ON messages(session_id, timestamp)',
    'CREATE INDEX idx_messages_session_id ON messages(session_id, id)',
    'CREATE INDEX idx_messages_session_active ON messages(session_id, active, timestamp)',
    'CREATE INDEX idx_session_model_usage_session ON session_model_usage(session_id)',
    'CREATE INDEX idx_session_model_usage_model ON session_model_usage(model)',
  ];
  return statements.map((s) => s + ';\n').join('\n');
}

/**
 * Hermes mints a file identity once: `db_file_generation` = a uuid4 hex, and from it
 * `application_id = (int(token[:8], 16) & 0x7FFFFFFF) or 1` (HERMES-FORMATS §7).
 */
export function applicationIdFor(generation: string): number {
  return (parseInt(generation.slice(0, 8), 16) & 0x7fffffff) || 1;
}

/** A uuid4-shaped 32-hex token (version nibble 4, variant 8–b), from `random` or the OS. */
export function newGenerationToken(randomHex?: (n: number) => string): string {
  const hex = randomHex ? randomHex(32) : randomBytes(16).toString('hex');
  const variant = '89ab'[parseInt(hex[16] ?? '0', 16) & 3];
  return `${hex.slice(0, 12)}4${hex.slice(13, 16)}${variant}${hex.slice(17, 32)}`;
}

export interface CreateStateDbOptions {
  readonly layout: SchemaLayout;
  /** WAL is Hermes' default; DELETE is what it falls back to on WAL-hostile filesystems. */
  readonly journalMode?: JournalMode;
  /** Source of the generation token's hex digits (a seeded PRNG keeps fixtures reproducible). */
  readonly randomHex?: (n: number) => string;
}

export interface CreatedStateDb {
  readonly file: string;
  readonly generation: string;
  readonly applicationId: number;
}

/** Creates a new state.db as Hermes would on first run; refuses to touch an existing file. */
export function createStateDb(file: string, options: CreateStateDbOptions): CreatedStateDb {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // 'wx' fails when the file exists: the DDL below only ever runs on a file made here. An empty
  // file is a valid empty SQLite database, which lets the shared connection layer open it.
  fs.writeFileSync(file, '', { flag: 'wx', mode: 0o600 });
  const generation = newGenerationToken(options.randomHex);
  const applicationId = applicationIdFor(generation);
  const db = openConnection(file, { readonly: false, busyTimeoutMs: 1000 });
  try {
    db.exec(`PRAGMA journal_mode=${options.journalMode === 'delete' ? 'DELETE' : 'WAL'}`);
    db.exec('PRAGMA foreign_keys=ON');
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(schemaSql(options.layout));
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(schemaVersionOf(options.layout));
      db.prepare("INSERT OR IGNORE INTO state_meta (key, value) VALUES ('db_file_generation', ?)").run(generation);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    // Hermes sets the id only while the header still reads 0, after the generation row exists.
    if (Number(db.prepare('PRAGMA application_id').get()?.application_id ?? 0) === 0) {
      db.exec(`PRAGMA application_id = ${applicationId}`);
    }
  } finally {
    db.close();
  }
  fs.chmodSync(file, 0o600);
  return { file, generation, applicationId };
}

/** Whether an existing state.db has the v25+ prompt table (the writer adapts to what exists). */
export function layoutOf(db: SqliteConnection): SchemaLayout {
  const row = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'system_prompts'").get();
  return Number(row?.n ?? 0) > 0 ? 'v30' : 'v24';
}
