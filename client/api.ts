// What activate() returns: lets in-host tests (and other extensions) wait for the server and read
// what the views show, without sleeping.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { SessionListResult, StatusParams } from '../shared/protocol';
import type { Ctx } from './ctx';

export interface HermesLensApi {
  /** Resolves once the server runs and the first session list is in, or once starting it failed. Never rejects. */
  readonly ready: Promise<void>;
  /** The running language client (undefined before start, after a failed start, while restarting). */
  client(): LanguageClient | undefined;
  /** The last session list (pushed by SessionListChangedNotification or fetched). */
  sessions(): SessionListResult | undefined;
  readonly onDidChangeSessions: vscode.Event<SessionListResult>;
  /** The last StatusNotification (driver, stale count, cost). */
  status(): StatusParams | undefined;
}

export function createApi(ctx: Ctx, ready: Promise<void>): HermesLensApi {
  return {
    ready,
    client: () => ctx.client,
    sessions: () => ctx.sessions,
    onDidChangeSessions: ctx.onDidChangeSessions,
    status: () => ctx.status,
  };
}
