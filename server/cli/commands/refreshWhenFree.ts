// `hermes-lens refresh --when-free`: each stale session's refresh request recorded when its prompt
// cache expires (hermes/refresh/refreshScheduler.ts), so it adds only the prompt change. It waits
// until every request is written: a progress line on stderr when that is a terminal, one line per
// write otherwise. Ctrl-C stops it between writes (each is one transaction): what is written is
// whole, the rest is not. `--schedule-only` prints `<session> <time>` lines and writes nothing.
import { analyzeProfile } from '../../hermes/engine/analyzeProfile';
import { HermesError } from '../../hermes/errors';
import type { Profile } from '../../hermes/model';
import { RefreshScheduler, type ScheduleEvent } from '../../hermes/refresh/refreshScheduler';
import { requestRefresh, type RefreshStrategy } from '../../hermes/refresh/requestRefresh';
import { CANCEL_WORDS, planWhenFree, type CancelReason, type SessionNow, type WhenFreePlan } from '../../hermes/refresh/whenFree';
import { systemTimers, type Clock } from '../../hermes/timers';
import type { HermesBuild } from '../../hermes/install/hermesBuild';
import type { RefreshKeys } from '../../hermes/refresh/epochs';
import { formatWait } from '../../../shared/waitText';
import { outJson, type CommandIO } from '../io';

export interface WhenFreeTarget {
  readonly profile: Profile;
  readonly dbFile: string;
  readonly homeRoot: string;
  /** One session (`--session`), else the profile's stale sessions. */
  readonly sessionId: string | undefined;
  readonly strategy: RefreshStrategy;
  /** The Hermes build that serves the home: no request is written that it would never read. */
  readonly build: HermesBuild;
  /** The refresh protocol's names in use. */
  readonly keys: RefreshKeys;
  readonly scheduleOnly: boolean;
  readonly json: boolean;
}

/** Exit code after Ctrl-C (128 + SIGINT), as a shell reports it. */
const INTERRUPTED = 130;

export function refreshWhenFree(target: WhenFreeTarget, io: CommandIO): number | Promise<number> {
  const timers = io.timers ?? systemTimers(true);
  const clock: Clock = { now: () => io.now(), setTimer: (ms, fire) => timers.setTimer(ms, fire), clearTimer: (timer) => timers.clearTimer(timer) };
  const sessionsNow = () => sessionsOf(target, clock.now());
  const sessions = sessionsNow();
  if (target.sessionId !== undefined && !sessions.has(target.sessionId)) {
    throw new HermesError('session-missing', `No live session ${target.sessionId} in ${target.dbFile}. "hermes-lens status" lists them.`, target.dbFile);
  }
  const ids = target.sessionId !== undefined ? [target.sessionId] : [...sessions.values()].filter((s) => s.state === 'stale').map((s) => s.id);
  const plan = planWhenFree(sessions, ids, clock.now());
  for (const { sessionId, why } of plan.skipped) io.err(`Session ${sessionId}: nothing to refresh (${CANCEL_WORDS[why]}).`);
  if (plan.dueNow.length + plan.waiting.length === 0) {
    if (target.sessionId === undefined) io.err(`No stale session in profile ${target.profile.name}: nothing to refresh.`);
    return target.json ? (outJson(io, { profile: target.profile.name, written: [], dropped: plan.skipped }), 0) : 0;
  }
  if (target.scheduleOnly) return printSchedule(target, plan, clock.now(), io);
  return waitAndWrite(target, ids, clock, sessionsNow, io);
}

type SessionMap = ReadonlyMap<string, SessionNow & { readonly id: string }>;

/** The profile's live sessions as they are now, read again (Hermes may have written since). */
function sessionsOf(target: WhenFreeTarget, now: number): SessionMap {
  const report = analyzeProfile(target.profile, { now }).report;
  if (report.unavailable) throw new HermesError('db-unreadable', report.unavailable, target.dbFile);
  return new Map(report.sessions.map((s) => [s.id, s]));
}

function printSchedule(target: WhenFreeTarget, plan: WhenFreePlan, now: number, io: CommandIO): number {
  const times = [...plan.dueNow.map((sessionId) => ({ sessionId, at: now })), ...plan.waiting.map((w) => ({ sessionId: w.sessionId, at: w.dueAt }))];
  if (target.json) outJson(io, { profile: target.profile.name, schedule: times.map((t) => ({ sessionId: t.sessionId, at: t.at, time: isoTime(t.at) })) });
  else io.out(times.map((t) => `${t.sessionId} ${isoTime(t.at)}`).join('\n'));
  return 0;
}

