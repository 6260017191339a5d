// The prompt anatomy view with the real `vscode` API: its command opens one webview panel (for a
// session, for a profile's newest live session), and the hover of SOUL.md links to it with a
// command link trusted for that command alone. Reads only: the demo home is left as it is.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HermesLensApi } from '../../../client/api';
import { ANATOMY_VIEW_TYPE, COMMANDS } from '../../../client/ids';
import { byRecentActivity } from '../../../shared/sessionOrder';
import { activateLens, manifest } from './host';

/** The labels of the open prompt anatomy panels (webview tabs of our view type). */
function anatomyTabs(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(ANATOMY_VIEW_TYPE))
    .map((t) => t.label);
}

/** Resolves once the one anatomy panel is titled `label` (the workbench renames its tab after the command returns). */
function waitForAnatomyTab(label: string, timeoutMs = 20_000): Promise<void> {
  const ok = () => anatomyTabs().length === 1 && anatomyTabs()[0] === label;
  if (ok()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`no single anatomy tab "${label}" within ${timeoutMs} ms; tabs: ${JSON.stringify(anatomyTabs())}`));
    }, timeoutMs);
    const sub = vscode.window.tabGroups.onDidChangeTabs(() => {
      if (!ok()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

describe('the prompt anatomy view in the extension host', function () {
  this.timeout(60_000);
  const demo = manifest();
  let api: HermesLensApi;
  const newestTitle = (profile: string) => {
    const live = api.sessions()!.profiles.find((p) => p.name === profile)!.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt');
    return [...live].sort(byRecentActivity)[0]!.title;
  };

  before(async function () {
    this.timeout(120_000);
    api = await activateLens();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the command opens one panel for a session, and the same panel for a profile’s newest live session', async () => {
    await vscode.commands.executeCommand(COMMANDS.showPromptAnatomy, { profile: 'default', sessionId: demo.labels['atlas-tui'] });
    await waitForAnatomyTab('Prompt Anatomy: Review the deploy pipeline');
    // A profile row of the tree passes its node.
    const work = api.sessions()!.profiles.find((p) => p.name === 'work')!;
    await vscode.commands.executeCommand(COMMANDS.showPromptAnatomy, { kind: 'profile', profile: work });
    await waitForAnatomyTab(`Prompt Anatomy: ${newestTitle('work')}`);
  });

  it('the hover of SOUL.md links to the view, trusting the two commands hovers link (the view, and clearing a prompt not refreshed) and no other', async () => {
    const soul = vscode.Uri.file(path.join(demo.root, 'SOUL.md'));
    await vscode.workspace.openTextDocument(soul);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', soul, new vscode.Position(1, 4));
    const link = hovers.flatMap((h) => h.contents).find((c): c is vscode.MarkdownString => c instanceof vscode.MarkdownString && c.value.includes(`command:${COMMANDS.showPromptAnatomy}?`));
    assert.ok(link, 'a command link in the hover');
    assert.deepEqual(link.isTrusted, { enabledCommands: [COMMANDS.showPromptAnatomy, COMMANDS.clearSessionPrompt] });
    const args = JSON.parse(decodeURIComponent(new RegExp(`command:${COMMANDS.showPromptAnatomy.replace(/\./g, '\\.')}\\?([^)]+)\\)`).exec(link.value)![1]!)) as unknown[];
    await vscode.commands.executeCommand(COMMANDS.showPromptAnatomy, ...args);
    await waitForAnatomyTab(`Prompt Anatomy: ${newestTitle('default')}`);
  });
});
