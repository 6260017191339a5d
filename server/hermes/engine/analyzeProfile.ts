// One profile's report: every session's state, reasons and refresh cost. The work is done once per
// distinct stored prompt (and session cwd), not once per session: thousands of sessions share a
// few hundred prompts.
import path = require('node:path');
import { parsePrompt } from '../anatomy/parsePrompt';
import type { PromptAnatomy } from '../anatomy/types';
import { readProfileConfig, type ProfileConfig } from '../profile/config';
import type { PriceOverrides } from '../cost/prices';
import { describeError } from '../errors';
import { diskFs } from '../fs/diskFs';
import type { SourceFs } from '../fs/sourceFs';
import { profilePaths } from '../profile/home';
import type { Profile, SessionRecord } from '../model';
import { DEFAULT_REFRESH_KEYS, profileRequestedEpoch, stampedEpoch, type RefreshKeys } from '../refresh/epochs';
import type { AdoptionWatch, PredictedCost } from '../refresh/adoption';
import { countsOf, type AdoptionLedger } from '../refresh/adoptionLedger';
import { renderMemoryFile, renderProfileSources, renderProjectContext } from '../sources/renderSources';
import { readSoul } from '../sources/soul';
import { readSkillsIndex, skillsPlatformOf, withProjectSkills } from '../sources/skills';
import { projectSkillDirs } from '../sources/projectSkillDirs';
import type { MemorySource, RenderedSources, SkillsIndex, SoulSource, SourceProblem } from '../sources/types';
import type { StateStore } from '../store/stateStore';
import { AnalysisCache, type PromptReader, type ReadPrompt } from './analysisCache';
import { judgePrompt, rebuiltBlocks, type JudgedPrompt, type Judgement } from './judgement';
import { identityOpenings } from '../anatomy/identityOpenings';
import { keptEntriesOf, REJUDGED_PARTS, type KeptParts, type RejudgedSources } from './partsRejudge';
import { rejudgeKept, type JudgedBlocks, type RejudgeInputs } from './keptRejudge';
import { firstBlockAfterIdentity } from './staleness';
import { sourcesKey } from './sourcesKey';
import { memo } from '../memo';
import { NearPosition } from './nearPosition';
import { memoryPartDigest, soulPartDigest, sourcesDigest } from './judgingDigest';
import type { ApartPart } from './keptReads';
import { transcriptFingerprint } from './persistedAnalyses';
import { factsOf, type PromptFacts, type PromptVerdict } from './promptFacts';
import { oneShot, type SessionSource, type SessionsRead } from './sessionSource';
import { memoryVerdicts, type VerdictStore } from './verdictStore';
import { sessionReport, stillGood, type ReportContext, type ReportInputs, type ReusableReport } from './sessionReport';
import type { Writable } from '../writable';
import type { ProfileReport, SessionReport } from './types';

