// The refresh requests the server will record when free (hermes/refreshScheduleChanged): which
// session's request waits until when. The tree shows each as a countdown.
import * as vscode from 'vscode';
import { RefreshScheduleChangedNotification, type ScheduledRefreshDto } from '../shared/protocol';
import type { Ctx } from './ctx';
import { CONTEXT_KEYS } from './ids';

export class RefreshSchedule implements vscode.Disposable {
  private byKey = new Map<string, ScheduledRefreshDto>();
  private readonly emitter = new vscode.EventEmitter<void>();
  /** The schedule changed. */
  readonly onDidChange = this.emitter.event;

  constructor(ctx: Ctx) {
    ctx.onClient((client) => [client.onNotification(RefreshScheduleChangedNotification, ({ entries }) => this.replace(entries))]);
  }

  /** When the session's request is due (epoch seconds), if one is scheduled. */
  dueAt(profile: string, sessionId: string): number | undefined {
    return this.byKey.get(keyOf(profile, sessionId))?.at;
  }

  get size(): number {
    return this.byKey.size;
  }

  private replace(entries: readonly ScheduledRefreshDto[]): void {
    this.byKey = new Map(entries.map((e) => [keyOf(e.profile, e.sessionId), e]));
    // The Cancel Refresh When Free command shows while anything waits.
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.refreshesScheduled, entries.length > 0);
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

function keyOf(profile: string, sessionId: string): string {
  return `${profile}\u0000${sessionId}`;
}
