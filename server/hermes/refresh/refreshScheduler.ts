// Refresh when free, over time: each scheduled session's request is recorded at the moment its
// prompt cache expires (whenFree.ts), through the caller's `write` (the existing refresh path, one
// short transaction). Before that, every look at the sessions can cancel an entry (the session is
// current again, refreshed by other means, ended) or move it (active again: warm again). One timer,
// for the earliest entry; the clock and timers are passed in, so tests drive time by hand.
import { describeError } from '../errors';
import type { Clock } from '../timers';
import type { ScheduleFiles, StoredRefresh } from './scheduleFiles';
import { planWhenFree, whenFree, type CancelReason, type SessionNow, type WhenFreePlan } from './whenFree';

export interface ScheduledRefresh extends StoredRefresh {
  readonly dbFile: string;
}

export type ScheduleEvent =
  | { readonly kind: 'written'; readonly dbFile: string; readonly sessionIds: readonly string[] }
  | { readonly kind: 'cancelled'; readonly dbFile: string; readonly sessionId: string; readonly why: CancelReason }
  | { readonly kind: 'failed'; readonly dbFile: string; readonly sessionIds: readonly string[]; readonly message: string }
  /** A kept schedule that could not be read or written. */
  | { readonly kind: 'problem'; readonly message: string };

export interface SchedulerDeps {
  readonly clock: Clock;
  /** The sessions of a state.db as they are now, by id; undefined when they cannot be read now (its entries wait). */
  sessions(dbFile: string): ReadonlyMap<string, SessionNow> | undefined;
  /** Records the refresh requests of these sessions (one transaction); throws when it cannot. */
  write(dbFile: string, sessionIds: readonly string[]): void;
  /** Before the timer's look at these databases: bring what `sessions` answers up to date. */
  freshen?(dbFiles: readonly string[]): void;
  /** Where the schedule is kept between runs; absent: in memory only. */
  readonly files?: ScheduleFiles;
  onEvent?(event: ScheduleEvent): void;
  /** The entries changed (added, moved, written or cancelled). */
  onChange?(): void;
}

interface Entry {
  readonly dbFile: string;
  readonly sessionId: string;
  dueAt: number;
  /** Its sessions could not be read at the last look: no timer for it until the next look. */
  held: boolean;
}

export class RefreshScheduler {
  private readonly entries = new Map<string, Entry>();
  private timer: unknown;
  private disposed = false;

  constructor(private readonly deps: SchedulerDeps) {}

  /** The entries, earliest first. */
  list(): ScheduledRefresh[] {
    return [...this.entries.values()].sort((a, b) => a.dueAt - b.dueAt).map(({ dbFile, sessionId, dueAt }) => ({ dbFile, sessionId, dueAt }));
  }

  /**
   * Schedules these sessions' requests for when each one's cache expires. Those whose cache has
   * expired already are written now (a failure to write throws, and nothing is scheduled).
   */
  add(dbFile: string, sessionIds: readonly string[]): WhenFreePlan {
    const plan = planWhenFree(this.deps.sessions(dbFile) ?? new Map(), sessionIds, this.deps.clock.now());
    if (plan.dueNow.length > 0) {
      this.deps.write(dbFile, plan.dueNow);
      this.deps.onEvent?.({ kind: 'written', dbFile, sessionIds: plan.dueNow });
    }
    for (const { sessionId, dueAt } of plan.waiting) this.entries.set(keyOf(dbFile, sessionId), { dbFile, sessionId, dueAt, held: false });
    this.changed(new Set([dbFile]));
    return plan;
  }

  /** Takes up what was kept for `dbFile` in an earlier run; a request due meanwhile is written now. */
  resume(dbFile: string): void {
    const kept = this.deps.files?.load(dbFile);
    if (!kept) return;
    if (kept.problem) this.deps.onEvent?.({ kind: 'problem', message: kept.problem });
    for (const e of kept.entries) this.entries.set(keyOf(dbFile, e.sessionId), { dbFile, sessionId: e.sessionId, dueAt: e.dueAt, held: false });
    if (kept.entries.length > 0) this.reconcile([dbFile]);
  }

