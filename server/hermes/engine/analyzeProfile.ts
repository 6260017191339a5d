// One profile's report: every session's state, reasons and refresh cost. The work is done once per
// distinct stored prompt (and session cwd), not once per session: thousands of sessions share a
// few hundred prompts.
import { parsePrompt } from '../anatomy/parsePrompt';
import type { PromptAnatomy } from '../anatomy/types';
import { readProfileConfig, type ProfileConfig } from '../config';
import { lookupPrices, type PriceOverrides } from '../cost/prices';
import { estimateRefreshCost } from '../cost/refreshCost';
import { countTokensAfterEdit, estimateTokensFromChars, toolSchemaTokens } from '../cost/tokens';
import { cacheTtlSeconds } from '../cost/ttl';
import { describeError } from '../errors';
import { profilePaths } from '../home';
import type { Profile, SessionRecord, SessionState, StaleReason, TranscriptSize } from '../model';
import { compactionTip } from '../refresh/compactionTip';
import { profileRequestedEpoch, requestedEpoch, stampedEpoch } from '../refresh/epochs';
import { rebuildPromptEdit } from '../sources/promptBuilder';
import { renderProfileSources, renderProjectContext } from '../sources/renderSources';
import type { RenderedSources } from '../sources/types';
import { staleReasons } from '../staleness';
import { StateStore } from '../store/stateStore';
import { AnalysisCache, type JudgedPrompt, type KeptRead } from './analysisCache';
import { reusableReport, type ReportInputs, type ReusableReport } from './reportReuse';
import type { ProfileReport, SessionReport } from './types';

export interface AnalyzeOptions {
  /** Include ended sessions (the CLI's --all). */
  readonly includeEnded?: boolean;
  /** Epoch seconds; tests pass a fixed clock. */
  readonly now?: number;
  readonly priceOverrides?: PriceOverrides;
  /** Reused across re-evaluations by the language server. */
  readonly cache?: AnalysisCache;
  /**
   * Keep a read connection open in `cache` between evaluations (the language server): what Hermes
   * did not change since is not read again. Close it with `cache.closeConnection()`.
   */
  readonly keepConnection?: boolean;
  /**
   * With `keepConnection`: report the stored-prompt count of the last evaluation instead of counting
   * over every session now (the language server publishes first, then brings it up to date with
   * `cache.storedPromptCount()`). The first evaluation always counts.
   */
  readonly deferStoredPromptCount?: boolean;
}

/** Everything analyzeProfile learned, for features that need more than the report. */
export interface ProfileAnalysis {
  readonly profile: Profile;
  readonly config: ProfileConfig;
  readonly report: ProfileReport;
  /** The rendered sources of a session cwd (memoised). */
  sourcesFor(cwd: string | undefined): RenderedSources;
  /** The anatomy of a session's stored prompt, if it has one. */
  anatomyOf(sessionId: string): PromptAnatomy | undefined;
}

