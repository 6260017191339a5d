// The open home: Hermes as the language server sees it — the home, one analysis per watched profile, and which
// files feed which sessions. Features read from here; watchers and saves tell it what changed, and
// it re-evaluates only what the change can affect (analysis caches are kept per profile).
import path = require('node:path');
import { AnalysisCache } from '../hermes/engine/analysisCache';
import { analyzeProfile, type ProfileAnalysis } from '../hermes/engine/analyzeProfile';
import { diskVerdicts } from '../hermes/engine/diskVerdicts';
import { alsoInMemory, keptVerdicts, type KeptVerdicts } from '../hermes/engine/keptVerdicts';
import { KeptConnection, type SessionScan } from '../hermes/engine/keptConnection';
import type { ProfileReport, SessionReport } from '../hermes/engine/types';
import { previewSave, type PreviewJudgements, type SavePreview } from '../hermes/engine/savePreview';
import { openHome, selectedProfiles } from '../hermes/profile/selection';
import { describeError } from '../hermes/errors';
import { diskFs } from '../hermes/fs/diskFs';
import type { SourceFs } from '../hermes/fs/sourceFs';
import { locateHome, profilePaths } from '../hermes/profile/home';
import { detectHermesBuild } from '../hermes/install/detectBuild';
import { adoptsRefreshRequests, type HermesBuild } from '../hermes/install/hermesBuild';
import type { PriceOverrides } from '../hermes/cost/prices';
import type { HermesHome, SourceKind, TierName } from '../hermes/model';
import type { FileContribution, ProjectContext } from '../hermes/sources/types';
import { contextAsReadBy } from '../hermes/sources/contextAsRead';
import { classifySource, type SourceTarget } from './sourceKind';
import { skillCarriers } from './skillCarriers';
import { PrefixFamilies } from './prefixFamilies';
import { AdoptionLedger, type AdoptionCounts, countsOf } from '../hermes/refresh/adoptionLedger';
import { adoptionFiles, memoryAdoptionFiles, type AdoptionFiles } from '../hermes/refresh/adoptionFiles';
import { refreshProtocolOf, type RefreshProtocol } from '../hermes/refresh/refreshProtocol';
import { adoptionPhrase } from '../hermes/refresh/adoptionWords';
import { watchRequest } from '../hermes/engine/requestWatches';

export interface ModelOptions {
  readonly home: string;
  readonly profiles: readonly string[];
  readonly priceOverrides?: PriceOverrides;
  /** `hermesLens.hermesInstall`: the installation serving the home, where it would not be found. */
  readonly hermesInstall?: string;
  /**
   * The environment the server reads for everything it looks up there: the home (HERMES_HOME,
   * HOME), the `hermes` command (PATH), the cache folder; default: the server's own.
   */
  readonly env?: NodeJS.ProcessEnv;
}

/** What one file is to Hermes, for one profile. */
export interface ProfileUse {
  readonly analysis: ProfileAnalysis;
  /** Live sessions whose prompt this file feeds. */
  readonly sessions: readonly SessionReport[];
  /** What the file puts into the prompt today (for a shadowed file: nothing). */
  readonly contribution: FileContribution | undefined;
}

export interface SourceRole {
  readonly kind: SourceKind;
  readonly file: string;
  readonly tier: TierName | undefined;
  readonly uses: readonly ProfileUse[];
  /** Set when no session loads the file because another context file wins (docs/HERMES-FORMATS.md §3). */
  readonly shadowedBy: string | undefined;
  /**
   * Where builds differ in what they load (AGENTS.override.md beside AGENTS.md): the file today's
   * Hermes loads instead of this one that older builds' sessions still carry, and how many live
   * sessions in folders where today's Hermes loads this file were started by a build that does not.
   */
  readonly todayLoadsInstead?: string;
  readonly notLoadedByTheirBuild?: number;
}