export interface AnalyzeOptions {
  /** Include ended sessions (the CLI's --all). */
  readonly includeEnded?: boolean;
  /** Epoch seconds; tests pass a fixed clock. */
  readonly now?: number;
  readonly priceOverrides?: PriceOverrides;
  /** Reused across re-evaluations by the language server. */
  readonly cache?: AnalysisCache;
  /** How the sessions are read: once (the default, `oneShot`) or through a KeptConnection's `reading`. */
  readonly sessions?: SessionSource;
  /**
   * Where verdicts, transcript sizes and source digests are kept between runs: in memory (the
   * default) or on disk (`diskVerdicts`, for `hermes-lens status`). Sessions judged from the disk have
   * no anatomy in memory (anatomyOf answers undefined for them), so callers that show prompts keep
   * the default.
   */
  readonly verdicts?: VerdictStore;
  /**
   * Whether the Hermes build serving the home adopts refresh requests (install/hermesBuild.ts);
   * default true. Where it does not, a requested refresh leaves a session stale or fresh, never
   * pending, and the report says the request cannot be adopted.
   */
  readonly adoptsRefreshRequests?: boolean;
  /** The refresh protocol's names (refresh/refreshProtocol.ts); this project's reading by default. */
  readonly refreshKeys?: RefreshKeys;
  /**
   * The watches of this profile's refresh requests, brought up to date with what is read
   * (refresh/adoptionLedger.ts); none watched without it.
   */
  readonly adoption?: AdoptionLedger;
  /**
   * The pyproject version of the installed Hermes build serving the home, when one was found: its
   * tool-schema sizes price the sessions whose prompt's build the lens cannot tell (toolTableFor).
   */
  readonly hermesVersion?: string;
  /** What the profile's sources are read through; the disk by default (tests give a MemoryFs). */
  readonly fs?: SourceFs;
  /** The environment config.yaml's paths are expanded from (`~`, `$VAR`, the user's HOME); the process's by default. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Everything analyzeProfile learned, for features that need more than the report. */
export interface ProfileAnalysis {
  readonly profile: Profile;
  readonly config: ProfileConfig;
  readonly report: ProfileReport;
  /** What the sources were read through: features that read them again (a file's lines, an unsaved buffer laid over them) read the same. */
  readonly fs: SourceFs;
  /** The working directories of the live sessions (where their project context is looked up). */
  readonly cwds: readonly string[];
  /**
   * Sessions whose report this evaluation made or changed. Reports kept between evaluations are
   * updated in place (sessionReport.ts), so with the same session objects in the same order, 0
   * means the report says what the last one said.
   */
  readonly changedSessions: number;
  /** The rendered sources of a session cwd, for a session of `source` (memoised; the CLI's without). */
  sourcesFor(cwd: string | undefined, source?: string): RenderedSources;
  /** The anatomy of a session's stored prompt, if it has one. */
  anatomyOf(sessionId: string): PromptAnatomy | undefined;
  /** What a listed session's report was made from: its row, its stored prompt's facts and identity (prefix families read these, not the prompt). */
  inputsOf(sessionId: string): SessionInputs | undefined;
}

/** A listed session's row, the facts of its stored prompt (none: it holds none) and that prompt's identity (AnalysisCache.knownIdentity). */
export interface SessionInputs {
  readonly record: SessionRecord;
  readonly prompt: PromptFacts | undefined;
  readonly identity: string | undefined;
}

export function analyzeProfile(profile: Profile, options: AnalyzeOptions = {}): ProfileAnalysis {
  const paths = profilePaths(profile);
  const cache = options.cache ?? new AnalysisCache();
  cache.profileDir = profile.dir;
  const parts = cache.parts;
  const includeEnded = options.includeEnded ?? false;
  const source = options.sessions ?? oneShot;
  const verdicts = options.verdicts ?? memoryVerdicts;
  const fs = options.fs ?? diskFs;
  const env = options.env ?? process.env;
  const rendering = <T>(render: (fs: SourceFs) => T): T => verdicts.render(fs, render);
  const config = (parts.config ??= verdicts.readConfig(fs, (through) => readProfileConfig(paths.config, through)));
  const now = options.now ?? Date.now() / 1000;
  const problems = config.problem ? [config.problem] : [];
  // The profile's own files are read once; project context once per cwd (docs/HERMES-FORMATS.md §3).
  // SOUL.md and the memory files are read each on its own (verdicts.renderPart): after edits of
  // these alone, nothing else is.
  const soul = () => (parts.soul ??= verdicts.renderPart('soul', fs, (through) => readSoul(through, profile.dir, config)));
  const memory = () => (parts.memory ??= verdicts.renderPart('memory', fs, (through) => renderMemoryFile(profile, 'memory', through)));
  const user = () => (parts.user ??= verdicts.renderPart('user', fs, (through) => renderMemoryFile(profile, 'user', through)));
  const apart = { soul, memory, user };
  // A session in a project Hermes trusts lists the project's skills first (projectSkillDirs.ts):
  // one index per set of the project's folders and platform, shared by the project's cwds.
  const withProject = (index: SkillsIndex, cwd: string | undefined, platform?: string): SkillsIndex => {
    if (!cwd || config.trustedProjectDirs.length === 0) return index;
    const dirs = memo(cache.projectSkillDirs, cwd, () => rendering((fs) => projectSkillDirs(fs, config, cwd, profile.dir, env)));
    if (dirs.length === 0) return index;
    return memo(cache.projectIndexes, `${platform ?? ''}\u0000${dirs.join('\u0000')}`, () => rendering((fs) => withProjectSkills(fs, index, dirs)));
  };
  const forCwd = (cwd: string | undefined) =>
    memo(cache.sources, cwd ?? '', () => {
      soul();
      memory();
      user();
      const own = rendering((fs) => renderProfileSources(profile, config, { fs, env }, parts));
      Object.assign(parts, own);
      const projectContext = memo(cache.projectContexts, cwd ?? '', () => rendering((fs) => renderProjectContext(config, cwd, { fs })));
      return { soul: own.soul, skills: withProject(own.skills, cwd), projectContext, memory: own.memory, user: own.user };
    });
  // A session on a platform with a skills.platform_disabled list gets its own skills index, made
  // from (and dropped with) the cwd's sources; every other session shares the cwd's.
  const sourcesFor = (cwd: string | undefined, source?: string): RenderedSources => {
    const sources = forCwd(cwd);
    const platform = skillsPlatformOf(config, source);
    if (platform === undefined) return sources;
    let byPlatform = platformSources.get(sources);
    if (!byPlatform) platformSources.set(sources, (byPlatform = new Map()));
    return memo(byPlatform, platform, () => ({ ...sources, skills: withProject(rendering((fs) => readSkillsIndex(fs, path.join(profile.dir, 'skills'), config, undefined, platform, env)), cwd, platform) }));
  };
  const base = { name: profile.name, home: profile.dir, dbFile: paths.stateDb, isActive: profile.isActive };

  if (config.databaseBackend === 'postgres') {
    const unavailable = `${paths.config} sets database.backend: postgres, so this profile keeps its sessions in PostgreSQL, not state.db; the lens reads state.db only.`;
    return unavailableAnalysis(profile, config, fs, { ...base, unavailable, problems }, sourcesFor);
  }
  verdicts.opening(paths.stateDb);
  let store: StateStore;
  try {
    store = source.open(paths.stateDb);
  } catch (error) {
    source.failed();
    return unavailableAnalysis(profile, config, fs, { ...base, unavailable: describeError(error), problems }, sourcesFor);
  }
  try {
    // Ended sessions are read only when reported (compaction tips are needed for them alone).
    const read = source.read(store, includeEnded, cache, verdicts);
    const { listed, storedPromptSessions, meta } = read;
    // After a commit: inline prompts still holding the text they were parsed from are settled at once.
    if (cache.mustRecheckAny()) cache.recheckInline(store, listed);
    // A status: inline prompts still holding the text an earlier run found are settled the same way.
    if (verdicts.keepsInlineIdentities) cache.settleKeptInline(store, listed, (id) => verdicts.inlineIdentity(id));
    const everything = includeEnded ? listed : undefined;
    // The same list of sessions as the last evaluation (nothing in the database changed: a save of
    // an instruction file): every transcript size is known.
    const sameList = !everything && cache.lastReports?.listed === listed;
    if (!sameList) readTranscriptSizes(listed, store, cache, verdicts);
    const inlineAsBytes = source.inlineAsBytes;
    const prompts: PromptReader = {
      text: (key) => store.promptText(key) ?? '',
      // As the session source says (SessionSource.inlineAsBytes).
      inlineBytes: (key) => (inlineAsBytes ? store.inlinePromptBytes(key) : undefined),
      // An earlier run's count of the same text spares counting it again (after an edit of a source).
      parse: (text, identity) => parsePrompt(text, { identityHint: sourcesFor(undefined).soul.block || undefined, callerSystemMessage: config.agentSystemPrompt, tokens: verdicts.promptTokens(identity) }),
    };
    // A prompt whose anatomy the cache let go is parsed again through a store kept open (for a view).
    cache.promptsLater = source.keepsStore ? prompts : undefined;
    // Verdicts keep what judging them again without the prompt needs, but with a caller's message (keptPartsOf).
    cache.bounded = !config.agentSystemPrompt;
    const keys = options.refreshKeys ?? DEFAULT_REFRESH_KEYS;
    const world = cache.world(config, meta, options.priceOverrides, options.adoptsRefreshRequests ?? true, keys, options.hermesVersion);
    const ledger = options.adoption;
    const promptOf = (record: SessionRecord) => promptIdentityOf(cache, record, prompts);
    ledger?.reconcile({ recordOf: recordLookup(read), full: !read.partial, promptOf, keys, now });
    // Each session's last report, kept by the cache and updated in place: after a Hermes write to one
    // session only that entry changes. A compaction tip depends on every session, so when ended
    // sessions are reported nothing is kept.
    const reports = everything ? new Map<string, ReusableReport>() : cache.reports;
    const judging = judgingContext({ cache, config, sourcesFor, apart, apartSources: apartSourcesOf(apart), blocksJudged: new WeakMap(), store: verdicts });
    const pass = new SessionPass(
      listed,
      everything ? undefined : cache.lastReports,
      reports,
      { world, profileName: profile.name, everything, now, priceOverrides: options.priceOverrides, prices: new Map(), toolTables: new Map(), tools: new Map() },
      judging,
      prompts,
      cache.mustRecheckAny(),
      referenceProse(listed, judging, prompts),
      ledger,
    );
    for (let i = 0; i < listed.length; i++) pass.report(i);
    const { sessions, inOrder } = pass;
    let cwdsMoved = pass.cwdsMoved;
    const changedSessions = pass.changedSessions;
    if (!everything) cache.lastReports = { listed, reports: inOrder };
    // For the next status: the text each inline copy held (settleKeptInline, above).
    if (verdicts.keepsInlineIdentities) {
      for (const [identity, ids] of cache.knownInlineIdentities(listed)) for (const id of ids) verdicts.keepInlineIdentity(id, identity);
    }
    if (reports.size > listed.length) {
      forgetUnlisted(reports, listed, cache);
      verdicts.keepOnly?.(identitiesOf(listed, cache));
      cwdsMoved = true;
    }
    // The same sessions' cwds as last time (a Hermes write to a session): the same list. Sources
    // whose digests all came from disk had nothing to report when they were kept; the same sources
    // for the same cwds have the problems they had.
    const same = everything || cwdsMoved ? undefined : cache.lastCwds;
    const cwds = same?.cwds ?? cwdsOf(sessions);
    let sourceProblems: readonly string[];
    if (verdicts.rendered === 'none') sourceProblems = [];
    else if (verdicts.rendered !== 'all') sourceProblems = sourceProblemsOf(verdicts.rendered.map((part) => apart[part]().problems));
    else if (same?.world === world) sourceProblems = same.problems;
    else {
      // A plain loop, not `[a, ...cwds.map(f)]`: that spread deoptimized this function on every
      // save (a map check on the array), so each next save began its pass over the sessions unoptimized.
      const rendered = [sourcesFor(undefined)];
      for (const cwd of cwds) rendered.push(sourcesFor(cwd));
      sourceProblems = sourceProblemsOf(problemListsOf(rendered));
    }
    if (!everything) cache.lastCwds = { world, cwds, problems: sourceProblems };
    verdicts.save(sourceProblems.length > 0);
    return {
      profile,
      config,
      fs,
      report: {
        ...base,
        unavailable: undefined,
        storedPromptSessions,
        requestedEpoch: profileRequestedEpoch(meta, keys),
        adoption: ledger ? ledger.counts() : countsOf([]),
        sessions,
        problems: [...problems, ...sourceProblems],
        totals: totalsOf(sessions),
      },
      cwds,
      changedSessions,
      sourcesFor,
      anatomyOf: (id) => cache.anatomyOfKey(reports.get(id)?.inputs.record.promptKey),
      inputsOf: (id) => inputsOfReport(reports.get(id), cache),
    };
  } catch (error) {
    source.failed();
    throw error;
  } finally {
    source.done(store);
  }
}

/** What judging a session's stored prompt needs of the evaluation. */
interface JudgingContext {
  readonly cache: AnalysisCache;
  readonly config: ProfileConfig;
  readonly sourcesFor: (cwd: string | undefined, source?: string) => RenderedSources;
  /** SOUL.md and the memory files as rendered today, each read alone when nothing else is needed (after edits of these alone). */
  readonly apart: ApartSources;
  /** The same, as the parts partsRejudge.ts reads (each rendered when first read). */
  readonly apartSources: RejudgedSources;
  /** Stored skills indexes and project blocks judged this evaluation (keptRejudge.ts). */
  readonly blocksJudged: JudgedBlocks;
  /** Where verdicts are kept between runs (by judgingDigest per session cwd, when it keeps them so). */
  readonly store: VerdictStore;
  /** This evaluation's verdicts by prompt identity (AnalysisCache.knownIdentity), then cwd. */
  readonly verdicts: EvaluationVerdicts;
  /** This evaluation's judging digest per sourcesKey: the same for every prompt of a cwd (VerdictStore.digest). */
  readonly digests: Map<string, string>;
  /** The digest of one part kept apart (partDigestOf), made once per evaluation. */
  readonly partDigest: (part: ApartPart) => string;
  /** What rejudgeKept asks, one object per evaluation pointed at the prompt being judged (rejudgeKept keeps none of it). */
  readonly rejudge: RejudgeAsk;
}

/**
 * One evaluation's pass over the listed sessions, one `report(i)` per session. A method of its own
 * rather than a loop in analyzeProfile: V8 optimizes a function after enough runs of its bytecode,
 * more of them the larger it is, and analyzeProfile runs once per evaluation and is large, so a loop
 * in it ran unoptimized through the first ten saves or so; this small method, run 2,000 times in the
 * first evaluation, is optimized within it.
 */
class SessionPass {
  /** The reports in the order listed. Both lists are made at their final length (no growing copies). */
  readonly sessions: SessionReport[];
  readonly inOrder: ReusableReport[];
  /** Whether the set of session cwds may differ from the last evaluation's (their sources' problems are reported). */
  cwdsMoved = false;
  /** Sessions whose report this pass made or changed. */
  changedSessions = 0;
  /** Finds each session in the last evaluation's list (lastOf). */
  private readonly near: NearPosition | undefined;
  // One inputs object for every session: sessionReport copies what it keeps.
  private readonly inputs: Writable<ReportInputs>;

