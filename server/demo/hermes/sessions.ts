// Starting one session the way Hermes does: the row, its stored prompt (built from the profile's
// files now, given as text, or none), its messages and the usage counters those messages imply.
// `prepareSession` decides all of it without the database, as Hermes builds a prompt before it
// stores it; `writePreparedSession` writes it inside the caller's BEGIN IMMEDIATE transaction.
import type { ProfileConfig } from '../../hermes/profile/config';
import type { SqliteConnection } from '../../hermes/store/connection';
import { profileRequestedEpoch } from '../../hermes/refresh/epochs';
import type { RenderOptions } from '../../hermes/sources/renderSources';
import type { RenderedSources } from '../../hermes/sources/types';
import type { SchemaLayout } from './schema';
import type { Rng } from '../prng';
import { cachingOf, CLI_TOOLS, CRON_TOOLS, defaultProviderFor, GATEWAY_TOOLS, toolSchemaTokensEstimate } from '../providers';
import { isGatewaySource, newSessionId } from '../sessionIds';
import { buildSessionPrompt, activeProfileOf } from '../sessionPrompt';
import { addSessionUsage, insertMessages, insertSession, readStateMeta, storePrompt, type SessionRowInput } from './rows';
import { estimateTokens, synthesizeMessages, toStoredMessages, usageFor, type MessageSpec, type StoredMessage, type UsageCounters } from '../transcript';

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

/** What a session's start is decided from: the profile it runs in and the database's layout. */
export interface SessionInputs {
  readonly layout: SchemaLayout;
  readonly profileDir: string;
  readonly config: ProfileConfig;
  readonly rng: Rng;
}

export interface SessionWriteContext extends SessionInputs {
  readonly db: SqliteConnection;
}

export interface WrittenSession {
  readonly id: string;
  readonly prompt: string | undefined;
  /** The sources the prompt was rendered from (promptFromCurrentFiles only). */
  readonly sources: RenderedSources | undefined;
  readonly messageIds: readonly number[];
}

/** A session decided and not written yet. */
export interface PreparedSession {
  readonly id: string;
  readonly prompt: string | undefined;
  readonly sources: RenderedSources | undefined;
  /** Where the prompt goes: `v30` by hash, `v24` inline. */
  readonly storage: SchemaLayout;
  /** Built from today's files: it satisfies a refresh already requested. */
  readonly current: boolean;
  readonly row: SessionRowInput;
  readonly messages: readonly StoredMessage[];
  readonly usage: UsageCounters;
}

export function prepareSession(inputs: SessionInputs, spec: SessionSpec): PreparedSession {
  const { rng } = inputs;
  const id = spec.id ?? newSessionId(spec.source, spec.startedAt, rng);
  const provider = spec.provider ?? defaultProviderFor(spec.model);
  const storage = spec.layout ?? inputs.layout;
  if (storage === 'v30' && inputs.layout === 'v24') throw new Error(`session ${id}: a v24 database cannot store prompts by hash`);

  const built = spec.promptFromCurrentFiles
    ? buildSessionPrompt({
        profileDir: inputs.profileDir,
        config: inputs.config,
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
  const messages = toStoredMessages(counted, spec.startedAt, lastActivityAt);
  const toolNames = spec.toolNames ?? defaultTools(spec.source);
  const row: SessionRowInput = {
    id,
    source: spec.source,
    userId: spec.userId ?? (isGatewaySource(spec.source) ? `u${rng.hex(8)}` : undefined),
    chatId: spec.chatId,
    chatType: isGatewaySource(spec.source) ? 'dm' : undefined,
    model: spec.model,
    modelConfig: { model: spec.model, provider, ...(spec.baseUrl ? { base_url: spec.baseUrl } : {}), ...spec.modelConfig },
    parentSessionId: spec.parentSessionId,
    startedAt: spec.startedAt,
    endedAt: spec.endedAt,
    endReason: spec.endReason,
    cwd: spec.cwd,
    billingProvider: spec.billingProvider ?? provider,
    billingBaseUrl: spec.baseUrl,
    billingMode: spec.billingMode,
    costStatus: spec.billingMode === 'subscription_included' ? 'included' : undefined,
    title: spec.title,
    lastActivityAt,
    profileName: activeProfileOf(inputs.profileDir).name,
    toolNames,
  };
  const usage = usageFor(messages, {
    headTokens: toolSchemaTokensEstimate(toolNames) + (prompt ? estimateTokens(prompt) : 0),
    ...cachingOf(provider, spec.model),
  });
  return { id, prompt, sources: built?.sources, storage, current: spec.promptFromCurrentFiles === true, row, messages, usage };
}

/** Writes a prepared session; runs inside the caller's BEGIN IMMEDIATE transaction. */
export function writePreparedSession(db: SqliteConnection, session: PreparedSession): WrittenSession {
  const { id, row } = session;
  const modelConfig: Record<string, unknown> = { ...row.modelConfig };
  // A prompt built from today's files satisfies whatever refresh is already requested.
  const requested = profileRequestedEpoch(readStateMeta(db));
  if (session.current && requested > 0 && modelConfig.prompt_refresh_epoch === undefined) {
    modelConfig.prompt_refresh_epoch = requested;
  }
  insertSession(db, { ...row, modelConfig });
  if (session.prompt !== undefined) storePrompt(db, session.storage, id, session.prompt);
  const messageIds = insertMessages(db, id, session.messages);
  addSessionUsage(
    db,
    { id, model: row.model, billingProvider: row.billingProvider, billingBaseUrl: row.billingBaseUrl, billingMode: row.billingMode },
    session.usage,
    { first: row.startedAt, last: row.lastActivityAt },
  );
  return { id, prompt: session.prompt, sources: session.sources, messageIds };
}

/** Prepares and writes a session in one go, inside the caller's transaction (batches of many sessions). */
export function writeNewSession(ctx: SessionWriteContext, spec: SessionSpec): WrittenSession {
  return writePreparedSession(ctx.db, prepareSession(ctx, spec));
}

function defaultTools(source: string): string[] {
  if (source === 'cron') return CRON_TOOLS;
  return isGatewaySource(source) ? GATEWAY_TOOLS : CLI_TOOLS;
}