export function analyzeProfile(profile: Profile, options: AnalyzeOptions = {}): ProfileAnalysis {
  const paths = profilePaths(profile);
  const cache = options.cache ?? new AnalysisCache();
  cache.profileDir = profile.dir;
  const parts = cache.parts;
  const config = (parts.config ??= readProfileConfig(paths.config));
  const now = options.now ?? Date.now() / 1000;
  const problems = config.problem ? [config.problem] : [];
  // The profile's own files are read once; project context once per cwd (FACTS §4).
  const sourcesFor = (cwd: string | undefined) =>
    memo(cache.sources, cwd ?? '', () => {
      const own = renderProfileSources(profile, config, {}, parts);
      Object.assign(parts, own);
      const projectContext = memo(cache.projectContexts, cwd ?? '', () => renderProjectContext(config, cwd));
      return { soul: own.soul, skills: own.skills, projectContext, memory: own.memory, user: own.user };
    });
  const base = { name: profile.name, home: profile.dir, dbFile: paths.stateDb, isActive: profile.isActive };

  if (config.databaseBackend === 'postgres') {
    const unavailable = `${paths.config} sets database.backend: postgres, so this profile keeps its sessions in PostgreSQL, not state.db; the lens reads state.db only.`;
    return unavailableAnalysis(profile, config, { ...base, unavailable, problems }, sourcesFor);
  }
  const keep = options.keepConnection === true;
  let store: StateStore;
  try {
    store = keep ? cache.connection(paths.stateDb) : StateStore.openReadOnly(paths.stateDb);
  } catch (error) {
    if (keep) cache.closeConnection();
    return unavailableAnalysis(profile, config, { ...base, unavailable: describeError(error), problems }, sourcesFor);
  }
  try {
    // Ended sessions are read only when reported (compaction tips are needed for them alone); the
    // count of stored prompts over all sessions is then one aggregate query.
    const includeEnded = options.includeEnded ?? false;
    const db = keep ? readKept(store, cache, includeEnded, options.deferStoredPromptCount === true) : readOnce(store, includeEnded);
    const { listed, storedPromptSessions, meta } = db;
    const everything = includeEnded ? listed : undefined;
    const transcripts = transcriptSizes(listed, store, cache);
    const anatomyByKey = (key: string, model: string | undefined) =>
      cache.anatomy(
        key,
        () => store.promptText(key) ?? '',
        (text) => parsePrompt(text, { model, identityHint: sourcesFor(undefined).soul.block || undefined, callerSystemMessage: config.agentSystemPrompt }),
      );
    const sessionAnatomy = new Map<string, PromptAnatomy>();
    const sessions: SessionReport[] = [];
    const lookups: Lookups = { prices: new Map(), tools: new Map() };
    // Reports of sessions whose inputs did not change are kept (the language server's re-evaluations;
    // a compaction tip depends on every session, so not when ended sessions are reported).
    const previous = everything ? new Map<string, ReusableReport>() : cache.reports;
    const reports = new Map<string, ReusableReport>();
    for (const record of listed) {
      const anatomy = record.promptKey ? anatomyByKey(record.promptKey, record.model) : undefined;
      if (anatomy) sessionAnatomy.set(record.id, anatomy);
      const transcript = transcripts.get(record.id)!;
      const ctx: SessionContext = { profile, config, record, everything, meta, anatomy, transcript, cache, lookups, now, options, sourcesFor };
      const judged = anatomy && record.promptKey ? judge(ctx, record.promptKey, anatomy) : NOT_JUDGED;
      const inputs: ReportInputs = { record, config, anatomy, transcript, judged, requestedEpoch: requestedEpoch(meta, record.id) };
      const report = reusableReport(previous.get(record.id), inputs, now) ?? reportSession(ctx, inputs);
      reports.set(record.id, { inputs, report });
      sessions.push(report);
    }
    if (!everything) cache.reports = reports;
    return {
      profile,
      config,
      report: {
        ...base,
        unavailable: undefined,
        storedPromptSessions,
        requestedEpoch: profileRequestedEpoch(meta),
        sessions,
        problems: [...problems, ...sourceProblemsOf([sourcesFor(undefined), ...cwdsOf(sessions).map(sourcesFor)])],
        totals: totalsOf(sessions),
      },
      sourcesFor,
      anatomyOf: (id) => sessionAnatomy.get(id),
    };
  } catch (error) {
    if (keep) cache.closeConnection();
    throw error;
  } finally {
    if (!keep) store.close();
  }
}

interface DatabaseRead {
  readonly listed: readonly SessionRecord[];
  readonly storedPromptSessions: number;
  readonly meta: ReadonlyMap<string, string>;
}

function readOnce(store: StateStore, includeEnded: boolean): DatabaseRead {
  const listed = store.listSessions({ includeEnded });
  const storedPromptSessions = includeEnded ? listed.filter((s) => s.promptKey).length : store.countStoredPromptSessions();
  return { listed, storedPromptSessions, meta: store.stateMeta() };
}

/**
 * Through the kept connection: nothing is read when no other connection committed since the last
 * evaluation (`PRAGMA data_version`, e.g. after a save of SOUL.md), and after a Hermes write only the
 * session rows that changed are read again.
 */
function readKept(store: StateStore, cache: AnalysisCache, includeEnded: boolean, deferCount: boolean): DatabaseRead {
  const version = store.dataVersion();
  const last = cache.lastRead;
  const read = last && last.dataVersion === version && last.includeEnded === includeEnded ? last : readChangedSessions(store, cache, version, includeEnded);
  // The count is the cache's: a deferred one is brought up to date after the evaluation.
  const storedPromptSessions = includeEnded
    ? read.listed.filter((s) => s.promptKey).length
    : ((deferCount ? cache.lastStoredPromptCount() : undefined) ?? cache.storedPromptCount(store));
  return { ...read, storedPromptSessions };
}

function readChangedSessions(store: StateStore, cache: AnalysisCache, version: number, includeEnded: boolean): KeptRead {
  const last = cache.lastRead;
  const known = last && last.includeEnded === includeEnded ? last.stamped : new Map();
  const stamped = store.listSessionsSince(known, { includeEnded });
  const listed = stamped.map((s) => s.record);
  const read = { dataVersion: version, includeEnded, stamped: new Map(stamped.map((s) => [s.record.id, s])), listed, meta: store.stateMeta() };
  cache.lastRead = read;
  return read;
}