export class HermesModel {
  private analyses = new Map<string, ProfileAnalysis>();
  /** What is kept between evaluations of each profile: its analysis cache, its verdicts and its read connection. */
  private kept = new Map<string, KeptForProfile>();
  private homeInfo: HermesHome | undefined;
  private problemText: string | undefined;
  private options: ModelOptions = { home: '', profiles: [] };
  private buildInfo: HermesBuild = { kind: 'not-found', looked: [] };
  private protocolInfo: RefreshProtocol = refreshProtocolOf(this.buildInfo);
  /** Where the watches of refresh requests and learned stamp keys are kept (the cache folder, else memory). */
  private adoptionStore: AdoptionFiles | undefined;
  /** Watches decided since the last takeAdoptionNews, as lines for the output (ids and words, no prompt text). */
  private adoptionNews: string[] = [];
  /** Bumped by every evaluation (see `revision`). */
  private evaluations = 0;
  /** Profiles whose reports came in part from what an earlier run kept on disk (completeAnalyses). */
  private fromKept = new Set<string>();

  /** The home's prefix families: which sessions share a cached prefix (prefixFamilies.ts). */
  readonly prefixes: PrefixFamilies;

  constructor(
    private readonly clock: () => number = () => Date.now() / 1000,
    /** What Hermes' sources are read through (the disk; features lay unsaved buffers over it). */
    readonly fs: SourceFs = diskFs,
  ) {
    const model = this;
    this.prefixes = new PrefixFamilies({
      get home() {
        return model.homeInfo;
      },
      profiles: () => this.profiles(),
      keptStore: (analysis) => this.keptFor(analysis.profile.dir).connection.connection(analysis.report.dbFile),
      get priceOverrides() {
        return model.options.priceOverrides;
      },
    });
  }

  get home(): HermesHome | undefined {
    return this.homeInfo;
  }

  /** The Hermes build that serves the home, as last read (redetectBuild reads it again). */
  get build(): HermesBuild {
    return this.buildInfo;
  }

  /** The refresh protocol's names in use for the home, and where they came from. */
  get protocol(): RefreshProtocol {
    return this.protocolInfo;
  }

  /** Changes whenever a report may have: what was worked out of the reports before is out of date. */
  get revision(): number {
    return this.evaluations;
  }

  /** Why nothing can be shown (no home), if so. */
  get problem(): string | undefined {
    return this.problemText;
  }

  configure(options: ModelOptions): void {
    this.options = options;
    this.adoptionStore = undefined;
    this.dispose();
    this.reloadAll();
  }

  /**
   * configure, the sessions' reports taken where it can from what an earlier evaluation kept on disk
   * (diskVerdicts, as `hermes-lens status` takes them): the first list without parsing and judging
   * every stored prompt. What changed before the watchers began is read by completeAnalyses, once
   * the list is out.
   */
  configureFromKept(options: ModelOptions): void {
    this.options = options;
    this.adoptionStore = undefined;
    this.dispose();
    this.reloadAll(true);
  }

  /** Whether completeAnalyses has profiles to evaluate again. */
  get incomplete(): boolean {
    return this.fromKept.size > 0;
  }

  /**
   * Evaluates again each profile first evaluated by configureFromKept, reading every row and source
   * again (the watchers began after that read) and judging from the verdicts it kept in memory;
   * whether any was (its reports are new objects, saying what the kept verdicts said unless
   * something changed meanwhile: to be published).
   */
  completeAnalyses(): boolean {
    let evaluated = false;
    for (const dir of [...this.fromKept]) {
      this.fromKept.delete(dir);
      const before = this.analyses.get(dir);
      const kept = this.kept.get(dir);
      if (!before || !kept) continue;
      this.kept.set(dir, { ...kept, cache: new AnalysisCache(ANATOMIES_KEPT) });
      this.analyze(dir, before.profile);
      evaluated = true;
    }
    return evaluated;
  }

