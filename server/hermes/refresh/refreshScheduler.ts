// Refresh when free, over time: each scheduled session's request is recorded at the moment its
// prompt cache expires (whenFree.ts), through the caller's `write` (the existing refresh path, one
// short transaction). Before that, every look at the sessions can cancel an entry (the session is
// current again, refreshed by other means, ended) or move it (active again: warm again). One timer,
// for the earliest entry; the clock and timers are passed in, so tests drive time by hand.
import { describeError } from '../errors';
import type { Clock } from '../timers';
import { memoryScheduleFiles, type ScheduleFiles, type StoredRefresh } from './scheduleFiles';
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
  /** Where the schedule is kept between runs, shared with other processes; absent: in memory only. */
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

/** What one look at a database decided for its entries, applied to the schedule as it is kept then. */
interface Decisions {
  readonly cancel: ReadonlyMap<string, CancelReason>;
  readonly move: ReadonlyMap<string, number>;
  readonly due: ReadonlySet<string>;
}

/**
 * The schedule as this process knows it: the entries kept for each database it follows (files,
 * shared with other language servers of this user, or memory), taken up again when the files may
 * have changed (takeUp), and changed only through `files.update`, which reads them again under
 * its lock: so what another process cancelled or wrote meanwhile is neither brought back nor
 * written twice, and a look after a Hermes write reads no file unless it changes the schedule.
 */