  /**
   * Looks at the sessions of these databases (all when none are named): cancels the entries whose
   * session no longer needs one, moves those active again, and writes those due.
   */
  reconcile(dbFiles?: readonly string[]): void {
    if (this.disposed) return;
    const now = this.deps.clock.now();
    const wanted = dbFiles && new Set(dbFiles);
    const read = new Map<string, ReadonlyMap<string, SessionNow> | undefined>();
    const touched = new Set<string>();
    const due = new Map<string, string[]>();
    for (const [key, entry] of this.entries) {
      if (wanted && !wanted.has(entry.dbFile)) continue;
      if (!read.has(entry.dbFile)) read.set(entry.dbFile, this.deps.sessions(entry.dbFile));
      const sessions = read.get(entry.dbFile);
      entry.held = sessions === undefined;
      if (!sessions) continue;
      const verdict = whenFree(sessions.get(entry.sessionId), now);
      if (verdict.kind === 'cancel') {
        this.entries.delete(key);
        touched.add(entry.dbFile);
        this.deps.onEvent?.({ kind: 'cancelled', dbFile: entry.dbFile, sessionId: entry.sessionId, why: verdict.why });
      } else if (verdict.kind === 'wait') {
        if (verdict.dueAt !== entry.dueAt) touched.add(entry.dbFile);
        entry.dueAt = verdict.dueAt;
      } else {
        due.set(entry.dbFile, [...(due.get(entry.dbFile) ?? []), entry.sessionId]);
      }
    }
    for (const [dbFile, sessionIds] of due) this.writeDue(dbFile, sessionIds);
    for (const dbFile of due.keys()) touched.add(dbFile);
    this.changed(touched);
  }

  /** Drops the waiting requests `which` picks, as the user asked; the entries dropped. */
  cancel(which: (entry: ScheduledRefresh) => boolean): ScheduledRefresh[] {
    const dropped: ScheduledRefresh[] = [];
    for (const [key, entry] of this.entries) {
      if (!which(entry)) continue;
      this.entries.delete(key);
      dropped.push({ dbFile: entry.dbFile, sessionId: entry.sessionId, dueAt: entry.dueAt });
      this.deps.onEvent?.({ kind: 'cancelled', dbFile: entry.dbFile, sessionId: entry.sessionId, why: 'asked' });
    }
    this.changed(new Set(dropped.map((e) => e.dbFile)));
    return dropped.sort((a, b) => a.dueAt - b.dueAt);
  }

  /** Stops the timer; the entries stay kept for the next run. */
  dispose(): void {
    this.disposed = true;
    this.disarm();
  }

  /** Due entries are written and leave the schedule, whether the write succeeds or not (a failure is told). */
  private writeDue(dbFile: string, sessionIds: string[]): void {
    for (const id of sessionIds) this.entries.delete(keyOf(dbFile, id));
    try {
      this.deps.write(dbFile, sessionIds);
      this.deps.onEvent?.({ kind: 'written', dbFile, sessionIds });
    } catch (error) {
      this.deps.onEvent?.({ kind: 'failed', dbFile, sessionIds, message: describeError(error) });
    }
  }

  /** After a change: keeps the schedule of these databases, sets the timer, and tells. */
  private changed(dbFiles: ReadonlySet<string>): void {
    for (const dbFile of dbFiles) this.keep(dbFile);
    this.arm();
    if (dbFiles.size > 0) this.deps.onChange?.();
  }

  private keep(dbFile: string): void {
    const files = this.deps.files;
    if (!files) return;
    try {
      files.save(dbFile, this.list().filter((e) => e.dbFile === dbFile));
    } catch (error) {
      this.deps.onEvent?.({ kind: 'problem', message: `The refresh schedule could not be kept on disk (${describeError(error)}); it holds while this process runs.` });
    }
  }

  private arm(): void {
    this.disarm();
    if (this.disposed) return;
    let first: Entry | undefined;
    for (const e of this.entries.values()) if (!e.held && (!first || e.dueAt < first.dueAt)) first = e;
    if (!first) return;
    const ms = Math.ceil((first.dueAt - this.deps.clock.now()) * 1000);
    this.timer = this.deps.clock.setTimer(Math.max(0, ms), () => this.fire());
  }

  private disarm(): void {
    if (this.timer !== undefined) this.deps.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    const now = this.deps.clock.now();
    const dbFiles = [...new Set([...this.entries.values()].filter((e) => !e.held && e.dueAt <= now).map((e) => e.dbFile))];
    // A look at the databases as they are now: a turn taken just before the expiry keeps the cache warm.
    if (dbFiles.length > 0) this.deps.freshen?.(dbFiles);
    this.reconcile(dbFiles.length > 0 ? dbFiles : undefined);
  }
}

function keyOf(dbFile: string, sessionId: string): string {
  return `${dbFile}\u0000${sessionId}`;
}
