// Refresh requests from the editor: which sessions a request covers, what it costs, and the write
// itself through the engine. Writes happen only here, only on an explicit user action, and never
// in an untrusted workspace.
import { HermesError } from '../hermes/errors';
import type { SessionReport } from '../hermes/engine/types';
import { hermesJson } from '../hermes/refresh/refreshProtocol';
import { adoptionCountsText } from '../hermes/refresh/adoptionWords';
import { refreshEffect, requestBlockedBy } from '../hermes/refresh/refreshWording';
import { requestRefresh, type RefreshStrategy } from '../hermes/refresh/requestRefresh';
import type { RefreshParams, RefreshPreviewDto, RefreshResultDto } from '../../shared/protocol';
import type { HermesModel } from './hermesModel';

export const UNTRUSTED_REFRESH_MESSAGE =
  "Refreshing is disabled in Restricted Mode: it writes to Hermes' state.db. Trust this workspace to enable it.";

export class RefreshService {
  constructor(
    private readonly model: HermesModel,
    private readonly isTrusted: () => boolean,
    private readonly defaultStrategy: () => RefreshStrategy,
  ) {}

  /**
   * The live sessions a request makes pay for a rebuild: the ones named, else the profile's stale
   * ones (the "Refresh N stale sessions" action), else every session holding a prompt.
   */
  targets(params: RefreshParams): SessionReport[] {
    const live = this.liveSessions(params.profile);
    if (params.sessionIds?.length) return live.filter((s) => params.sessionIds!.includes(s.id));
    if (params.onlyStale) return live.filter((s) => s.state === 'stale');
    return live.filter((s) => s.state !== 'no-prompt');
  }

  preview(params: RefreshParams): RefreshPreviewDto {
    const sessions = this.targets(params);
    const warm = sessions.filter((s) => s.cacheWarm);
    const cold = sessions.filter((s) => !s.cacheWarm);
    const sum = (list: SessionReport[]) => list.reduce((n, s) => n + (s.refreshCostUsd ?? 0), 0);
    const strategy = this.strategyOf(params);
    const profileWide = this.scopeOf(params, strategy) === undefined;
    // A profile-wide request reaches the fresh sessions too: they rebuild the same bytes and keep
    // their cache, but for those another Hermes build wrote, which get today's build's text.
    const fresh = profileWide && params.onlyStale ? this.liveSessions(params.profile).filter((s) => s.state === 'fresh') : [];
    const otherBuildFresh = fresh.filter((s) => s.otherBuild !== undefined).length;
    const alsoRebuiltFresh = fresh.length - otherBuildFresh;
    return {
      profile: params.profile,
      scope: profileWide ? 'profile' : 'session',
      sessions: sessions.length,
      warm: warm.length,
      cold: cold.length,
      warmCostUsd: sum(warm),
      coldCostUsd: sum(cold),
      unknownCost: sessions.filter((s) => s.refreshCostUsd === undefined).length,
      apiEquivalent: sessions.some((s) => s.apiEquivalent),
      alsoRebuiltFresh,
      effect: refreshEffect(strategy, profileWide ? 'profile' : 'session', alsoRebuiltFresh, otherBuildFresh),
      hermes: hermesJson(this.model.build, this.model.protocol),
      requestBlocked: requestBlockedBy(this.model.build) ?? null,
    };
  }

  run(params: RefreshParams): RefreshResultDto {
    if (!this.isTrusted()) throw new HermesError('bad-input', UNTRUSTED_REFRESH_MESSAGE);
    const analysis = this.requireProfile(params.profile);
    if (params.onlyStale && !params.sessionIds?.length && this.targets(params).length === 0) {
      throw new HermesError('session-missing', `No stale session in profile ${params.profile}: nothing to refresh.`);
    }
    const strategy = this.strategyOf(params);
    const result = requestRefresh({
      dbFile: analysis.report.dbFile,
      profileName: analysis.profile.name,
      sessionIds: this.scopeOf(params, strategy),
      strategy,
      dryRun: params.dryRun,
      profileDir: analysis.profile.dir,
      homeRoot: this.model.home?.root,
      build: this.model.build,
      keys: this.model.protocol.keys,
    });
    // Every session the request concerns is watched from its row as read before it (refresh/adoption.ts).
    if (!result.dryRun && result.epoch !== undefined) this.model.watchRequest(analysis.profile.dir, result.epoch, result.scope === 'session' ? result.sessionIds : undefined);
    // An epoch request changes state_meta alone, which every read takes in full: the touched scan
    // shows it (the full scan, ~40 ms on 20,000 sessions, follows once Hermes' writes settle). A
    // clear-prompt refresh changes session rows without a message: read every row again.
    if (!result.dryRun) this.model.databaseChanged([analysis.profile.dir], result.strategy === 'clear-prompt' ? 'full' : 'touched');
    const adoption = !result.dryRun && result.epoch !== undefined ? this.model.adoptionOfRequest(analysis.profile.dir, result.epoch) : null;
    const watched = adoption ? adoptionCountsText(adoption) : '';
    return {
      profile: result.profile,
      scope: result.scope,
      sessionIds: [...result.sessionIds],
      epoch: result.epoch ?? null,
      storedPromptSessions: result.storedPromptSessions,
      strategy: result.strategy,
      dryRun: result.dryRun,
      message: result.lines.join(' ') + (watched ? ` The lens watches each: ${watched}.` : ''),
      adoption,
    };
  }

  private strategyOf(params: RefreshParams): RefreshStrategy {
    return params.strategy ?? this.defaultStrategy();
  }

  /**
   * The sessions a request is about, or undefined for the whole profile. A refresh of a profile's
   * stale sessions is the profile-wide request, which every build with refresh-prompts reads;
   * per-session keys are only for a request about named sessions. Clearing prompts has no such
   * request and fires hooks: it clears the stale sessions alone.
   */
  private scopeOf(params: RefreshParams, strategy: RefreshStrategy): string[] | undefined {
    if (params.sessionIds?.length) return params.sessionIds;
    if (params.onlyStale && strategy === 'clear-prompt') return this.targets(params).map((s) => s.id);
    return undefined;
  }

  private liveSessions(profile: string): SessionReport[] {
    return this.requireProfile(profile).report.sessions.filter((s) => s.state !== 'ended');
  }

  private requireProfile(name: string) {
    const analysis = this.model.profileByName(name);
    if (!analysis) throw new HermesError('profile-missing', `Profile "${name}" is not watched. Check hermesLens.profiles and hermesLens.home.`);
    if (analysis.report.unavailable) throw new HermesError('db-unreadable', analysis.report.unavailable, analysis.report.dbFile);
    return analysis;
  }
}
