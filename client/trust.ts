// Workspace trust (Restricted Mode): everything reads, nothing writes. The server learns the trust
// state from initializationOptions and from `hermes/trustChanged` when the user grants trust.
import * as vscode from 'vscode';
import { DidChangeConfigurationNotification } from 'vscode-languageclient/node';
import { TrustChangedNotification } from '../shared/protocol';
import type { Ctx } from './ctx';
import { RESTRICTED_MODE_MESSAGE } from './ids';

/** True in a trusted workspace; otherwise says why writing is off and returns false. */
export function ensureTrusted(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(RESTRICTED_MODE_MESSAGE, 'Manage Workspace Trust').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return false;
}

export function registerTrust(ctx: Ctx): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(async () => {
    ctx.output.info('Workspace trusted: refreshing is enabled.');
    // Restricted settings (hermesLens.server.runtime) may now take a workspace value.
    if (ctx.config.serverRuntime !== ctx.runtimeOfRunningServer && ctx.client) {
      await ctx.restart();
      return;
    }
    const client = ctx.client;
    if (!client || !client.isRunning()) return;
    await client.sendNotification(TrustChangedNotification, { isTrusted: true });
    // And have it pull `hermesLens` again: restricted settings (hermesLens.home) may now apply.
    await client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  });
}
