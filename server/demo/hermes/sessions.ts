// Creating one session the way Hermes does: the row, its stored prompt (built from the profile's
// files now, given as text, or none), its messages and the usage counters those messages imply.
// Runs inside the caller's BEGIN IMMEDIATE transaction.
import type { ProfileConfig } from '../../hermes/config';
import { parseModelConfig } from '../../hermes/store/codec';
import type { SqliteConnection } from '../../hermes/store/connection';
import { profileRequestedEpoch } from '../../hermes/refresh/epochs';
import type { RenderOptions } from '../../hermes/sources/renderSources';
import type { RenderedSources } from '../../hermes/sources/types';
import type { SchemaLayout } from './schema';
import type { Rng } from '../prng';
import { cachingOf, CLI_TOOLS, CRON_TOOLS, defaultProviderFor, GATEWAY_TOOLS, toolSchemaTokensEstimate } from '../providers';
import { isGatewaySource, newSessionId } from '../sessionIds';
import { buildSessionPrompt, activeProfileOf } from '../sessionPrompt';
import { addSessionUsage, insertMessages, insertSession, storePrompt } from './rows';
import { estimateTokens, synthesizeMessages, toStoredMessages, usageFor, type MessageSpec } from '../transcript';

export interface SessionSpec {
  readonly id?: string;
  readonly source: string;
  readonly model: string;
  /** Defaults from the model name (claude → anthropic, gpt → openai, …; unknown → custom). */
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly cwd?: string;
  readonly title?: string;
  readonly startedAt: number;
  /** Defaults to the last message's time, else `startedAt`. */
  readonly lastActivityAt?: number;
  readonly endedAt?: number;
  readonly endReason?: string;
  readonly parentSessionId?: string;
  /** Merged over `{model, provider, base_url}`; lineage markers and epoch stamps go here. */
  readonly modelConfig?: Readonly<Record<string, unknown>>;
  readonly billingMode?: string;
  readonly billingProvider?: string;
  /** A count of synthetic live messages, or an explicit list. */
  readonly messages?: number | readonly MessageSpec[];
  /** With a count: that many earlier messages folded away by in-place compaction (inactive). */
  readonly compactedMessages?: number;
  /** Leave every message's token_count NULL (a provider that reported no usage). */
  readonly uncountedTokens?: boolean;
  /** Render the profile's sources now and store the built prompt. */
  readonly promptFromCurrentFiles?: boolean;
  /** Store this exact text (ignored when promptFromCurrentFiles is set). Neither: no stored prompt. */
  readonly promptText?: string;
  /**
   * How the prompt is stored: `v30` out of line by hash, `v24` inline. Defaults to the database's
   * layout; `v24` in a v30 database is a row the v25 migration has not moved yet.
   */
  readonly layout?: SchemaLayout;
  readonly passSessionId?: boolean;
  readonly skillsIndexTier?: 'stable' | 'volatile';
  readonly toolNames?: readonly string[];
  readonly userId?: string;
  readonly chatId?: string;
  readonly renderOptions?: RenderOptions;
}

export interface SessionWriteContext {
  readonly db: SqliteConnection;
  readonly layout: SchemaLayout;
  readonly profileDir: string;
  readonly config: ProfileConfig;
  readonly rng: Rng;
}

export interface WrittenSession {
  readonly id: string;
  readonly prompt: string | undefined;
  /** The sources the prompt was rendered from (promptFromCurrentFiles only). */
  readonly sources: RenderedSources | undefined;
  readonly messageIds: readonly number[];
}

