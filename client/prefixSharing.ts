// The home's prefix families as the client holds them: fetched (hermes/prefixFamilies) when the
// server says they may have changed, one request at a time and at most one a second (Hermes writes
// come in bursts; each answer reads a few prompts), the last answer kept. The Sessions view's
// "Prefix sharing" section and the anatomy view show them.
import * as vscode from 'vscode';
import { PrefixFamiliesChangedNotification, PrefixFamiliesRequest, type PrefixFamiliesDto } from '../shared/prefixFamilies';
import { errorMessage, type Ctx } from './ctx';

export class PrefixSharing implements vscode.Disposable {
  private families_: PrefixFamiliesDto | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  /** The families changed (a new answer came in, or the server stopped). */
  readonly onDidChange = this.emitter.event;
  private inFlight: Promise<void> | undefined;
  private again = false;
  private lastAsked = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: Ctx) {
    ctx.onClient((client) => [
      client.onNotification(PrefixFamiliesChangedNotification, () => this.changed()),
      { dispose: () => this.clear() },
    ]);
  }

  /** The server says they may have changed: asked now, or a second after the last time. */
  private changed(): void {
    if (this.timer) return;
    const wait = this.lastAsked + MIN_INTERVAL_MS - Date.now();
    if (wait <= 0) void this.fetch();
    else this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.fetch();
    }, wait);
  }

  get families(): PrefixFamiliesDto | undefined {
    return this.families_;
  }

  /** Asks the server now (a change while a request runs asks once more after it); settles when the answer is in. */
  fetch(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = (async () => {
      try {
        do {
          this.again = false;
          this.lastAsked = Date.now();
          this.families_ = await this.ctx.request(PrefixFamiliesRequest, {});
          this.emitter.fire();
        } while (this.again);
      } catch (e) {
        this.ctx.output.warn(`Prefix families: ${errorMessage(e)}`);
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.families_ = undefined;
    this.emitter.fire();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.emitter.dispose();
  }
}

/** Families asked at most this often. */
const MIN_INTERVAL_MS = 1000;