  constructor(
    private readonly listed: readonly SessionRecord[],
    /** The last evaluation's sessions and their reports, in its order (none when ended sessions are reported). */
    private readonly previous: AnalysisCache['lastReports'],
    private readonly reports: Map<string, ReusableReport>,
    private readonly context: ReportContext,
    private readonly judging: JudgingContext,
    private readonly prompts: PromptReader,
    private readonly recheckInline: boolean,
    referenceProse: string | undefined,
    private readonly ledger: AdoptionLedger | undefined,
  ) {
    this.sessions = new Array<SessionReport>(listed.length);
    this.inOrder = new Array<ReusableReport>(listed.length);
    this.inputs = {
      record: undefined!,
      config: judging.config,
      prompt: undefined,
      transcript: undefined!,
      judged: NOT_JUDGED,
      requestedEpoch: 0,
      adoptsRequests: context.world.adoptsRequests,
      adoption: undefined,
      installedVersion: context.world.installedVersion,
      referenceProse,
    };
    this.near = previous && new NearPosition(previous.listed);
  }

  report(i: number): void {
    const record = this.listed[i]!;
    const world = this.context.world;
    const last = this.lastOf(i, record.id);
    const moved = this.ledger?.moved;
    if (
      stillGood(last, world, record, this.inputs.referenceProse, this.context.now) &&
      !(this.recheckInline && this.judging.cache.mustRecheck(record.promptKey)) &&
      !(moved?.size && moved.has(record.id))
    ) {
      this.sessions[i] = last.report;
      this.inOrder[i] = last;
      return;
    }
    if (last?.inputs.record.cwd !== record.cwd) this.cwdsMoved = true;
    const verdict = record.promptKey ? promptVerdict(this.judging, record, record.promptKey, this.prompts) : NO_PROMPT;
    const inputs = this.inputs;
    inputs.record = record;
    inputs.prompt = verdict.prompt;
    // A transcript size is kept for as long as its session's row is the same (readTranscriptSizes).
    inputs.transcript = last?.inputs.record === record ? last.inputs.transcript : this.judging.cache.transcripts.get(record.id)!.size;
    inputs.judged = verdict.judged;
    // The same refresh requests as when the last report was made: the same epoch (a lookup by id saved per session).
    inputs.requestedEpoch = last !== undefined && last.world.epochs === world.epochs ? last.inputs.requestedEpoch : world.requestedEpoch(record.id);
    inputs.adoption = this.adoptionOf(record, last);
    const revision = last?.revision;
    const reusable = sessionReport(this.context, inputs, last);
    if (reusable !== last) this.reports.set(record.id, reusable);
    if (reusable.revision !== revision) this.changedSessions += 1;
    this.sessions[i] = reusable.report;
    this.inOrder[i] = reusable;
  }

