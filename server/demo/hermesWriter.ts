// The simulated Hermes: what Hermes itself writes into a state.db, with its own writer discipline
// (BEGIN IMMEDIATE, 1 s busy timeout with retries, foreign keys on). Tests use it to play Hermes'
// side of the refresh protocol (FACTS §5) and to write while the lens reads.
import path = require('node:path');
import { readProfileConfig, type ProfileConfig } from '../hermes/config';
import { requestedEpoch, stampedEpoch } from '../hermes/refresh/epochs';
import { parseToolNames } from '../hermes/store/codec';
import type { SqliteConnection } from '../hermes/store/connection';
import { hermesWrite } from './hermesConnection';
import type { SchemaLayout } from './hermes/schema';
import { createRng, type Rng } from './prng';
import { cachingOf, toolSchemaTokensEstimate } from './providers';
import { buildSessionPrompt } from './sessionPrompt';
import { addSessionUsage, insertMessages, storePrompt } from './hermes/rows';
import { readModelConfig, readStateMeta, writeNewSession, type SessionSpec } from './hermes/sessions';
import { estimateTokens, synthesizeMessages, toStoredMessages, usageFor } from './transcript';

export { holdWriteLock, type WriteLockHold, type HoldWriteLockOptions } from './writeLock';

export interface AdoptResult {
  /** The epoch now stamped in `model_config.prompt_refresh_epoch` (0 when none was requested). */
  readonly epoch: number;
  readonly prompt: string;
}

/**
 * What a session does at the start of its next turn when a refresh is pending: rebuild its prompt
 * from today's files, store it (a hash row in v30, inline in v24) and stamp the requested epoch
 * (max of the profile-wide and the session's own request) into `model_config`, keeping every
 * other key. History, id and tool list stay as they are.
 */
export function adoptRefresh(
  dbFile: string,
  sessionId: string,
  profileDir: string,
  config: ProfileConfig = readProfileConfig(path.join(profileDir, 'config.yaml')),
  options: { builtAt?: number } = {},
): AdoptResult {
  return hermesWrite(dbFile, (db, layout) => {
    const row = db.prepare('SELECT source, model, cwd, started_at, billing_provider FROM sessions WHERE id = ?').get(sessionId);
    if (!row) throw new Error(`no session ${sessionId} in ${dbFile}`);
    const modelConfig = readModelConfig(db, sessionId);
    const oldPrompt = storedPromptOf(db, layout, sessionId);
    const model = String(row.model ?? modelConfig.model ?? '');
    const provider = typeof modelConfig.provider === 'string' ? modelConfig.provider : ((row.billing_provider as string | null) ?? undefined);
    const { prompt } = buildSessionPrompt({
      profileDir,
      config,
      cwd: (row.cwd as string | null) ?? undefined,
      sessionId,
      model,
      provider,
      platform: String(row.source ?? ''),
      startedAt: Number(row.started_at),
      builtAt: options.builtAt ?? Date.now() / 1000,
      // The running Hermes keeps its pass_session_id setting: keep the line if the old prompt had it.
      passSessionId: oldPrompt?.includes(`\nSession ID: ${sessionId}\n`) ?? false,
    });
    storePrompt(db, layout, sessionId, prompt);
    const epoch = Math.max(requestedEpoch(readStateMeta(db), sessionId), stampedEpoch(modelConfig));
    if (epoch > 0) {
      db.prepare('UPDATE sessions SET model_config = ? WHERE id = ?').run(JSON.stringify({ ...modelConfig, prompt_refresh_epoch: epoch }), sessionId);
    }
    return { epoch, prompt };
  });
}

/**
 * Hermes finishing `n` more messages of a session: appended to the live transcript, counters and
 * per-model usage raised, `last_activity_at` moved to `now` (epoch seconds). Returns the row ids.
 */
export function appendMessages(dbFile: string, sessionId: string, n: number, options: { now?: number; seed?: number } = {}): number[] {
  const rng = options.seed === undefined ? randomRng() : createRng(options.seed);
  const now = options.now ?? Date.now() / 1000;
  return hermesWrite(dbFile, (db, layout) => {
    const row = db
      .prepare('SELECT model, model_config, last_activity_at, started_at, billing_provider, billing_base_url, billing_mode, tool_names FROM sessions WHERE id = ?')
      .get(sessionId);
    if (!row) throw new Error(`no session ${sessionId} in ${dbFile}`);
    const modelConfig = readModelConfig(db, sessionId);
    const model = String(row.model ?? modelConfig.model ?? '');
    const provider = typeof modelConfig.provider === 'string' ? modelConfig.provider : ((row.billing_provider as string | null) ?? undefined);
    const from = Number(row.last_activity_at ?? row.started_at);
    const start = Math.min(now, from + 1);
    const stored = toStoredMessages(synthesizeMessages(rng, n), start, Math.max(start, now));
    const prior = Number(db.prepare('SELECT COALESCE(SUM(token_count), 0) AS t FROM messages WHERE session_id = ? AND active = 1').get(sessionId)?.t ?? 0);
    const prompt = storedPromptOf(db, layout, sessionId);
    const usage = usageFor(stored, {
      headTokens: toolSchemaTokensEstimate(parseToolNames(row.tool_names)) + (prompt ? estimateTokens(prompt) : 0),
      priorTranscriptTokens: prior,
      ...cachingOf(provider, model),
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

/**
 * Hermes starting a session in a profile: the row, a prompt built from today's files (unless the
 * spec says otherwise), messages and counters, stamped with the refresh epoch already requested.
 */
export function startSession(
  dbFile: string,
  profileDir: string,
  spec: SessionSpec,
  options: { config?: ProfileConfig; rng?: Rng } = {},
): string {
  const config = options.config ?? readProfileConfig(path.join(profileDir, 'config.yaml'));
  const rng = options.rng ?? randomRng();
  const withPrompt = spec.promptText === undefined && spec.promptFromCurrentFiles === undefined ? { ...spec, promptFromCurrentFiles: true } : spec;
  return hermesWrite(dbFile, (db, layout) => writeNewSession({ db, layout, profileDir, config, rng }, withPrompt).id);
}

function storedPromptOf(db: SqliteConnection, layout: SchemaLayout, sessionId: string): string | undefined {
  const sql =
    layout === 'v30'
      ? 'SELECT COALESCE(sp.prompt, s.system_prompt) AS prompt FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash WHERE s.id = ?'
      : 'SELECT system_prompt AS prompt FROM sessions WHERE id = ?';
  const text = db.prepare(sql).get(sessionId)?.prompt;
  return typeof text === 'string' && text !== '' ? text : undefined;
}

function randomRng(): Rng {
  return createRng(Math.floor(Math.random() * 2 ** 32));
}
