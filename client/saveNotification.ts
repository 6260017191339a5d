// One click after a save: when the server reports that saving a file made sessions stale, offer to
// refresh them (setting `hermesLens.notifyOnSave`). One open notification per profile at a time.
import * as vscode from 'vscode';
import { SavedSourceNotification, type SavedSourceParams } from '../shared/protocol';
import type { Ctx } from './ctx';
import { savedSourceMessage } from './format';
import { COMMANDS } from './ids';

export function registerSaveNotification(ctx: Ctx): void {
  const open = new Set<string>();
  const onSaved = async (p: SavedSourceParams) => {
    if (p.newlyStale <= 0 || open.has(p.profile)) return;
    let resource: vscode.Uri | undefined;
    try {
      resource = vscode.Uri.parse(p.uri, true);
    } catch {
      resource = undefined;
    }
    if (!ctx.config.get(resource).notifyOnSave) return;
    open.add(p.profile);
    try {
      const choice = await vscode.window.showInformationMessage(savedSourceMessage(p), 'Refresh', 'Not now');
      if (choice === 'Refresh') await vscode.commands.executeCommand(COMMANDS.refreshProfile, p.profile);
    } finally {
      open.delete(p.profile);
    }
  };
  ctx.onClient((client) => [client.onNotification(SavedSourceNotification, (p) => void onSaved(p))]);
}
