// The first analysis of the home gates the answers that need it: a client that asks for a hover or
// code lenses right after `initialized` (Neovim, a script, VS Code's first second) would otherwise
// be answered from an empty model. Requests wait for it, bounded: past the limit they get what is
// known, and a word that the analysis is still running.

/** Starts a timer that calls `fire` after `ms`; returns what cancels it. */
export type StartTimer = (ms: number, fire: () => void) => () => void;

/** How long a request waits for the first analysis before it is answered with what is known. */
export const FIRST_ANALYSIS_WAIT_MS = 10_000;

const realTimer: StartTimer = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

export class FirstAnalysis {
  private done = false;
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly limitMs: number = FIRST_ANALYSIS_WAIT_MS,
    private readonly startTimer: StartTimer = realTimer,
  ) {}

  get finished(): boolean {
    return this.done;
  }

  /** The first analysis is done (or failed and said so): every waiting request is answered now. */
  finish(): void {
    if (this.done) return;
    this.done = true;
    for (const answer of [...this.waiting]) answer();
  }

  /**
   * `answer(false)` once the first analysis has finished (at once, not in a promise, when it has);
   * `answer(true)` when it has not within the limit: what is known then, to be marked as such.
   */
  answer<T>(answer: (stillRunning: boolean) => T): T | Promise<T> {
    if (this.done) return answer(false);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let cancel: () => void = () => {};
      const settle = (stillRunning: boolean) => {
        if (settled) return;
        settled = true;
        this.waiting.delete(onFinish);
        cancel();
        try {
          resolve(answer(stillRunning));
        } catch (error) {
          reject(error);
        }
      };
      const onFinish = () => settle(false);
      this.waiting.add(onFinish);
      const stop = this.startTimer(this.limitMs, () => settle(true));
      if (settled) stop();
      else cancel = stop;
    });
  }
}