  /**
   * The watch of the session's latest request: a new one for a request that leaves it pending and
   * has none yet (recorded elsewhere, or seen for the first time), from its row as read now and,
   * as the cost predicted, its report before (the verdict there was the lens's estimate).
   */
  private adoptionOf(record: SessionRecord, last: ReusableReport | undefined): AdoptionWatch | undefined {
    const ledger = this.ledger;
    if (!ledger) return undefined;
    const watch = ledger.of(record.id);
    const { world, now } = this.context;
    const requested = this.inputs.requestedEpoch;
    if (requested === 0 || !world.adoptsRequests || !record.promptKey || record.endedAt !== undefined || (watch && watch.epoch >= requested)) return watch;
    if (requested <= stampedEpoch(record.modelConfig, world.keys)) return watch;
    return ledger.watchPending(record, requested, world.keys, this.judging.cache.knownIdentity(record.promptKey), now, last ? predictedOf(last.report) : null);
  }

  /**
   * The kept report of the session `id`, listed at `i` now: by its place in the last evaluation's
   * list (the same list after a save, nearly the same after a Hermes write), else by id.
   */
  private lastOf(i: number, id: string): ReusableReport | undefined {
    const at = this.near ? this.near.indexOf(id, i) : -1;
    return at >= 0 ? this.previous!.reports[at] : this.reports.get(id);
  }
}

/** What a report said refreshing the session would cost, as a watch keeps it. */
export function predictedOf(report: SessionReport): PredictedCost {
  return { costUsd: report.refreshCostUsd ?? null, prefixTokens: report.prefixTokens, cacheWarm: report.cacheWarm };
}

/** The identity of a session's stored prompt (AnalysisCache.knownIdentity), read for an inline one not known yet. */
function promptIdentityOf(cache: AnalysisCache, record: SessionRecord, prompts: PromptReader): string | undefined {
  if (!record.promptKey) return undefined;
  return cache.knownIdentity(record.promptKey) ?? cache.readIdentity(record.promptKey, prompts).identity;
}

/** A lookup of the sessions read by id: the session source's own, else one made on the first look. */
function recordLookup(read: SessionsRead): (id: string) => SessionRecord | undefined {
  if (read.recordOf) return read.recordOf;
  let byId: Map<string, SessionRecord> | undefined;
  return (id) => (byId ??= new Map(read.listed.map((r) => [r.id, r]))).get(id);
}

/**
 * The prose fingerprint of the prompt of the newest live session holding one: the Hermes build now
 * in use most likely wrote it, and sessions whose prose differs were built by another.
 */
function referenceProse(listed: readonly SessionRecord[], ctx: JudgingContext, prompts: PromptReader): string | undefined {
  let newest: SessionRecord | undefined;
  for (const record of listed) {
    if (!record.promptKey || record.endedAt !== undefined) continue;
    if (!newest || (record.startedAt ?? 0) > (newest.startedAt ?? 0)) newest = record;
  }
  return newest && promptVerdict(ctx, newest, newest.promptKey!, prompts).prompt.prose;
}

/** An empty map by session cwd, for memo (a function made once, not a closure per session). */
function newMap<V>(): Map<string, V> {
  return new Map();
}

/**
 * One evaluation's verdicts by prompt identity, then cwd. Most prompts are held in one cwd only: a
 * map per prompt and evaluation was a thousand maps made and dropped per save of SOUL.md.
 */
class EvaluationVerdicts {
  private readonly byIdentity = new Map<string, { readonly cwd: string; readonly verdict: PromptVerdict; others?: Map<string, PromptVerdict> }>();

