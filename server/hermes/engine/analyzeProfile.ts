// One profile's report: every session's state, reasons and refresh cost. The work is done once per
// distinct stored prompt (and session cwd), not once per session: thousands of sessions share a
// few hundred prompts.
import { parsePrompt } from '../anatomy/parsePrompt';
import type { PromptAnatomy } from '../anatomy/types';
import { readProfileConfig, type ProfileConfig } from '../config';
import type { PriceOverrides } from '../cost/prices';
import { describeError } from '../errors';
import { profilePaths } from '../home';
import type { Profile, SessionRecord, TranscriptSize } from '../model';
import { profileRequestedEpoch, requestedEpoch } from '../refresh/epochs';
import { renderProfileSources, renderProjectContext } from '../sources/renderSources';
import type { RenderedSources } from '../sources/types';
import { StateStore } from '../store/stateStore';
import { AnalysisCache, type KeptRead, type PromptReader } from './analysisCache';
import { judgePrompt, type JudgedPrompt, type Judgement } from './judgement';
import { memo } from './memo';
import { sessionReport, type ReportContext, type ReusableReport } from './sessionReport';
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
    const prompts: PromptReader = {
      text: (key) => store.promptText(key) ?? '',
      parse: (text, model) => parsePrompt(text, { model, identityHint: sourcesFor(undefined).soul.block || undefined, callerSystemMessage: config.agentSystemPrompt }),
    };
    const sessionAnatomy = new Map<string, PromptAnatomy>();
    const sessions: SessionReport[] = [];
    const reportContext: ReportContext = { profileName: profile.name, everything, now, priceOverrides: options.priceOverrides, prices: new Map(), tools: new Map() };
    const judging: JudgingContext = { cache, sourcesFor };
    // Reports of sessions whose inputs did not change are kept (the language server's re-evaluations;
    // a compaction tip depends on every session, so not when ended sessions are reported).
    const previous = everything ? new Map<string, ReusableReport>() : cache.reports;
    const reports = new Map<string, ReusableReport>();
    for (const record of listed) {
      const anatomy = record.promptKey ? cache.anatomy(record.promptKey, record.model, prompts) : undefined;
      if (anatomy) sessionAnatomy.set(record.id, anatomy);
      const judged = anatomy && record.promptKey ? judge(judging, record, record.promptKey, anatomy) : NOT_JUDGED;
      const inputs = { record, config, anatomy, transcript: transcripts.get(record.id)!, judged, requestedEpoch: requestedEpoch(meta, record.id) };
      const reusable = sessionReport(reportContext, inputs, previous.get(record.id));
      reports.set(record.id, reusable);
      sessions.push(reusable.report);
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

/** What judging a session's stored prompt needs of the evaluation. */
interface JudgingContext {
  readonly cache: AnalysisCache;
  readonly sourcesFor: (cwd: string | undefined) => RenderedSources;
}

/** A session without a stored prompt: nothing to judge. */
const NOT_JUDGED: JudgedPrompt = { reasons: [], deltaTokens: 0 };

/**
 * Staleness and ΔS, once per distinct (stored prompt, cwd) and evaluation; after a change of the
 * sources, judged again from the last judgement for the parts that changed (engine/judgement.ts).
 */
function judge(ctx: JudgingContext, record: SessionRecord, promptKey: string, anatomy: PromptAnatomy): JudgedPrompt {
  const sources = ctx.sourcesFor(record.cwd);
  const byCwd = memo(ctx.cache.staleness, promptKey, () => new Map<string, Judgement>());
  const previous = byCwd.get(record.cwd ?? '');
  if (previous && previous.sources === sources && previous.stored === anatomy) return previous;
  const judged = judgePrompt(anatomy, sources, record.cwd, { skillMemo: ctx.cache.skillReasons, model: record.model }, previous);
  byCwd.set(record.cwd ?? '', judged);
  return judged;
}

/**
 * Live transcript sizes of the listed sessions: kept from the last evaluation while Hermes' counters
 * say the transcript is unchanged, the others read in one grouped query.
 */
function transcriptSizes(listed: readonly SessionRecord[], store: StateStore, cache: AnalysisCache): ReadonlyMap<string, TranscriptSize> {
  // The same list as last time (nothing was read again): the same sizes.
  if (cache.lastTranscripts?.listed === listed) return cache.lastTranscripts.sizes;
  const sizes = new Map<string, TranscriptSize>();
  const stale: Array<{ id: string; fingerprint: string }> = [];
  for (const record of listed) {
    const fingerprint = `${record.messageCount ?? ''}:${record.lastActivityAt ?? ''}:${record.endedAt ?? ''}`;
    const cached = cache.transcripts.get(record.id);
    if (cached && cached.fingerprint === fingerprint) sizes.set(record.id, cached.size);
    else stale.push({ id: record.id, fingerprint });
  }
  if (stale.length > 0) {
    const read = stale.length === 1 ? new Map([[stale[0]!.id, store.transcriptSize(stale[0]!.id)]]) : store.transcriptSizes(stale.map((s) => s.id));
    for (const { id, fingerprint } of stale) {
      const size = read.get(id)!;
      cache.transcripts.set(id, { fingerprint, size });
      sizes.set(id, size);
    }
  }
  cache.lastTranscripts = { listed, sizes };
  return sizes;
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
