// The simulated Hermes: what Hermes' SessionDB writes into a profile's state.db, and how it writes.
// One connection kept open, as a running Hermes keeps one (with its prepared statements);
// `PRAGMA foreign_keys=ON`; a 1 s busy timeout; each write one short BEGIN IMMEDIATE transaction,
// tried again after a random pause when the lock is still taken once the busy timeout ran out. A
// prompt is built before its transaction (Hermes builds it in memory, then stores it), so a write
// holds the lock only for its rows.
//
// The demo home generator, the tests and the benchmarks all write as Hermes through this class:
// starting sessions, appending messages (counters raised), replacing prompts (compaction, `/model`),
// adopting refresh requests, and holding the write lock (`hold`; hermesProcess.ts does it from
// another process). The functions at the end are one-shot: a Hermes command that opens the
// database, writes once and exits.
import path = require('node:path');
import { readProfileConfig, type ProfileConfig } from '../../hermes/profile/config';
import { DEFAULT_REFRESH_KEYS, requestedEpoch, stampedEpoch, type RefreshKeys } from '../../hermes/refresh/epochs';
import { parseModelConfig, parseToolNames } from '../../hermes/store/codec';
import { openConnection, type SqliteConnection, type SqliteStatement } from '../../hermes/store/connection';
import { isBusy, runImmediate, type RetryPolicy } from '../../hermes/store/transaction';
import { createRng, type Rng } from '../prng';
import { cachingOf, toolSchemaTokensEstimate } from '../providers';
import { buildSessionPrompt } from '../sessionPrompt';
import { estimateTokens, synthesizeMessages, toStoredMessages, usageFor, type MessageSpec } from '../transcript';
import { addSessionUsage, insertMessages, readModelConfig, readStateMeta, setStateMeta, storedPromptOf, storePrompt } from './rows';
import { layoutOf, type SchemaLayout } from './schema';
import { prepareSession, writePreparedSession, type SessionSpec, type WrittenSession } from './sessions';

export const HERMES_WRITER_BUSY_TIMEOUT_MS = 1000;

/**
 * Hermes' pauses between attempts at BEGIN IMMEDIATE (20–150 ms, its SessionDB's range). Five
 * attempts: a write that gives up surfaces as an error, which the reliability tests look for.
 */
export const HERMES_WRITE_RETRY: RetryPolicy = { attempts: 5, minJitterMs: 20, maxJitterMs: 150 };

export interface AdoptResult {
  /** The epoch now stamped in `model_config` under the build's stamp key (0 when none was requested). */
  readonly epoch: number;
  readonly prompt: string;
}

/**
 * How a simulated Hermes build takes up refresh requests: under these names (this project's
 * reading of the documented protocol, or another build's), or not at all (a build that reads
 * another request than the one recorded).
 */
export type RefreshBehaviour = { readonly keys: RefreshKeys } | 'ignores';
export const DOCUMENTED_REFRESH: RefreshBehaviour = { keys: DEFAULT_REFRESH_KEYS };

export interface TurnOptions extends AppendOptions {
  readonly behaviour?: RefreshBehaviour;
  /** Messages the turn adds (default 2: the user's and the answer). */
  readonly messages?: number;
  readonly config?: ProfileConfig;
}

export interface TurnResult {
  /** Set when the turn began by adopting a refresh request. */
  readonly adopted: AdoptResult | undefined;
  readonly messageIds: number[];
}

export interface AppendOptions {
  /** When the last message lands (epoch seconds; default now). */
  readonly now?: number;
  /** Where synthetic messages come from (else `seed`, else a random seed). */
  readonly rng?: Rng;
  readonly seed?: number;
  /** The turn's first call misses the prompt cache (its system prompt was rebuilt with other bytes). */
  readonly cacheMiss?: boolean;
}

export class SimulatedHermes {
  /** Attempts at BEGIN IMMEDIATE that found the lock still taken after the busy timeout. */
  busyAttempts = 0;
  readonly db: SqliteConnection;
  private readonly statements = new Map<string, SqliteStatement>();