  reloadAll(fromKept = false): void {
    this.evaluations++;
    this.analyses.clear();
    this.fromKept.clear();
    this.buildInfo = this.detectBuild();
    this.protocolInfo = this.protocolOf(this.buildInfo);
    try {
      this.homeInfo = openHome({ home: this.options.home || undefined }, this.env);
      const profiles = selectedProfiles(this.homeInfo, this.options.profiles.length ? { profiles: this.options.profiles } : { allProfiles: true });
      this.problemText = undefined;
      for (const profile of profiles) this.analyze(profile.dir, profile, 'full', fromKept);
    } catch (error) {
      this.homeInfo = undefined;
      this.problemText = describeError(error);
    }
  }

  /**
   * Reads the Hermes build again (a few stats and one small file: Hermes may have been upgraded or
   * checked out since); when it changed, every profile is evaluated again with it. Whether it changed.
   */
  redetectBuild(): boolean {
    const build = this.detectBuild();
    if (sameBuild(build, this.buildInfo)) return false;
    this.buildInfo = build;
    this.protocolInfo = this.protocolOf(build);
    for (const [dir, analysis] of [...this.analyses]) this.analyze(dir, analysis.profile);
    return true;
  }

  private detectBuild(): HermesBuild {
    return detectHermesBuild({ homeRoot: this.homeRoot(), explicit: this.options.hermesInstall, env: this.env });
  }

  /** The one environment the model reads (ModelOptions.env). */
  private get env(): NodeJS.ProcessEnv {
    return this.options.env ?? process.env;
  }

  private homeRoot(): string {
    return this.homeInfo?.root ?? locateHome(this.options.home || undefined, this.env).root;
  }

  private protocolOf(build: HermesBuild): RefreshProtocol {
    return refreshProtocolOf(build, this.adoptions().learned(this.homeRoot()));
  }

  private adoptions(): AdoptionFiles {
    return (this.adoptionStore ??= adoptionFiles(this.env) ?? memoryAdoptionFiles());
  }

  /**
   * A refresh request of `epoch` was recorded in this profile, for these sessions or (none given)
   * every session: each live session holding a prompt is watched from its row as last read, with
   * what its report said refreshing it would cost. Call before reading the database again.
   */
  watchRequest(profileDir: string, epoch: number, sessionIds: readonly string[] | undefined): void {
    const analysis = this.byDir(profileDir);
    if (!analysis) return;
    const { cache, ledger } = this.keptFor(analysis.profile.dir);
    watchRequest(cache, ledger, epoch, sessionIds, this.protocolInfo.keys, this.clock());
  }

  /** How the request of `epoch` stands for the sessions of this profile it concerns. */
  adoptionOfRequest(profileDir: string, epoch: number): AdoptionCounts {
    const analysis = this.byDir(profileDir);
    if (!analysis) return countsOf([]);
    return countsOf(this.keptFor(analysis.profile.dir).ledger.all().filter((w) => w.epoch === epoch));
  }

  /** The watches decided since the last call, one line each. */
  takeAdoptionNews(): string[] {
    return this.adoptionNews.splice(0);
  }

  /** Keeps what changed in the watches of refresh requests (in the cache folder, for status and the other windows). */
  persistAdoption(): void {
    for (const [dir, { ledger }] of this.kept) {
      if (!ledger.unsaved) continue;
      const analysis = this.analyses.get(dir);
      ledger.persist(analysis && !analysis.report.unavailable ? new Set(analysis.report.sessions.map((s) => s.id)) : undefined);
    }
  }

  /**
   * These profiles' databases may have changed (a watcher event, our own refresh): each that did
   * is evaluated again, by default reading again only the sessions a write touched (engine/
   * keptConnection.ts; `verifyDatabases` completes that). Whether any report changed.
   */
  databaseChanged(profileDirs: readonly string[], scan: SessionScan = 'touched'): boolean {
    return this.analyzeWhere(profileDirs, (connection) => connection.hasUnreadCommits(), scan);
  }