  get(identity: string, cwd: string): PromptVerdict | undefined {
    const entry = this.byIdentity.get(identity);
    if (!entry) return undefined;
    return entry.cwd === cwd ? entry.verdict : entry.others?.get(cwd);
  }

  set(identity: string, cwd: string, verdict: PromptVerdict): void {
    const entry = this.byIdentity.get(identity);
    if (!entry) this.byIdentity.set(identity, { cwd, verdict });
    else if (entry.cwd !== cwd) (entry.others ??= new Map()).set(cwd, verdict);
  }
}

/** A session without a stored prompt: nothing to judge. */
const NOT_JUDGED: JudgedPrompt = { reasons: [], deltaTokens: 0, buildNote: undefined };
const NO_PROMPT: { readonly prompt: undefined; readonly judged: JudgedPrompt } = { prompt: undefined, judged: NOT_JUDGED };

/**
 * The facts and verdict of a session's stored prompt: kept by an earlier run for the same sources
 * (when the verdict store keeps them), else parsed and judged (and then kept).
 */
function promptVerdict(ctx: JudgingContext, record: SessionRecord, promptKey: string, prompts: PromptReader): PromptVerdict {
  // One verdict per prompt and cwd, whatever the sessions' models: nothing in it depends on one
  // (whether its counts are exact for a session's model is the session report's). (No closures
  // here: this runs for every session of every re-evaluation.) Sessions holding the same text
  // inline share its identity (AnalysisCache.knownIdentity), and so their verdict.
  const cwd = sourcesKey(ctx.config, record);
  let identity = ctx.cache.knownIdentity(promptKey);
  let read: ReadPrompt | undefined;
  if (identity === undefined) ({ identity, read } = ctx.cache.readIdentity(promptKey, prompts));
  const known = ctx.verdicts.get(identity, cwd);
  if (known) return known;
  const digest = ctx.store.keepsByDigest ? judgingDigestOf(ctx, cwd, record) : undefined;
  const kept = digest !== undefined ? ctx.store.verdict(identity, cwd, digest) : undefined;
  if (kept) {
    ctx.verdicts.set(identity, cwd, kept);
    return kept;
  }
  // After edits of SOUL.md, the skills, a project's context or the memory files alone, from the verdict kept before them.
  const rejudged = digest !== undefined ? rejudgeKept(ctx.store.anyVerdict(identity, cwd), digest, ctx.rejudge.about(record, identity, promptKey, read, prompts)) : undefined;
  if (rejudged) {
    ctx.store.keepVerdict(identity, cwd, digest!, rejudged.verdict, rejudged.parts);
    ctx.verdicts.set(identity, cwd, rejudged.verdict);
    return rejudged.verdict;
  }
  const anatomy = ctx.cache.anatomy(identity, prompts, promptKey, read);
  const judged = judge(ctx, record, identity, anatomy);
  // What reports keep of it: a judgement holds the anatomy (and so the prompt's text).
  const verdict = { prompt: factsOf(anatomy), judged: { reasons: judged.reasons, deltaTokens: judged.deltaTokens, buildNote: judged.buildNote } };
  if (digest !== undefined) ctx.store.keepVerdict(identity, cwd, digest, verdict, keptPartsOf(ctx.config, anatomy, judged));
  ctx.verdicts.set(identity, cwd, verdict);
  return verdict;
}

type JudgingParts = Omit<JudgingContext, 'verdicts' | 'digests' | 'partDigest' | 'rejudge'>;

/** A judging context, with what it makes once per evaluation. */
function judgingContext(parts: JudgingParts): JudgingContext {
  const ctx = { ...parts, verdicts: new EvaluationVerdicts(), digests: new Map<string, string>() } as JudgingContext & { partDigest: JudgingContext['partDigest']; rejudge: RejudgeAsk };
  ctx.partDigest = partDigestOf(ctx);
  ctx.rejudge = new RejudgeAsk(ctx);
  return ctx;
}

/** The judging digest of a session's sources (by its sourcesKey), asked of the store once per cwd and evaluation. */
function judgingDigestOf(ctx: JudgingContext, cwd: string, record: SessionRecord): string {
  let digest = ctx.digests.get(cwd);
  if (digest === undefined) ctx.digests.set(cwd, (digest = ctx.store.digest(cwd, () => sourcesDigest(ctx.config, ctx.sourcesFor(record.cwd, record.source)), ctx.partDigest)));
  return digest;
}

/**
 * What rejudgeKept asks of this evaluation for one session's prompt: one object per evaluation,
 * pointed at the prompt being judged (rejudgeKept runs to its end before the next, and keeps none
 * of it). Made per prompt, these and their closures were a thousand objects per save of SOUL.md.
 */
class RejudgeAsk implements RejudgeInputs {
  cwd: string | undefined = undefined;
  private record: SessionRecord | undefined;
  private identity = '';
  private promptKey = '';
  private read: ReadPrompt | undefined;
  private prompts: PromptReader | undefined;
  readonly judgedBlocks: JudgedBlocks;