  private constructor(
    readonly dbFile: string,
    private readonly raw: SqliteConnection,
    readonly layout: SchemaLayout,
  ) {
    this.db = {
      driver: raw.driver,
      prepare: (sql) => this.prepare(sql),
      exec: (sql) => this.exec(sql),
      close: () => raw.close(),
    };
  }

  /** Opens `dbFile` as Hermes' writer (it adapts to the layout the file has). */
  static open(dbFile: string): SimulatedHermes {
    const raw = openConnection(dbFile, { readonly: false, busyTimeoutMs: HERMES_WRITER_BUSY_TIMEOUT_MS });
    try {
      raw.exec('PRAGMA foreign_keys=ON');
      return new SimulatedHermes(dbFile, raw, layoutOf(raw));
    } catch (error) {
      raw.close();
      throw error;
    }
  }

  close(): void {
    this.raw.close();
  }

  /** Runs `body` in one BEGIN IMMEDIATE transaction with Hermes' retries. */
  write<T>(body: (db: SqliteConnection, layout: SchemaLayout) => T): T {
    return runImmediate(this.db, () => body(this.db, this.layout), HERMES_WRITE_RETRY);
  }

  /**
   * Takes the write lock and keeps it, as Hermes does in the middle of a write: BEGIN IMMEDIATE
   * (waiting for it as long as its retries would in all, in one busy wait), then `sql` when given.
   * The returned function commits.
   */
  hold(options: { sql?: string } = {}): () => void {
    const waitMs = HERMES_WRITE_RETRY.attempts * HERMES_WRITER_BUSY_TIMEOUT_MS;
    this.raw.exec(`PRAGMA busy_timeout = ${waitMs}`);
    try {
      this.exec('BEGIN IMMEDIATE');
    } finally {
      this.raw.exec(`PRAGMA busy_timeout = ${HERMES_WRITER_BUSY_TIMEOUT_MS}`);
    }
    try {
      if (options.sql) this.raw.exec(options.sql);
    } catch (error) {
      this.raw.exec('ROLLBACK');
      throw error;
    }
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.raw.exec('COMMIT');
    };
  }

  /**
   * Hermes starting a session in a profile: the row, the prompt the spec asks for, messages and
   * counters, stamped with the refresh epoch already requested when its prompt is built from
   * today's files.
   */
  startSession(profileDir: string, spec: SessionSpec, options: { config?: ProfileConfig; rng?: Rng } = {}): WrittenSession {
    const session = prepareSession(
      { layout: this.layout, profileDir, config: options.config ?? configOf(profileDir), rng: options.rng ?? rngOf(undefined) },
      spec,
    );
    return this.write((db) => writePreparedSession(db, session));
  }

  /**
   * Hermes finishing more messages of a session (`n` synthetic ones, or these): appended to the
   * live transcript, counters and per-model usage raised, `last_activity_at` moved to `now`.
   * Returns the row ids.
   */
  appendMessages(sessionId: string, messages: number | readonly MessageSpec[], options: AppendOptions = {}): number[] {
    const specs = typeof messages === 'number' ? synthesizeMessages(options.rng ?? rngOf(options.seed), messages) : messages;
    const now = options.now ?? Date.now() / 1000;
    return this.write((db, layout) => {
      const row = db
        .prepare('SELECT model, model_config, last_activity_at, started_at, billing_provider, billing_base_url, billing_mode, tool_names FROM sessions WHERE id = ?')
        .get(sessionId);
      if (!row) throw new Error(`no session ${sessionId} in ${this.dbFile}`);
      const modelConfig = parseModelConfig(row.model_config);
      const model = String(row.model ?? modelConfig.model ?? '');
      const provider = typeof modelConfig.provider === 'string' ? modelConfig.provider : ((row.billing_provider as string | null) ?? undefined);
      const from = Number(row.last_activity_at ?? row.started_at);
      const start = Math.min(now, from + 1);
      const stored = toStoredMessages(specs, start, Math.max(start, now));
      const prior = Number(db.prepare('SELECT COALESCE(SUM(token_count), 0) AS t FROM messages WHERE session_id = ? AND active = 1').get(sessionId)?.t ?? 0);
      const prompt = storedPromptOf(db, layout, sessionId);
      const usage = usageFor(stored, {
        headTokens: toolSchemaTokensEstimate(parseToolNames(row.tool_names)) + (prompt ? estimateTokens(prompt) : 0),
        priorTranscriptTokens: prior,
        ...cachingOf(provider, model),
        cacheMiss: options.cacheMiss,
      });
      const ids = insertMessages(db, sessionId, stored);
      addSessionUsage(
        db,
        {
          id: sessionId,
          model,
          billingProvider: (row.billing_provider as string | null) ?? undefined,
          billingBaseUrl: (row.billing_base_url as string | null) ?? undefined,
          billingMode: (row.billing_mode as string | null) ?? undefined,
        },
        usage,
        { first: start, last: now },
      );
      db.prepare('UPDATE sessions SET last_activity_at = ? WHERE id = ?').run(now, sessionId);
      return ids;
    });
  }

  /** Hermes storing another prompt for a session (compaction, `/model`); `undefined` clears it. */
  replacePrompt(sessionId: string, prompt: string | undefined): void {
    this.write((db, layout) => storePrompt(db, layout, sessionId, prompt));
  }

  /**
   * What a session does at the start of its next turn when a refresh is pending: rebuild its prompt
   * from today's files, store it (a hash row in v30, inline in v24) and stamp the requested epoch
   * (max of the profile-wide and the session's own request) into `model_config`, keeping every
   * other key. History, id and tool list stay as they are.
   */
  adoptRefresh(sessionId: string, profileDir: string, options: { config?: ProfileConfig; builtAt?: number; keys?: RefreshKeys } = {}): AdoptResult {
    const keys = options.keys ?? DEFAULT_REFRESH_KEYS;
    const row = this.db.prepare('SELECT source, model, cwd, started_at, billing_provider FROM sessions WHERE id = ?').get(sessionId);
    if (!row) throw new Error(`no session ${sessionId} in ${this.dbFile}`);
    const modelConfig = readModelConfig(this.db, sessionId);
    const oldPrompt = this.storedPrompt(sessionId);
    const { prompt } = buildSessionPrompt({
      profileDir,
      config: options.config ?? configOf(profileDir),
      cwd: (row.cwd as string | null) ?? undefined,
      sessionId,
      model: String(row.model ?? modelConfig.model ?? ''),
      provider: typeof modelConfig.provider === 'string' ? modelConfig.provider : ((row.billing_provider as string | null) ?? undefined),
      platform: String(row.source ?? ''),
      startedAt: Number(row.started_at),
      builtAt: options.builtAt ?? Date.now() / 1000,
      // The running Hermes keeps its pass_session_id setting: keep the line if the old prompt had it.
      passSessionId: oldPrompt?.includes(`\nSession ID: ${sessionId}\n`) ?? false,
    });
    return this.write((db, layout) => {
      storePrompt(db, layout, sessionId, prompt);
      const current = readModelConfig(db, sessionId);
      const epoch = Math.max(requestedEpoch(readStateMeta(db), sessionId, keys), stampedEpoch(current, keys));
      if (epoch > 0) {
        db.prepare('UPDATE sessions SET model_config = ? WHERE id = ?').run(JSON.stringify({ ...current, [keys.stampKey]: epoch }), sessionId);
      }
      return { epoch, prompt };
    });
  }

  /**
   * A turn of the session as a Hermes build with `behaviour` takes it: a refresh request pending
   * under its names is adopted first (the prompt rebuilt and stamped, in its own transaction, as
   * Hermes does at the start of a turn), then the turn's messages land (its first call missing the
   * cache when the rebuilt prompt has other bytes). A build that ignores requests only talks.
   */
  takeTurn(sessionId: string, profileDir: string, options: TurnOptions = {}): TurnResult {
    const behaviour = options.behaviour ?? DOCUMENTED_REFRESH;
    let adopted: AdoptResult | undefined;
    let cacheMiss = false;
    if (behaviour !== 'ignores') {
      const requested = requestedEpoch(readStateMeta(this.db), sessionId, behaviour.keys);
      if (requested > stampedEpoch(readModelConfig(this.db, sessionId), behaviour.keys)) {
        const before = this.storedPrompt(sessionId);
        adopted = this.adoptRefresh(sessionId, profileDir, { config: options.config, builtAt: options.now, keys: behaviour.keys });
        cacheMiss = adopted.prompt !== before;
      }
    }
    const messageIds = this.appendMessages(sessionId, options.messages ?? 2, { ...options, cacheMiss });
    return { adopted, messageIds };
  }

  /** Sets a `state_meta` row (refresh requests, FTS bookkeeping, …). */
  setStateMeta(key: string, value: string): void {
    this.write((db) => setStateMeta(db, key, value));
  }

  storedPrompt(sessionId: string): string | undefined {
    return storedPromptOf(this.db, this.layout, sessionId);
  }

  /** Prepared statements kept for reuse, the last 128 used, as Python's sqlite3 keeps them for Hermes. */
  private prepare(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (statement) {
      this.statements.delete(sql);
    } else {
      statement = this.raw.prepare(sql);
      if (this.statements.size >= 128) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  private exec(sql: string): void {
    try {
      this.raw.exec(sql);
    } catch (error) {
      if (sql === 'BEGIN IMMEDIATE' && isBusy(error)) this.busyAttempts++;
      throw error;
    }
  }
}

/** Opens `dbFile` as Hermes, runs `use`, closes. */
export function withSimulatedHermes<T>(dbFile: string, use: (hermes: SimulatedHermes) => T): T {
  const hermes = SimulatedHermes.open(dbFile);
  try {
    return use(hermes);
  } finally {
    hermes.close();
  }
}

/** Opens, runs `body` in one BEGIN IMMEDIATE transaction, closes. */
export function hermesWrite<T>(dbFile: string, body: (db: SqliteConnection, layout: SchemaLayout) => T): T {
  return withSimulatedHermes(dbFile, (hermes) => hermes.write(body));
}

/** `SimulatedHermes.startSession` once; the prompt is built from today's files unless the spec says otherwise. Returns the id. */
export function startSession(dbFile: string, profileDir: string, spec: SessionSpec, options: { config?: ProfileConfig; rng?: Rng } = {}): string {
  const withPrompt = spec.promptText === undefined && spec.promptFromCurrentFiles === undefined ? { ...spec, promptFromCurrentFiles: true } : spec;
  return withSimulatedHermes(dbFile, (hermes) => hermes.startSession(profileDir, withPrompt, options).id);
}

/** `SimulatedHermes.appendMessages` once. */
export function appendMessages(dbFile: string, sessionId: string, messages: number | readonly MessageSpec[], options: AppendOptions = {}): number[] {
  return withSimulatedHermes(dbFile, (hermes) => hermes.appendMessages(sessionId, messages, options));
}

/** `SimulatedHermes.takeTurn` once. */
export function takeTurn(dbFile: string, sessionId: string, profileDir: string, options: TurnOptions = {}): TurnResult {
  return withSimulatedHermes(dbFile, (hermes) => hermes.takeTurn(sessionId, profileDir, options));
}

/** `SimulatedHermes.adoptRefresh` once. */
export function adoptRefresh(
  dbFile: string,
  sessionId: string,
  profileDir: string,
  config?: ProfileConfig,
  options: { builtAt?: number } = {},
): AdoptResult {
  return withSimulatedHermes(dbFile, (hermes) => hermes.adoptRefresh(sessionId, profileDir, { config, builtAt: options.builtAt }));
}

function configOf(profileDir: string): ProfileConfig {
  return readProfileConfig(path.join(profileDir, 'config.yaml'));
}

function rngOf(seed: number | undefined): Rng {
  return createRng(seed ?? Math.floor(Math.random() * 2 ** 32));
}