interface Lookups {
  readonly prices: Map<string, ReturnType<typeof lookupPrices> | null>;
  readonly tools: Map<string, number>;
}

interface SessionContext {
  readonly profile: Profile;
  readonly config: ProfileConfig;
  readonly record: SessionRecord;
  /** Every session, ended ones included (only when ended sessions are reported). */
  readonly everything: readonly SessionRecord[] | undefined;
  readonly meta: ReadonlyMap<string, string>;
  readonly anatomy: PromptAnatomy | undefined;
  readonly transcript: TranscriptSize;
  readonly cache: AnalysisCache;
  /** Per-evaluation lookups shared by sessions on the same model and tools (prices depend on the overrides). */
  readonly lookups: Lookups;
  readonly now: number;
  readonly options: AnalyzeOptions;
  readonly sourcesFor: (cwd: string | undefined) => RenderedSources;
}

/** A session without a stored prompt: nothing to judge. */
const NOT_JUDGED: JudgedPrompt = { reasons: [], deltaTokens: 0 };

function reportSession(ctx: SessionContext, inputs: ReportInputs): SessionReport {
  const { record, anatomy } = ctx;
  const { judged, requestedEpoch: requested } = inputs;
  const stamped = stampedEpoch(record.modelConfig);
  const provider = providerOf(record);
  const state = stateOf(record, anatomy, requested > stamped, judged.reasons);
  const tip = record.endedAt !== undefined && record.endReason === 'compression' && ctx.everything ? compactionTip(record, ctx.everything) : undefined;

  const transcript = ctx.transcript.recordedTokens + estimateTokensFromChars(ctx.transcript.uncountedChars);
  const tools = memo(ctx.lookups.tools, record.toolNames.join('\u0000'), () => toolSchemaTokens(record.toolNames));
  const systemPromptTokens = anatomy?.tokens ?? 0;
  const prefixTokens = systemPromptTokens + tools + transcript;
  const prices = memo(ctx.lookups.prices, `${record.model ?? ''}\u0000${provider ?? ''}`, () => lookupPrices(record.model, provider, ctx.options.priceOverrides) ?? null) ?? undefined;
  const ttlSeconds = cacheTtlSeconds(ctx.config.cacheTtl, record.source, prices);
  const cost = estimateRefreshCost({
    prefixTokens,
    systemPromptDeltaTokens: judged.deltaTokens,
    lastActivityAt: record.lastActivityAt,
    now: ctx.now,
    ttlSeconds,
    prices,
    billingMode: record.billingMode,
  });
  // A session that is current rebuilds byte-identical bytes: refreshing it costs nothing.
  const costs = state === 'fresh' ? { now: 0, cold: 0 } : { now: cost.extraUsd, cold: cost.coldUsd };
  return {
    profile: ctx.profile.name,
    id: record.id,
    title: record.title,
    source: record.source,
    model: record.model,
    provider,
    cwd: record.cwd,
    state,
    reasons: judged.reasons,
    tipSessionId: tip && tip.id !== record.id ? tip.id : undefined,
    startedAt: record.startedAt,
    lastActivityAt: record.lastActivityAt,
    endedAt: record.endedAt,
    requestedEpoch: requested,
    stampedEpoch: stamped,
    skillsTier: anatomy?.skillsIndex.tier,
    systemPromptTokens,
    toolTokens: tools,
    transcriptTokens: transcript,
    prefixTokens,
    tokensExact: anatomy?.tokensExact ?? false,
    deltaTokens: judged.deltaTokens,
    ttlSeconds,
    cacheWarm: cost.warm,
    cacheExpiresAt: cost.cacheExpiresAt,
    refreshCostUsd: prices || state === 'fresh' ? costs.now : undefined,
    refreshCostColdUsd: prices || state === 'fresh' ? costs.cold : undefined,
    apiEquivalent: cost.apiEquivalent,
    pricesKnown: prices !== undefined,
  };
}

function stateOf(record: SessionRecord, anatomy: PromptAnatomy | undefined, pending: boolean, reasons: readonly StaleReason[]): SessionState {
  if (record.endedAt !== undefined) return 'ended';
  if (!anatomy) return 'no-prompt';
  if (pending) return 'pending';
  return reasons.length > 0 ? 'stale' : 'fresh';
}