export function writeNewSession(ctx: SessionWriteContext, spec: SessionSpec): WrittenSession {
  const { db, rng } = ctx;
  const id = spec.id ?? newSessionId(spec.source, spec.startedAt, rng);
  const provider = spec.provider ?? defaultProviderFor(spec.model);
  const storage = spec.layout ?? ctx.layout;
  if (storage === 'v30' && ctx.layout === 'v24') throw new Error(`session ${id}: a v24 database cannot store prompts by hash`);

  const built = spec.promptFromCurrentFiles
    ? buildSessionPrompt({
        profileDir: ctx.profileDir,
        config: ctx.config,
        cwd: spec.cwd,
        sessionId: id,
        model: spec.model,
        provider,
        platform: spec.source,
        startedAt: spec.startedAt,
        passSessionId: spec.passSessionId,
        skillsIndexTier: spec.skillsIndexTier,
        renderOptions: spec.renderOptions,
      })
    : undefined;
  const prompt = built?.prompt ?? spec.promptText;

  const specs = typeof spec.messages === 'number' || spec.messages === undefined
    ? synthesizeMessages(rng, spec.messages ?? 0, { compacted: spec.compactedMessages })
    : spec.messages;
  const counted = spec.uncountedTokens ? specs.map((m) => ({ ...m, tokenCount: null })) : specs;
  const lastActivityAt = spec.lastActivityAt ?? spec.startedAt + Math.max(60, counted.length * 45);
  const stored = toStoredMessages(counted, spec.startedAt, lastActivityAt);

  const modelConfig: Record<string, unknown> = { model: spec.model, provider, ...(spec.baseUrl ? { base_url: spec.baseUrl } : {}), ...spec.modelConfig };
  // A prompt built from today's files satisfies whatever refresh is already requested (FACTS §5).
  const requested = profileRequestedEpoch(readStateMeta(db));
  if (spec.promptFromCurrentFiles && requested > 0 && modelConfig.prompt_refresh_epoch === undefined) {
    modelConfig.prompt_refresh_epoch = requested;
  }
  const toolNames = spec.toolNames ?? defaultTools(spec.source);
  const billingProvider = spec.billingProvider ?? provider;
  const profile = activeProfileOf(ctx.profileDir);

  insertSession(db, {
    id,
    source: spec.source,
    userId: spec.userId ?? (isGatewaySource(spec.source) ? `u${rng.hex(8)}` : undefined),
    chatId: spec.chatId,
    chatType: isGatewaySource(spec.source) ? 'dm' : undefined,
    model: spec.model,
    modelConfig,
    parentSessionId: spec.parentSessionId,
    startedAt: spec.startedAt,
    endedAt: spec.endedAt,
    endReason: spec.endReason,
    cwd: spec.cwd,
    billingProvider,
    billingBaseUrl: spec.baseUrl,
    billingMode: spec.billingMode,
    costStatus: spec.billingMode === 'subscription_included' ? 'included' : undefined,
    title: spec.title,
    lastActivityAt,
    profileName: profile.name,
    toolNames,
  });
  if (prompt !== undefined) storePrompt(db, storage, id, prompt);
  const messageIds = insertMessages(db, id, stored);
  const usage = usageFor(stored, {
    headTokens: toolSchemaTokensEstimate(toolNames) + (prompt ? estimateTokens(prompt) : 0),
    ...cachingOf(provider, spec.model),
  });
  addSessionUsage(
    db,
    { id, model: spec.model, billingProvider, billingBaseUrl: spec.baseUrl, billingMode: spec.billingMode },
    usage,
    { first: spec.startedAt, last: lastActivityAt },
  );
  return { id, prompt, sources: built?.sources, messageIds };
}

function defaultTools(source: string): string[] {
  if (source === 'cron') return CRON_TOOLS;
  return isGatewaySource(source) ? GATEWAY_TOOLS : CLI_TOOLS;
}

export function readStateMeta(db: SqliteConnection): Map<string, string> {
  const rows = db.prepare('SELECT key, value FROM state_meta').all();
  return new Map(rows.map((r) => [String(r.key), r.value == null ? '' : String(r.value)]));
}

/** `model_config` of a session, parsed as the lens parses it (invalid JSON counts as `{}`). */
export function readModelConfig(db: SqliteConnection, sessionId: string): Record<string, unknown> {
  return parseModelConfig(db.prepare('SELECT model_config FROM sessions WHERE id = ?').get(sessionId)?.model_config);
}