  /**
   * After a burst of writes has settled: the full scan of each profile whose last read was a
   * touched one (a row changed without a message shows now). Whether any report changed.
   */
  verifyDatabases(profileDirs: readonly string[]): boolean {
    return this.analyzeWhere(profileDirs, (connection) => connection.lastRead?.partial === true || connection.hasUnreadCommits(), 'full');
  }

  /** Evaluates again each of these profiles whose connection says it must; whether any report changed. */
  private analyzeWhere(profileDirs: readonly string[], must: (connection: KeptConnection) => boolean, scan: SessionScan): boolean {
    let changed = false;
    for (const dir of profileDirs) {
      const analysis = this.byDir(dir);
      if (!analysis || !must(this.keptFor(dir).connection)) continue;
      changed = this.analyze(dir, analysis.profile, scan) || changed;
    }
    return changed;
  }

  /**
   * Instruction files changed. With their paths, each profile drops only the sources those files
   * feed (SOUL.md, the skills, one project's context…) and re-judges only what they touch; without,
   * every profile's rendered sources are dropped.
   */
  sourcesChanged(paths?: readonly string[]): void {
    for (const [dir, analysis] of [...this.analyses]) {
      this.keptFor(dir).cache.sourcesChanged(paths);
      this.analyze(dir, analysis.profile);
    }
  }

  profiles(): ProfileAnalysis[] {
    return [...this.analyses.values()];
  }

  profileByName(name: string): ProfileAnalysis | undefined {
    return this.profiles().find((a) => a.profile.name === name);
  }

  /** Session cwds of live sessions (where project context files are looked up). */
  projectDirs(): string[] {
    const dirs = new Set<string>();
    for (const analysis of this.analyses.values()) for (const cwd of analysis.cwds) dirs.add(cwd);
    return [...dirs];
  }

  /** The skills folders outside the profiles that their config.yaml names (`skills.external_dirs`), as their indexes read them. */
  externalSkillDirs(): string[] {
    const dirs = new Set<string>();
    for (const analysis of this.analyses.values()) for (const dir of analysis.sourcesFor(undefined).skills.externalDirs ?? []) dirs.add(dir);
    return [...dirs];
  }

  /** The skills folders of the projects trusted by the profiles that live sessions work in (`skills.trusted_project_dirs`). */
  projectSkillDirs(): string[] {
    const dirs = new Set<string>();
    for (const analysis of this.analyses.values()) {
      if (analysis.config.trustedProjectDirs.length === 0) continue;
      for (const cwd of analysis.cwds) for (const dir of analysis.sourcesFor(cwd).skills.projectDirs ?? []) dirs.add(dir);
    }
    return [...dirs];
  }

  /** What `file` is to Hermes (sourceKind.ts): the one answer every feature takes. */
  classify(file: string): SourceTarget | undefined {
    return classifySource(this.analyses.values(), file);
  }

  /** What `file` is to Hermes: which profiles and sessions it feeds, and where in the prompt. */
  roleOf(file: string): SourceRole | undefined {
    const target = this.classify(file);
    if (!target) return undefined;
    return target.kind === 'project-context' ? this.contextFileRole(target.file) : profileFileRole(target);
  }

