// Refresh when free in the language server: on the user's ask, each stale session's refresh request
// is recorded when its prompt cache expires (hermes/refresh/refreshScheduler.ts), through the
// editor's own refresh path (RefreshService: trust checked, one short transaction). The schedule is
// kept in the lens's cache folder, so a restarted server resumes it; the client hears of every
// change (the tree's countdown). In an untrusted workspace nothing is scheduled, resumed or written.
import { requestBlockedBy, requestRefused } from '../hermes/refresh/refreshWording';
import { HermesError } from '../hermes/errors';
import type { SessionReport } from '../hermes/engine/types';
import { RefreshScheduler, type ScheduleEvent } from '../hermes/refresh/refreshScheduler';
import { scheduleFiles, type ScheduleFiles } from '../hermes/refresh/scheduleFiles';
import { CANCEL_WORDS, planWhenFree, type SessionNow, type WhenFreePlan } from '../hermes/refresh/whenFree';
import { systemClock, type Clock } from '../hermes/timers';
import type { CancelRefreshWhenFreeParams, CancelRefreshWhenFreeResultDto, RefreshParams, RefreshWhenFreeResultDto, ScheduledRefreshDto } from '../../shared/protocol';
import { formatWait } from '../../shared/waitText';
import type { HermesModel } from './hermesModel';
import { UNTRUSTED_REFRESH_MESSAGE, type RefreshService } from './refreshService';

export interface WhenFreeHooks {
  /** The schedule changed: tell the client. */
  scheduleChanged(entries: ScheduledRefreshDto[]): void;
  /** A scheduled request was written, or a look at a database found it changed: publish the sessions. */
  sessionsChanged(): void;
}

/** Where the service says what it did (the language server's log; never prompt text). */
export interface Messages {
  info(message: string): void;
  warn(message: string): void;
}

// A change of the schedule file comes as several events (lock, temporary file, rename): one look after them.
const SCHEDULE_SETTLE_MS = 50;

export class WhenFreeService {
  private scheduler: RefreshScheduler | undefined;
  private stopWatching: (() => void) | undefined;
  private lookTimer: unknown;

  constructor(
    private readonly model: HermesModel,
    private readonly refresh: RefreshService,
    private readonly isTrusted: () => boolean,
    private readonly log: Messages,
    private readonly hooks: WhenFreeHooks,
    private readonly clock: Clock = systemClock(false),
    private readonly files: ScheduleFiles | undefined = scheduleFiles(),
  ) {}

  /**
   * After every (re)configuration, and when trust is granted: a scheduler for the watched
   * profiles, resuming what an earlier run kept for them.
   */
  start(): void {
    this.stop();
    if (this.isTrusted()) {
      const scheduler = new RefreshScheduler({
        clock: this.clock,
        files: this.files,
        sessions: (dbFile) => this.sessionsOf(dbFile),
        write: (dbFile, sessionIds) => void this.refresh.run({ profile: this.profileOf(dbFile)!.profile.name, sessionIds: [...sessionIds] }),
        freshen: (dbFiles) => {
          const dirs = dbFiles.map((f) => this.profileOf(f)?.profile.dir).filter((d): d is string => d !== undefined);
          if (this.model.databaseChanged(dirs)) this.hooks.sessionsChanged();
        },
        onEvent: (event) => this.tell(event),
        onChange: () => this.hooks.scheduleChanged(this.entries()),
      });
      this.scheduler = scheduler;
      for (const analysis of this.model.profiles()) scheduler.resume(analysis.report.dbFile);
      // Another editor window on the same home shares the schedule: what it adds or cancels shows here too.
      this.stopWatching = this.files?.watch(() => this.lookSoon());
    }
    this.hooks.scheduleChanged(this.entries());
  }

  /** Schedules (or, with `dryRun`, plans) the refresh when free of the stale sessions `params` names, else the profile's. */
  request(params: RefreshParams): RefreshWhenFreeResultDto {
    if (!params.dryRun && (!this.isTrusted() || !this.scheduler)) throw new HermesError('bad-input', UNTRUSTED_REFRESH_MESSAGE);
    // Nothing is scheduled that the Hermes build serving the home would never read.
    const blocked = (params.strategy ?? 'epoch') === 'epoch' ? requestBlockedBy(this.model.build) : undefined;
    if (blocked && !params.dryRun) throw new HermesError('hermes-build', requestRefused(blocked));
    const targets = this.refresh.targets(params.sessionIds?.length ? params : { ...params, onlyStale: true });
    const dbFile = this.model.profileByName(params.profile)!.report.dbFile;
    const ids = targets.map((s) => s.id);
    const plan = params.dryRun ? planWhenFree(this.sessionsOf(dbFile) ?? new Map(), ids, this.clock.now()) : this.scheduler!.add(dbFile, ids);
    const planned = new Set([...plan.dueNow, ...plan.waiting.map((w) => w.sessionId)]);
    const costed = targets.filter((s) => planned.has(s.id));
    return {
      profile: params.profile,
      scheduled: plan.waiting.map((w) => ({ profile: params.profile, sessionId: w.sessionId, at: w.dueAt })),
      writtenNow: params.dryRun ? [] : [...plan.dueNow],
      costUsd: costed.reduce((n, s) => n + (s.refreshCostColdUsd ?? 0), 0),
      unknownCost: costed.filter((s) => s.refreshCostColdUsd === undefined).length,
      dryRun: params.dryRun === true,
      message: this.message(params.profile, plan, params.dryRun === true),
    };
  }