  constructor(private readonly ctx: JudgingContext) {
    this.judgedBlocks = ctx.blocksJudged;
  }

  about(record: SessionRecord, identity: string, promptKey: string, read: ReadPrompt | undefined, prompts: PromptReader): this {
    this.record = record;
    this.cwd = record.cwd;
    this.identity = identity;
    this.promptKey = promptKey;
    this.read = read;
    this.prompts = prompts;
    return this;
  }

  readonly apart = (): RejudgedSources => this.ctx.apartSources;
  readonly today = (): RenderedSources => this.ctx.sourcesFor(this.record!.cwd, this.record!.source);
  readonly anatomy = (): PromptAnatomy => this.ctx.cache.anatomy(this.identity, this.prompts!, this.promptKey, this.read);
}

type ApartSources = { readonly soul: () => SoulSource; readonly memory: () => MemorySource; readonly user: () => MemorySource };

/** SOUL.md and the memory files, each rendered alone and only when read (after edits of one, the others are not). */
function apartSourcesOf(apart: ApartSources): RejudgedSources {
  return {
    get soul() {
      return apart.soul();
    },
    get memory() {
      return apart.memory();
    },
    get user() {
      return apart.user();
    },
  };
}

/** The identities of the listed sessions' prompts, as known now (AnalysisCache.knownIdentity). */
function identitiesOf(listed: readonly SessionRecord[], cache: AnalysisCache): Set<string> {
  const identities = new Set<string>();
  for (const record of listed) {
    const identity = record.promptKey === undefined ? undefined : cache.knownIdentity(record.promptKey);
    if (identity !== undefined) identities.add(identity);
  }
  return identities;
}

/** The digest of one part kept apart, rendering that part alone (VerdictStore.digest). */
function partDigestOf(ctx: JudgingContext): (part: ApartPart) => string {
  return (part) => (part === 'soul' ? soulPartDigest(ctx.apart.soul()) : memoryPartDigest(ctx.apart[part]()));
}

/**
 * What a later run needs to judge this prompt against other SOUL.md, MEMORY.md or USER.md without
 * its text (partsRejudge.ts). None with a caller's system message: where it is found depends on the identity.
 */
function keptPartsOf(config: ProfileConfig, anatomy: PromptAnatomy, judged: Judgement): KeptParts | undefined {
  if (config.agentSystemPrompt) return undefined;
  const rebuilt = rebuiltBlocks(judged, REJUDGED_PARTS);
  return rebuilt && { openings: identityOpenings(anatomy, firstBlockAfterIdentity(anatomy)), ...rebuilt, ...keptEntriesOf(anatomy) };
}

/**
 * Staleness and ΔS, once per distinct (stored prompt, cwd) and evaluation; after a change of the
 * sources, judged again from the last judgement for the parts that changed (engine/judgement.ts).
 */
function judge(ctx: JudgingContext, record: SessionRecord, identity: string, anatomy: PromptAnatomy): Judgement {
  const sources = ctx.sourcesFor(record.cwd, record.source);
  const byCwd = memo(ctx.cache.staleness, identity, newMap<Judgement>);
  const key = sourcesKey(ctx.config, record);
  const previous = byCwd.get(key);
  if (previous && previous.sources === sources && previous.stored === anatomy) return previous;
  const judged = judgePrompt(anatomy, sources, record.cwd, { skillMemo: ctx.cache.skillReasons }, previous);
  byCwd.set(key, judged);
  return judged;
}

/** Each cwd's sources for a platform with a skills.platform_disabled list, by those sources: they go when the cwd's do. */
const platformSources = new WeakMap<RenderedSources, Map<string, RenderedSources>>();

/**
 * Live transcript sizes of the listed sessions, into `cache.transcripts`: an entry made for the same
 * record object (the row did not change) is kept, as is one whose Hermes counters are the same; the
 * others are read in one grouped query.
 */
function readTranscriptSizes(listed: readonly SessionRecord[], store: StateStore, cache: AnalysisCache, verdicts: VerdictStore): void {
  const stale: Array<{ record: SessionRecord; fingerprint: string }> = [];
  for (const record of listed) {
    const cached = cache.transcripts.get(record.id);
    if (cached?.record === record) continue;
    const fingerprint = transcriptFingerprint(record);
    const size = cached && cached.fingerprint === fingerprint ? cached.size : verdicts.transcript(record.id, fingerprint);
    if (size) cache.transcripts.set(record.id, { record, fingerprint, size });
    else stale.push({ record, fingerprint });
  }
  if (stale.length === 0) return;
  const read = stale.length === 1 ? new Map([[stale[0]!.record.id, store.transcriptSize(stale[0]!.record.id)]]) : store.transcriptSizes(stale.map((s) => s.record.id));
  for (const { record, fingerprint } of stale) {
    const size = read.get(record.id)!;
    cache.transcripts.set(record.id, { record, fingerprint, size });
    verdicts.keepTranscript(record.id, fingerprint, size);
  }
}

/** Drops what is kept of sessions no longer listed (they ended, or Hermes deleted them). */
function forgetUnlisted(reports: Map<string, ReusableReport>, listed: readonly SessionRecord[], cache: AnalysisCache): void {
  const ids = new Set(listed.map((r) => r.id));
  for (const id of reports.keys()) if (!ids.has(id)) reports.delete(id);
  for (const id of cache.transcripts.keys()) if (!ids.has(id)) cache.transcripts.delete(id);
}

function totalsOf(sessions: readonly SessionReport[]): ProfileReport['totals'] {
  let stale = 0;
  let pending = 0;
  let fresh = 0;
  let staleRefreshCostUsd = 0;
  let unknownCost = 0;
  for (const s of sessions) {
    if (s.state === 'pending') pending++;
    else if (s.state === 'fresh') fresh++;
    else if (s.state === 'stale') {
      stale++;
      if (s.refreshCostUsd === undefined) unknownCost++;
      else staleRefreshCostUsd += s.refreshCostUsd;
    }
  }
  return { sessions: sessions.length, stale, pending, fresh, staleRefreshCostUsd, unknownCost };
}

/** Problems the user must fix in a file (shown by the CLI and the session list), each naming it. */
const REPORTED_PROBLEMS = new Set(['unreadable', 'binary', 'frontmatter-invalid', 'frontmatter-missing', 'truncated']);

function sourceProblemsOf(lists: ReadonlyArray<readonly SourceProblem[]>): string[] {
  const out = new Set<string>();
  for (const problems of lists) {
    for (const p of problems) if (REPORTED_PROBLEMS.has(p.code)) out.add(p.message.includes(p.file) ? p.message : `${p.file}: ${p.message}`);
  }
  return [...out];
}

/** The problem lists of the sources of every cwd. The profile's own parts are the same objects for every cwd (a thousand skills' problems): once each. */
function problemListsOf(rendered: readonly RenderedSources[]): Array<readonly SourceProblem[]> {
  const seen = new Set<readonly SourceProblem[]>();
  for (const sources of rendered) {
    for (const problems of [sources.soul.problems, sources.skills.problems, sources.memory.problems, sources.user.problems, sources.projectContext.problems]) seen.add(problems);
  }
  return [...seen];
}

function cwdsOf(sessions: readonly SessionReport[]): string[] {
  const cwds = new Set<string>();
  for (const s of sessions) if (s.cwd && s.state !== 'ended') cwds.add(s.cwd);
  return [...cwds];
}

function unavailableAnalysis(
  profile: Profile,
  config: ProfileConfig,
  fs: SourceFs,
  report: Omit<ProfileReport, 'storedPromptSessions' | 'requestedEpoch' | 'adoption' | 'sessions' | 'totals'>,
  sourcesFor: (cwd: string | undefined, source?: string) => RenderedSources,
): ProfileAnalysis {
  return {
    profile,
    config,
    fs,
    report: { ...report, storedPromptSessions: 0, requestedEpoch: 0, adoption: countsOf([]), sessions: [], totals: totalsOf([]) },
    cwds: [],
    changedSessions: 0,
    sourcesFor,
    anatomyOf: () => undefined,
    inputsOf: () => undefined,
  };
}

function inputsOfReport(report: ReusableReport | undefined, cache: AnalysisCache): SessionInputs | undefined {
  if (!report) return undefined;
  const { record, prompt } = report.inputs;
  return { record, prompt, identity: record.promptKey === undefined ? undefined : cache.knownIdentity(record.promptKey) };
}
