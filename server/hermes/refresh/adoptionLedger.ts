// The watches of one profile's refresh requests (adoption.ts), kept between evaluations and runs
// (adoptionFiles.ts). An evaluation first reconciles them with the sessions it read, at a cost of
// one lookup per watch (a Hermes write changes a row or two); the pass over the sessions then
// starts a watch for a pending session that has none, and reports each session's watch.
import type { SessionRecord } from '../model';
import { newWatch, observe, type AdoptionWatch, type PredictedCost } from './adoption';
import type { AdoptionFiles } from './adoptionFiles';
import type { RefreshKeys } from './epochs';

/** What an evaluation read, as reconcile asks it. */
export interface ReadForAdoption {
  /** The session as read now; undefined when it is not listed. */
  recordOf(sessionId: string): SessionRecord | undefined;
  /** Every row was read again (not only the rows a turn touched). */
  readonly full: boolean;
  /** The identity of the session's stored prompt, when it can be told. */
  promptOf(record: SessionRecord): string | undefined;
  readonly keys: RefreshKeys;
  readonly now: number;
}

export interface AdoptionCounts {
  readonly adopted: number;
  readonly adoptedStampUnread: number;
  /** Requested, no turn yet. */
  readonly waiting: number;
  readonly notAdopted: number;
}

/** A stamp key seen taking an epoch in one of these sessions. */
export interface StampSeen {
  readonly stampKey: string;
  readonly sessionId: string;
  readonly epoch: number;
}

const NONE: ReadonlySet<string> = new Set();

export class AdoptionLedger {
  private readonly watches = new Map<string, AdoptionWatch>();
  /** The record each watch was last observed with: a row unchanged since tells nothing new. */
  private readonly observed = new Map<string, SessionRecord>();
  private changed = false;
  /** Sessions whose watch the last reconcile changed: their reports are made again. */
  moved: ReadonlySet<string> = NONE;
  /** The stamp key the last reconcile saw take an epoch, if it did. */
  stampSeen: StampSeen | undefined;

  constructor(
    readonly dbFile: string,
    private readonly files: AdoptionFiles,
  ) {
    for (const w of files.load(dbFile)) this.watches.set(w.sessionId, w);
  }

  get size(): number {
    return this.watches.size;
  }

  of(sessionId: string): AdoptionWatch | undefined {
    return this.watches.get(sessionId);
  }

  all(): AdoptionWatch[] {
    return [...this.watches.values()];
  }

  /** Brings every watch up to date with what an evaluation read. */
  reconcile(read: ReadForAdoption): void {
    this.stampSeen = undefined;
    if (this.watches.size === 0) {
      this.moved = NONE;
      return;
    }
    let moved: Set<string> | undefined;
    for (const [id, watch] of this.watches) {
      const record = read.recordOf(id);
      if (!record || record.endedAt !== undefined) {
        // The session went or ended: it takes no more turns.
        this.watches.delete(id);
        this.observed.delete(id);
        (moved ??= new Set()).add(id);
        this.changed = true;
        continue;
      }
      const waitsForFullRead = read.full && watch.state === 'pending' && watch.after !== null;
      if (record === this.observed.get(id) && !waitsForFullRead) continue;
      this.observed.set(id, record);
      const now = observe(watch, record, read.keys, read.promptOf(record), read.full, read.now);
      if (now === watch) continue;
      this.watches.set(id, now);
      (moved ??= new Set()).add(id);
      this.changed = true;
      if (now.state === 'adopted-stamp-unread' && now.stampKey !== null && watch.state === 'pending') this.stampSeen = { stampKey: now.stampKey, sessionId: id, epoch: now.epoch };
    }
    this.moved = moved ?? NONE;
  }

  /**
   * The watch of a session that a request of `epoch` leaves pending: its own when it has one for
   * that request, else a new one from `record` as read now (`by`: who made the request).
   */
  watchPending(record: SessionRecord, epoch: number, keys: RefreshKeys, prompt: string | undefined, now: number, predicted: PredictedCost | null, by: AdoptionWatch['by'] = 'seen'): AdoptionWatch {
    const known = this.watches.get(record.id);
    if (known && known.epoch >= epoch) return known;
    const watch = newWatch(record, epoch, keys, prompt, now, by, predicted);
    this.watches.set(record.id, watch);
    this.observed.set(record.id, record);
    this.changed = true;
    return watch;
  }

  /** Whether anything changed since the last `persist`. */
  get unsaved(): boolean {
    return this.changed;
  }

  /** Keeps the watches (merged into what other processes kept); `listed`: the sessions that still exist. */
  persist(listed?: ReadonlySet<string>): void {
    if (!this.changed) return;
    this.changed = false;
    this.files.save(this.dbFile, this.all(), listed);
  }

  counts(): AdoptionCounts {
    return countsOf(this.watches.values());
  }
}

export function countsOf(watches: Iterable<AdoptionWatch | undefined>): AdoptionCounts {
  let adopted = 0;
  let adoptedStampUnread = 0;
  let waiting = 0;
  let notAdopted = 0;
  for (const w of watches) {
    if (w?.state === 'adopted') adopted++;
    else if (w?.state === 'adopted-stamp-unread') adoptedStampUnread++;
    else if (w?.state === 'pending') waiting++;
    else if (w?.state === 'not-adopted') notAdopted++;
  }
  return { adopted, adoptedStampUnread, waiting, notAdopted };
}