  private contextFileRole(file: string): SourceRole | undefined {
    const uses: ProfileUse[] = [];
    let shadowedBy: string | undefined;
    let seen = false;
    let notLoadedByTheirBuild = 0;
    for (const analysis of this.analyses.values()) {
      const byCwd = new Map<string, SessionReport[]>();
      for (const s of analysis.report.sessions) {
        if (!s.cwd || s.state === 'ended' || s.state === 'no-prompt') continue;
        byCwd.set(s.cwd, [...(byCwd.get(s.cwd) ?? []), s]);
      }
      const sessions: SessionReport[] = [];
      let contribution: FileContribution | undefined;
      for (const [cwd, list] of byCwd) {
        const context = analysis.sourcesFor(cwd).projectContext;
        const loadedToday = context.files.some((f) => f.path === file);
        for (const [read, carrying] of byContextRead(analysis, context, list)) {
          const found = read.files.find((f) => f.path === file);
          if (found) {
            contribution ??= found;
            sessions.push(...carrying);
            seen = true;
          } else if (loadedToday) {
            notLoadedByTheirBuild += carrying.length;
          }
        }
        // Today's Hermes loads it, though no session's build did (an override older builds ignore).
        if (!contribution && loadedToday) {
          contribution = context.files.find((f) => f.path === file);
          seen = true;
        }
        const shadow = context.shadowed.find((s) => s.path === file);
        if (shadow) {
          shadowedBy = shadow.winner;
          seen = true;
        }
      }
      if (sessions.length || contribution) uses.push({ analysis, sessions, contribution });
    }
    if (!seen) return undefined;
    const carried = uses.some((u) => u.sessions.length > 0);
    return {
      kind: 'project-context',
      file,
      tier: 'context',
      uses,
      shadowedBy: uses.length ? undefined : shadowedBy,
      ...(carried && shadowedBy ? { todayLoadsInstead: shadowedBy } : {}),
      ...(notLoadedByTheirBuild ? { notLoadedByTheirBuild } : {}),
    };
  }

  /**
   * What saving `text` as `file` would do to the sessions it feeds (an editor's unsaved buffer);
   * undefined for a file that is not a source of any watched profile. A file no session loads
   * (another context file wins) changes no prompt. `earlier`: the last preview's judgements of the file.
   */
  previewSave(file: string, text: string, earlier?: PreviewJudgements): SavePreview | undefined {
    const role = this.roleOf(file);
    if (!role) return undefined;
    if (role.shadowedBy) return { changesPrompt: false, sessions: [], judged: new Map() };
    const profiles = role.uses.map((use) => {
      const { cache, verdicts } = this.keptFor(use.analysis.profile.dir);
      return { analysis: use.analysis, cache, verdicts, sessions: use.sessions };
    });
    return previewSave({ kind: role.kind, file: role.file, text }, profiles, this.clock(), earlier);
  }

  /**
   * Brings the stored-prompt counts that re-evaluations deferred up to date (see
   * KeptConnection.reading); the profiles whose count changed.
   */
  settleStoredPromptCounts(): ProfileAnalysis[] {
    const changed: ProfileAnalysis[] = [];
    for (const [dir, analysis] of this.analyses) {
      if (analysis.report.unavailable) continue;
      const count = this.keptFor(dir).connection.keptStoredPromptCount();
      if (count === undefined || count === analysis.report.storedPromptSessions) continue;
      const settled = { ...analysis, report: { ...analysis.report, storedPromptSessions: count } };
      this.analyses.set(dir, settled);
      changed.push(settled);
    }
    return changed;
  }

  /** Closes the read connections kept between evaluations and forgets every cache (the watches of refresh requests kept first). */
  dispose(): void {
    try {
      this.persistAdoption();
    } catch {
      /* kept at the next change, or found again by the next reader */
    }
    for (const { connection } of this.kept.values()) connection.close();
    this.kept.clear();
  }

