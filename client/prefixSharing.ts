// The home's prefix families as the client holds them: fetched (hermes/prefixFamilies) when the
// server says they may have changed, one request at a time, the last answer kept. The Sessions
// view's "Prefix sharing" section shows them.
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

  constructor(private readonly ctx: Ctx) {
    ctx.onClient((client) => [
      client.onNotification(PrefixFamiliesChangedNotification, () => void this.fetch()),
      { dispose: () => this.clear() },
    ]);
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
    this.families_ = undefined;
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