/** Staleness and ΔS, once per distinct (stored prompt, cwd). */
function judge(ctx: SessionContext, promptKey: string, anatomy: PromptAnatomy): JudgedPrompt {
  const key = `${promptKey}\u0000${ctx.record.cwd ?? ''}`;
  return memo(ctx.cache.staleness, key, () => {
    const sources = ctx.sourcesFor(ctx.record.cwd);
    const reasons = staleReasons(anatomy, sources, ctx.record.cwd, ctx.cache.skillReasons);
    if (reasons.length === 0) return { reasons, deltaTokens: 0 };
    // Only the blocks the rebuild replaced are counted again, not the whole prompt per save.
    const rebuilt = rebuildPromptEdit(anatomy.text, sources);
    const before = { tokens: anatomy.tokens, exact: anatomy.tokensExact };
    const after = countTokensAfterEdit(anatomy.text, before, rebuilt.text, rebuilt.kept, ctx.record.model);
    return { reasons, deltaTokens: after.tokens - anatomy.tokens };
  });
}

/**
 * Live transcript sizes of the listed sessions: kept from the last evaluation while Hermes' counters
 * say the transcript is unchanged, the others read in one grouped query.
 */
function transcriptSizes(listed: readonly SessionRecord[], store: StateStore, cache: AnalysisCache): Map<string, TranscriptSize> {
  const sizes = new Map<string, TranscriptSize>();
  const stale: Array<{ id: string; fingerprint: string }> = [];
  for (const record of listed) {
    const fingerprint = `${record.messageCount ?? ''}:${record.lastActivityAt ?? ''}:${record.endedAt ?? ''}`;
    const cached = cache.transcripts.get(record.id);
    if (cached && cached.fingerprint === fingerprint) sizes.set(record.id, cached.size);
    else stale.push({ id: record.id, fingerprint });
  }
  if (stale.length === 0) return sizes;
  const read = stale.length === 1 ? new Map([[stale[0]!.id, store.transcriptSize(stale[0]!.id)]]) : store.transcriptSizes(stale.map((s) => s.id));
  for (const { id, fingerprint } of stale) {
    const size = read.get(id)!;
    cache.transcripts.set(id, { fingerprint, size });
    sizes.set(id, size);
  }
  return sizes;
}

function providerOf(record: SessionRecord): string | undefined {
  const fromConfig = record.modelConfig.provider;
  return typeof fromConfig === 'string' && fromConfig ? fromConfig : record.billingProvider;
}

function totalsOf(sessions: readonly SessionReport[]): ProfileReport['totals'] {
  const stale = sessions.filter((s) => s.state === 'stale');
  return {
    sessions: sessions.length,
    stale: stale.length,
    pending: sessions.filter((s) => s.state === 'pending').length,
    fresh: sessions.filter((s) => s.state === 'fresh').length,
    staleRefreshCostUsd: stale.reduce((sum, s) => sum + (s.refreshCostUsd ?? 0), 0),
    unknownCost: stale.filter((s) => s.refreshCostUsd === undefined).length,
  };
}

/** Problems the user must fix in a file (shown by the CLI and the session list), each naming it. */
const REPORTED_PROBLEMS = new Set(['unreadable', 'binary', 'frontmatter-invalid', 'frontmatter-missing', 'truncated']);

function sourceProblemsOf(rendered: readonly RenderedSources[]): string[] {
  const out = new Set<string>();
  for (const sources of rendered) {
    const all = [...sources.soul.problems, ...sources.skills.problems, ...sources.memory.problems, ...sources.user.problems, ...sources.projectContext.problems];
    for (const p of all) if (REPORTED_PROBLEMS.has(p.code)) out.add(p.message.includes(p.file) ? p.message : `${p.file}: ${p.message}`);
  }
  return [...out];
}

function cwdsOf(sessions: readonly SessionReport[]): string[] {
  return [...new Set(sessions.filter((s) => s.cwd && s.state !== 'ended').map((s) => s.cwd!))];
}

function unavailableAnalysis(
  profile: Profile,
  config: ProfileConfig,
  report: Omit<ProfileReport, 'storedPromptSessions' | 'requestedEpoch' | 'sessions' | 'totals'>,
  sourcesFor: (cwd: string | undefined) => RenderedSources,
): ProfileAnalysis {
  return {
    profile,
    config,
    report: { ...report, storedPromptSessions: 0, requestedEpoch: 0, sessions: [], totals: totalsOf([]) },
    sourcesFor,
    anatomyOf: () => undefined,
  };
}

function memo<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  map.set(key, value);
  return value;
}