  /** Evaluates one profile again (with `fromKept`, as configureFromKept says); whether its report changed. */
  private analyze(dir: string, profile: ProfileAnalysis['profile'], sessionScan: SessionScan = 'full', fromKept = false): boolean {
    this.evaluations++;
    const before = this.analyses.get(dir)?.report;
    const { cache, connection, verdicts, ledger } = this.keptFor(dir, profile);
    const tee = fromKept ? alsoInMemory(diskVerdicts(profilePaths(profile).stateDb, this.fs, undefined, this.env), verdicts) : undefined;
    const now = this.clock();
    const analysis = analyzeProfile(profile, {
      now,
      cache,
      priceOverrides: this.options.priceOverrides,
      // Published first; the count over every session follows (settleStoredPromptCounts).
      sessions: connection.reading(sessionScan, true),
      adoptsRefreshRequests: adoptsRefreshRequests(this.buildInfo),
      refreshKeys: this.protocolInfo.keys,
      adoption: ledger,
      hermesVersion: this.buildInfo.kind === 'found' ? this.buildInfo.version : undefined,
      fs: this.fs,
      env: this.env,
      verdicts: tee?.store ?? verdicts,
    });
    this.analyses.set(dir, analysis);
    for (const id of ledger.moved) {
      const w = ledger.of(id);
      if (w && w.state !== 'pending' && w.decidedAt === now) this.adoptionNews.push(`Refresh epoch ${w.epoch} in profile ${profile.name}: session ${id} ${adoptionPhrase(w)}.`);
    }
    if (ledger.stampSeen) this.learnStamp(profile.name, ledger.stampSeen);
    // Judged from what an earlier run kept: evaluated again once the list is out (completeAnalyses).
    if (tee?.tookFromDisk()) this.fromKept.add(dir);
    return !before || analysis.changedSessions > 0 || !sameReport(before, analysis.report);
  }

  private byDir(dir: string): ProfileAnalysis | undefined {
    return this.analyses.get(dir) ?? this.analyses.get(path.resolve(dir));
  }

  /**
   * A session stamped a request's epoch under another model_config key than the one in use: that
   * key is kept for the home and used from now on; every profile is judged again with it.
   */
  private learnStamp(profile: string, seen: { readonly stampKey: string; readonly sessionId: string; readonly epoch: number }): void {
    if (seen.stampKey === this.protocolInfo.keys.stampKey) return;
    this.adoptions().learn(this.homeRoot(), { ...seen, profile, at: this.clock() });
    this.protocolInfo = this.protocolOf(this.buildInfo);
    for (const [dir, analysis] of [...this.analyses]) this.analyze(dir, analysis.profile);
  }

  private keptFor(dir: string, profile?: ProfileAnalysis['profile']): KeptForProfile {
    let kept = this.kept.get(dir);
    if (!kept) {
      const dbFile = profilePaths(profile ?? this.analyses.get(dir)!.profile).stateDb;
      kept = { cache: new AnalysisCache(ANATOMIES_KEPT), verdicts: keptVerdicts(), connection: new KeptConnection(), ledger: new AdoptionLedger(dbFile, this.adoptions()) };
      this.kept.set(dir, kept);
    }
    return kept;
  }
}

interface KeptForProfile {
  readonly cache: AnalysisCache;
  readonly verdicts: KeptVerdicts;
  readonly connection: KeptConnection;
  /** The watches of the profile's refresh requests. */
  readonly ledger: AdoptionLedger;
}

/**
 * Parsed prompts kept per profile: a save judges the prompts again from their kept verdicts, so
 * only the views' prompts and the few a save must read (one per distinct skills index) are parsed.
 */
const ANATOMIES_KEPT = 32;

// The sessions a profile file feeds, per report (a new object per evaluation): a save asks for them
// several times (diagnostics, lenses, the save's own message), each a pass over thousands.
const liveSessions = new WeakMap<ProfileReport, readonly SessionReport[]>();