  /**
   * Drops the waiting requests of `params.sessionIds` in `params.profile`, of the whole profile
   * without ids, of every profile without one. Nothing is written: a request not yet recorded
   * simply never is.
   */
  cancel(params: CancelRefreshWhenFreeParams): CancelRefreshWhenFreeResultDto {
    const ids = params.sessionIds?.length ? new Set(params.sessionIds) : undefined;
    const dbFile = params.profile === undefined ? undefined : this.model.profileByName(params.profile)?.report.dbFile;
    if (params.profile !== undefined && dbFile === undefined) throw new HermesError('bad-input', `No watched profile is named ${params.profile}.`);
    const dropped = this.scheduler?.cancel((e) => (dbFile === undefined || e.dbFile === dbFile) && (!ids || ids.has(e.sessionId))) ?? [];
    const cancelled = dropped.flatMap((e) => {
      const profile = this.profileOf(e.dbFile)?.profile.name;
      return profile ? [{ profile, sessionId: e.sessionId, at: e.dueAt }] : [];
    });
    const where = params.profile === undefined ? '' : ` in profile ${params.profile}`;
    const message = cancelled.length === 0 ? `No refresh when free was waiting${where}.` : `Cancelled ${requests(cancelled.length)} waiting for a cache to expire${where}; those sessions stay as they are.`;
    return { cancelled, message };
  }

  /** After every re-evaluation: entries whose session is current, refreshed, ended or active again are settled. */
  reconcile(): void {
    this.scheduler?.reconcile();
  }

  /** The waiting requests, earliest first. */
  entries(): ScheduledRefreshDto[] {
    const list = this.scheduler?.list() ?? [];
    return list.flatMap((e) => {
      const profile = this.profileOf(e.dbFile)?.profile.name;
      return profile ? [{ profile, sessionId: e.sessionId, at: e.dueAt }] : [];
    });
  }

  dispose(): void {
    this.stop();
  }

  private stop(): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
    if (this.lookTimer !== undefined) this.clock.clearTimer(this.lookTimer);
    this.lookTimer = undefined;
    this.scheduler?.dispose();
    this.scheduler = undefined;
  }

  private lookSoon(): void {
    if (this.lookTimer !== undefined) return;
    this.lookTimer = this.clock.setTimer(SCHEDULE_SETTLE_MS, () => {
      this.lookTimer = undefined;
      this.scheduler?.takeUp();
    });
  }

  private profileOf(dbFile: string) {
    return this.model.profiles().find((a) => a.report.dbFile === dbFile);
  }

  /** The sessions of a watched profile as the model has them; undefined when it is not watched or cannot be read. */
  private sessionsOf(dbFile: string): ReadonlyMap<string, SessionNow> | undefined {
    const analysis = this.profileOf(dbFile);
    if (!analysis || analysis.report.unavailable) return undefined;
    return new Map<string, SessionReport>(analysis.report.sessions.map((s) => [s.id, s]));
  }

  private message(profile: string, plan: WhenFreePlan, dryRun: boolean): string {
    const now = this.clock.now();
    const parts: string[] = [];
    const n = plan.waiting.length;
    if (n > 0) {
      const first = formatWait(plan.waiting[0]!.dueAt - now);
      const last = formatWait(plan.waiting[n - 1]!.dueAt - now);
      const when = n === 1 ? `in ${first}` : `the first in ${first}, the last in ${last}`;
      parts.push(`${dryRun ? 'Would schedule' : 'Scheduled'} ${requests(n)} in profile ${profile} for when each session's prompt cache expires (${when}).`);
    }
    if (plan.dueNow.length > 0) {
      const k = plan.dueNow.length;
      parts.push(`${k} session${k === 1 ? '' : 's'} whose cache had expired ${dryRun ? 'would be' : k === 1 ? 'was' : 'were'} refreshed now.`);
    }
    if (parts.length === 0) parts.push(`No stale session in profile ${profile}: nothing to refresh.`);
    return parts.join(' ');
  }

  private tell(event: ScheduleEvent): void {
    const where = (dbFile: string) => `profile ${this.profileOf(dbFile)?.profile.name ?? dbFile}`;
    switch (event.kind) {
      case 'written':
        this.log.info(`Refreshed when free in ${where(event.dbFile)}: ${event.sessionIds.join(', ')} (each one's prompt cache had expired).`);
        this.hooks.sessionsChanged();
        return;
      case 'cancelled':
        this.log.info(`Refresh when free of session ${event.sessionId} in ${where(event.dbFile)} dropped: ${CANCEL_WORDS[event.why]}.`);
        return;
      case 'failed':
        this.log.warn(`Refresh when free in ${where(event.dbFile)} failed for ${event.sessionIds.join(', ')}: ${event.message}`);
        this.hooks.sessionsChanged();
        return;
      case 'problem':
        this.log.warn(event.message);
        return;
    }
  }
}

function requests(n: number): string {
  return `${n} refresh request${n === 1 ? '' : 's'}`;
}