function waitAndWrite(target: WhenFreeTarget, ids: readonly string[], clock: Clock, sessionsNow: () => SessionMap, io: CommandIO): Promise<number> {
  const written: Array<{ sessionId: string; at: number }> = [];
  const dropped: Array<{ sessionId: string; why: CancelReason }> = [];
  const failed: Array<{ sessionId: string; message: string }> = [];
  const progress = new Progress(io, clock);
  return new Promise<number>((resolve, reject) => {
    let finished = false;
    const stop = () => {
      finished = true;
      scheduler.dispose();
      stopListening?.();
      progress.stop();
    };
    const finish = (code: number, interrupted: boolean) => {
      if (finished) return;
      stop();
      if (interrupted) io.err(`Stopped: ${written.length} of ${written.length + scheduler.list().length} requests written; the rest were not recorded.`);
      report(target, { written, dropped, failed, interrupted }, io);
      resolve(code);
    };
    const scheduler = new RefreshScheduler({
      clock,
      sessions: () => sessionsNow(),
      write: (dbFile, sessionIds) =>
        void requestRefresh({ dbFile, profileName: target.profile.name, sessionIds, strategy: target.strategy, profileDir: target.profile.dir, homeRoot: target.homeRoot, build: target.build, keys: target.keys }),
      onEvent: (event) => {
        record(event, clock.now(), { written, dropped, failed });
        progress.event(event);
      },
      onChange: () => {
        progress.update(written.length, scheduler.list());
        if (scheduler.list().length === 0) finish(failed.length > 0 ? 1 : 0, false);
      },
    });
    const stopListening = io.onInterrupt?.(() => finish(INTERRUPTED, true));
    try {
      scheduler.add(target.dbFile, ids);
    } catch (error) {
      // The requests due at once could not be written: nothing was scheduled.
      stop();
      reject(error);
    }
  });
}

interface Outcome {
  readonly written: Array<{ sessionId: string; at: number }>;
  readonly dropped: Array<{ sessionId: string; why: CancelReason }>;
  readonly failed: Array<{ sessionId: string; message: string }>;
}

function record(event: ScheduleEvent, now: number, outcome: Outcome): void {
  if (event.kind === 'written') for (const sessionId of event.sessionIds) outcome.written.push({ sessionId, at: now });
  else if (event.kind === 'cancelled') outcome.dropped.push({ sessionId: event.sessionId, why: event.why });
  else if (event.kind === 'failed') for (const sessionId of event.sessionIds) outcome.failed.push({ sessionId, message: event.message });
}

/** What was done, on stdout: one line per request written (and dropped), or the JSON of it all. */
function report(target: WhenFreeTarget, o: Outcome & { readonly interrupted: boolean }, io: CommandIO): void {
  if (target.json) {
    outJson(io, { profile: target.profile.name, written: o.written.map((w) => ({ ...w, time: isoTime(w.at) })), dropped: o.dropped, failed: o.failed, interrupted: o.interrupted });
    return;
  }
  const n = o.written.length;
  if (n > 0) io.out(`Requested a system prompt refresh for ${n === 1 ? `session ${o.written[0]!.sessionId}` : `${n} sessions`}, each when its prompt cache had expired: each rebuilds its system prompt at the start of its next turn.`);
  for (const f of o.failed) io.err(`Session ${f.sessionId}: the refresh request failed: ${f.message}`);
}

/**
 * How the wait shows on stderr: at a terminal, one line redrawn every second (`1 of 3 written ·
 * next <id> in 4m`); elsewhere a line per request written or dropped, as it happens.
 */
class Progress {
  private timer: unknown;
  private line = '';
  private written = 0;
  private waiting: ReadonlyArray<{ sessionId: string; dueAt: number }> = [];

  constructor(
    private readonly io: CommandIO,
    private readonly clock: Clock,
  ) {}

  private get inPlace(): boolean {
    return this.io.errTerminal === true && this.io.errInPlace !== undefined;
  }

  event(event: ScheduleEvent): void {
    if (this.inPlace) return;
    const at = isoTime(this.clock.now());
    if (event.kind === 'written') for (const id of event.sessionIds) this.io.err(`${at} requested a refresh of session ${id} (its prompt cache expired)`);
    else if (event.kind === 'cancelled') this.io.err(`${at} session ${event.sessionId}: no refresh needed any more (${CANCEL_WORDS[event.why]})`);
  }

  update(written: number, waiting: ReadonlyArray<{ sessionId: string; dueAt: number }>): void {
    this.written = written;
    this.waiting = waiting;
    if (!this.inPlace) {
      if (!this.line && waiting.length > 0) {
        this.line = 'waiting';
        this.io.err(`Waiting to refresh ${waiting.length} session${waiting.length === 1 ? '' : 's'} when free; the last at ${isoTime(waiting.at(-1)!.dueAt)}. Ctrl-C stops.`);
      }
      return;
    }
    const next = waiting[0];
    this.line = `Refreshing when free: ${written} of ${written + waiting.length} written${next ? ` · next ${next.sessionId} in ${formatWait(next.dueAt - this.clock.now())}` : ''} (Ctrl-C stops)`;
    this.io.errInPlace!(`\r\x1b[K${this.line}`);
    // Redrawn each second while something waits: the countdown.
    if (this.timer === undefined && next) this.timer = this.clock.setTimer(1000, () => this.tick());
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    if (this.inPlace && this.line) this.io.errInPlace!('\r\x1b[K');
  }

  private tick(): void {
    this.timer = undefined;
    this.update(this.written, this.waiting);
  }
}

/** `2027-01-15T06:04:00Z`: UTC, to the second. */
function isoTime(epochSeconds: number): string {
  return new Date(Math.round(epochSeconds) * 1000).toISOString().replace('.000Z', 'Z');
}