export class RefreshScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly followed = new Set<string>();
  /** Databases whose schedule could not be kept in the files: held in memory from then on. */
  private readonly unkept = new Set<string>();
  private readonly memory = memoryScheduleFiles();
  /** The damaged file last told of, by database. */
  private readonly told = new Map<string, string>();
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
    this.followed.add(dbFile);
    const added = new Set(plan.waiting.map((w) => w.sessionId));
    this.change(dbFile, (kept) => [...kept.filter((k) => !added.has(k.sessionId)), ...plan.waiting.map(({ sessionId, dueAt }) => ({ sessionId, dueAt }))]);
    this.settled(true);
    return plan;
  }

  /** Takes up what is kept for `dbFile` (by an earlier run, or another window); a request due meanwhile is written now. */
  resume(dbFile: string): void {
    this.followed.add(dbFile);
    this.takeUp([dbFile]);
  }

  /**
   * Looks at the sessions of these databases (all followed when none are named): cancels the
   * entries whose session no longer needs one, moves those active again, and writes those due that
   * no other process has written or cancelled.
   */
  reconcile(dbFiles?: readonly string[]): void {
    this.lookAt(dbFiles, false);
  }

  /** reconcile, after taking up what is kept for these databases now (another process may have changed it). */
  takeUp(dbFiles?: readonly string[]): void {
    this.lookAt(dbFiles, true);
  }

  /** Drops the waiting requests `which` picks, as the user asked; the entries dropped. */
  cancel(which: (entry: ScheduledRefresh) => boolean): ScheduledRefresh[] {
    const dropped: ScheduledRefresh[] = [];
    let changed = false;
    for (const dbFile of this.followed) {
      let fromThis: ScheduledRefresh[] = [];
      changed =
        this.change(dbFile, (kept) => {
          // Anew at each call: a change the files could not keep is made again in memory.
          fromThis = kept.map((k) => ({ dbFile, sessionId: k.sessionId, dueAt: k.dueAt })).filter(which);
          return kept.filter((k) => !fromThis.some((e) => e.sessionId === k.sessionId));
        }) || changed;
      dropped.push(...fromThis);
    }
    for (const e of dropped) this.deps.onEvent?.({ kind: 'cancelled', dbFile: e.dbFile, sessionId: e.sessionId, why: 'asked' });
    // What another process changed comes in with the change too: tell whenever anything did.
    this.settled(changed);
    return dropped.sort((a, b) => a.dueAt - b.dueAt);
  }



  /** Stops the timer; the entries stay kept for the next run. */
  dispose(): void {
    this.disposed = true;
    this.disarm();
  }

  private lookAt(dbFiles: readonly string[] | undefined, takeUp: boolean): void {
    if (this.disposed) return;
    let changed = false;
    for (const dbFile of dbFiles ?? [...this.followed]) if (this.followed.has(dbFile)) changed = this.look(dbFile, takeUp) || changed;
    this.settled(changed);
  }

  /** One look at a database (see reconcile), taking up what is kept first or not; whether its entries changed. */
  private look(dbFile: string, takeUp: boolean): boolean {
    let changed = false;
    if (takeUp) {
      const kept = this.filesOf(dbFile).load(dbFile);
      this.damaged(dbFile, kept.problem);
      changed = this.mirror(dbFile, kept.entries);
    }
    const mine = [...this.entries.values()].filter((e) => e.dbFile === dbFile);
    const sessions = mine.length > 0 ? this.deps.sessions(dbFile) : undefined;
    for (const e of mine) e.held = sessions === undefined;
    if (sessions) {
      const now = this.deps.clock.now();
      const cancel = new Map<string, CancelReason>();
      const move = new Map<string, number>();
      const due = new Set<string>();
      for (const e of mine) {
        const verdict = whenFree(sessions.get(e.sessionId), now);
        if (verdict.kind === 'cancel') cancel.set(e.sessionId, verdict.why);
        else if (verdict.kind === 'wait') {
          if (verdict.dueAt !== e.dueAt) move.set(e.sessionId, verdict.dueAt);
        } else due.add(e.sessionId);
      }
      if (cancel.size + move.size + due.size > 0) changed = this.apply(dbFile, { cancel, move, due }) || changed;
    }
    return changed;
  }

  /** The decisions of a look, on the entries kept now; due requests still kept are written, once. Whether the entries changed. */
  private apply(dbFile: string, decided: Decisions): boolean {
    let cancelled: Array<[string, CancelReason]> = [];
    let claimed: string[] = [];
    const changed = this.change(dbFile, (kept) => {
      // Anew at each call: a change the files could not keep is made again in memory.
      cancelled = [];
      claimed = [];
      return kept.flatMap((k) => {
        const why = decided.cancel.get(k.sessionId);
        if (why) return cancelled.push([k.sessionId, why]), [];
        if (decided.due.has(k.sessionId)) return claimed.push(k.sessionId), [];
        const dueAt = decided.move.get(k.sessionId);
        return dueAt === undefined ? [k] : [{ sessionId: k.sessionId, dueAt }];
      });
    });
    for (const [sessionId, why] of cancelled) this.deps.onEvent?.({ kind: 'cancelled', dbFile, sessionId, why });
    if (claimed.length > 0) this.writeDue(dbFile, claimed);
    return changed;
  }

  /** Due requests leave the schedule (before this), whether the write succeeds or not (a failure is told). */
  private writeDue(dbFile: string, sessionIds: string[]): void {
    try {
      this.deps.write(dbFile, sessionIds);
      this.deps.onEvent?.({ kind: 'written', dbFile, sessionIds });
    } catch (error) {
      this.deps.onEvent?.({ kind: 'failed', dbFile, sessionIds, message: describeError(error) });
    }
  }

  /**
   * Changes the schedule of `dbFile` as it is kept now, and mirrors the result (whether this
   * process's entries changed). When the files cannot keep it, the change is made in memory, which
   * holds that database's schedule from then on.
   */
  private change(dbFile: string, fn: (kept: readonly StoredRefresh[]) => readonly StoredRefresh[]): boolean {
    let result;
    try {
      result = this.filesOf(dbFile).update(dbFile, fn);
    } catch (error) {
      this.deps.onEvent?.({ kind: 'problem', message: `The refresh schedule could not be kept on disk (${describeError(error)}); it holds while this process runs.` });
      this.unkept.add(dbFile);
      this.memory.update(dbFile, () => this.list().filter((e) => e.dbFile === dbFile));
      result = this.memory.update(dbFile, fn);
    }
    this.damaged(dbFile, result.problem);
    return this.mirror(dbFile, result.entries);
  }

  /** Tells of a damaged schedule file once, not at every look while it stays so. */
  private damaged(dbFile: string, problem: string | undefined): void {
    if (problem === undefined) this.told.delete(dbFile);
    else if (this.told.get(dbFile) !== problem) {
      this.told.set(dbFile, problem);
      this.deps.onEvent?.({ kind: 'problem', message: problem });
    }
  }

  private filesOf(dbFile: string): ScheduleFiles {
    return this.deps.files && !this.unkept.has(dbFile) ? this.deps.files : this.memory;
  }

  /** Makes `dbFile`'s entries those kept, each keeping whether it was held; whether any was added, dropped or moved. */
  private mirror(dbFile: string, kept: readonly StoredRefresh[]): boolean {
    const was = new Map<string, Entry>();
    for (const [key, e] of this.entries) {
      if (e.dbFile !== dbFile) continue;
      was.set(e.sessionId, e);
      this.entries.delete(key);
    }
    let changed = was.size !== kept.length;
    for (const { sessionId, dueAt } of kept) {
      const before = was.get(sessionId);
      if (before?.dueAt !== dueAt) changed = true;
      this.entries.set(keyOf(dbFile, sessionId), { dbFile, sessionId, dueAt, held: before?.held ?? false });
    }
    return changed;
  }

  /** After a change or a look: sets the timer, and tells when the entries changed. */
  private settled(changed: boolean): void {
    this.arm();
    if (changed) this.deps.onChange?.();
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
