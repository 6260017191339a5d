// A clock tests move by hand: timers fire when `advance` passes their time, in order, and never
// otherwise. What waits for time (refresh when free) is tested without waiting for any.
import type { Clock } from '../../server/hermes/timers';

interface Timer {
  readonly at: number;
  readonly fire: () => void;
}

export class FakeClock implements Clock {
  private readonly timers = new Set<Timer>();

  /** `seconds`: epoch seconds to start at. */
  constructor(private seconds: number) {}

  now(): number {
    return this.seconds;
  }

  setTimer(ms: number, fire: () => void): unknown {
    const timer = { at: this.seconds + Math.max(0, ms) / 1000, fire };
    this.timers.add(timer);
    return timer;
  }

  clearTimer(timer: unknown): void {
    this.timers.delete(timer as Timer);
  }

  /** Timers set and not yet fired or cleared. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time on by `seconds`, firing each timer due on the way at its own time, earliest first. */
  advance(seconds: number): void {
    const end = this.seconds + seconds;
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.timers) if (t.at <= end && (!next || t.at < next.at)) next = t;
      if (!next) break;
      this.timers.delete(next);
      this.seconds = Math.max(this.seconds, next.at);
      next.fire();
    }
    this.seconds = end;
  }

  /** Moves time to `epochSeconds` (see advance). */
  advanceTo(epochSeconds: number): void {
    this.advance(epochSeconds - this.seconds);
  }
}