function liveSessionsOf(report: ProfileReport): readonly SessionReport[] {
  let live = liveSessions.get(report);
  if (!live) liveSessions.set(report, (live = report.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt')));
  return live;
}

/** A profile's own file's role: what it renders today, in its tier, for the profile's live sessions. */
function profileFileRole(target: Exclude<SourceTarget, { kind: 'project-context' }>): SourceRole {
  const { analysis, file } = target;
  const sources = analysis.sourcesFor(undefined);
  const live = liveSessionsOf(analysis.report);
  const use = (contribution: FileContribution | undefined): ProfileUse[] => [{ analysis, sessions: live, contribution }];
  switch (target.kind) {
    case 'soul':
      return { kind: 'soul', file, tier: 'stable', uses: use({ kind: 'soul', path: file, rendered: sources.soul.block }), shadowedBy: undefined };
    case 'memory':
    case 'user': {
      const memory = target.kind === 'memory' ? sources.memory : sources.user;
      return { kind: memory.kind, file, tier: 'volatile', uses: use({ kind: memory.kind, path: file, rendered: memory.block }), shadowedBy: undefined };
    }
    case 'skill-category': {
      const entry = [...sources.skills.categories].find(([, info]) => info.file === file);
      const rendered = entry ? `  ${entry[0]}: ${entry[1].description}` : '';
      return { kind: 'skill-category', file, tier: skillsTier(live), uses: use({ kind: 'skill-category', path: file, rendered, label: entry?.[0] }), shadowedBy: undefined };
    }
    case 'skill': {
      const skill = (target.projectIndex ?? sources.skills).entries.find((e) => e.file === file);
      const rendered = skill && skill.visible ? `    - ${skill.name}${skill.promptDescription ? `: ${skill.promptDescription}` : ''}` : '';
      // A trusted project's skill feeds its sessions alone, and shadows the profile's of its name there.
      const { sessions, notLoadedByTheirBuild } = skillCarriers(analysis, file, live, target.projectIndex);
      const uses = [{ analysis, sessions, contribution: { kind: 'skill' as const, path: file, rendered, label: skill?.name } }];
      return { kind: 'skill', file, tier: skillsTier(sessions), uses, shadowedBy: undefined, ...(notLoadedByTheirBuild ? { notLoadedByTheirBuild } : {}) };
    }
  }
}

/** The skills index's tier in most of these sessions' prompts. */
function skillsTier(live: readonly SessionReport[]): TierName {
  return majorityTier(live.map((s) => s.skillsTier)) ?? 'volatile';
}

function sameBuild(a: HermesBuild, b: HermesBuild): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameCounts(a: AdoptionCounts, b: AdoptionCounts): boolean {
  return a.adopted === b.adopted && a.adoptedStampUnread === b.adoptedStampUnread && a.waiting === b.waiting && a.notAdopted === b.notAdopted;
}

function majorityTier(tiers: ReadonlyArray<TierName | undefined>): TierName | undefined {
  const counts = new Map<TierName, number>();
  for (const t of tiers) if (t) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * Two reports of one profile say the same, given that the evaluation changed no session's report
 * (changedSessions: re-evaluation keeps each session's report object and updates it in place).
 */
function sameReport(a: ProfileReport, b: ProfileReport): boolean {
  return (
    a.unavailable === b.unavailable &&
    a.storedPromptSessions === b.storedPromptSessions &&
    a.requestedEpoch === b.requestedEpoch &&
    sameCounts(a.adoption, b.adoption) &&
    a.problems.join('\n') === b.problems.join('\n') &&
    a.sessions.length === b.sessions.length &&
    a.sessions.every((s, i) => s === b.sessions[i])
  );
}

/**
 * A cwd's sessions by the project context their builds load (contextAsRead): all of them read
 * today's where no AGENTS.override.md takes part. A prompt not at hand is taken to read it as today's Hermes.
 */
function byContextRead(analysis: ProfileAnalysis, today: ProjectContext, sessions: readonly SessionReport[]): Map<ProjectContext, SessionReport[]> {
  if (!today.otherReadings) return new Map([[today, [...sessions]]]);
  const groups = new Map<ProjectContext, SessionReport[]>();
  for (const session of sessions) {
    const stored = analysis.anatomyOf(session.id);
    const read = stored ? contextAsReadBy(today, stored) : today;
    groups.set(read, [...(groups.get(read) ?? []), session]);
  }
  return groups;
}
