// Time as waiting code sees it, passed in rather than taken from the globals: the language server
// and the CLI pass the system's, tests a clock they move by hand (no test waits for real time).

export interface Timers {
  /** Calls `fire` once, after `ms` milliseconds; returns what `clearTimer` takes. */
  setTimer(ms: number, fire: () => void): unknown;
  clearTimer(timer: unknown): void;
}

export interface Clock extends Timers {
  /** Now, in epoch seconds (Hermes' unit). */
  now(): number;
}

/** setTimeout's longest delay; a later time is reached in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The system's timers. `keepAlive: false` for a process that runs for other reasons (the language
 * server): a timer then never keeps it running on its own.
 */
export function systemTimers(keepAlive: boolean): Timers {
  return {
    setTimer(ms, fire) {
      const timer = setTimeout(fire, Math.min(Math.max(0, ms), LONGEST_TIMER_MS));
      if (!keepAlive) timer.unref();
      return timer;
    },
    clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
  };
}

export function systemClock(keepAlive: boolean): Clock {
  return { now: () => Date.now() / 1000, ...systemTimers(keepAlive) };
}
