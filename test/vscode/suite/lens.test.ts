// Runs inside the extension host with the real `vscode` API, against the extension under
// development and a generated Hermes home (the runner generates it and points `hermesLens.home` at
// it, with `hermesLens.confirmRefresh: false`: VS Code refuses modal dialogs in test mode).
// Nothing sleeps: the extension's API `ready` promise and its `onDidChangeSessions` event say when
// the server has caught up. Hermes' state.db is read outside the host (../outside.ts).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HermesLensApi } from '../../../client/api';
import { Commands, RefreshWhenFreeRequest, type CancelRefreshWhenFreeResultDto, type RefreshResultDto, type RefreshWhenFreeResultDto, type SessionListResult, type SessionStateName } from '../../../shared/protocol';
import { expectedStatusText, staleBecauseOf, totals, usd, type CliStatus } from '../../e2e/support/hermesHome';
import { writeHermesInstall, WITHOUT_REFRESH } from '../../../server/demo/hermesInstall';
import { outside } from '../outside';
import { activateLens, manifest } from './host';

const cli = (root: string) => outside<CliStatus>('cliStatus', root);
const stateMeta = (dbFile: string) => outside<Record<string, string>>('stateMeta', dbFile);

/** Resolves with the first session list (the current one or a later one) that satisfies `accept`. */
function waitForSessions(api: HermesLensApi, accept: (list: SessionListResult) => boolean, what: string, timeoutMs = 20_000): Promise<SessionListResult> {
  const now = api.sessions();
  if (now && accept(now)) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`no session list with ${what} within ${timeoutMs} ms; last: ${summary(api.sessions())}`));
    }, timeoutMs);
    const sub = api.onDidChangeSessions((list) => {
      if (!accept(list)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(list);
    });
  });
}

function summary(list: SessionListResult | undefined): string {
  return list ? list.profiles.map((p) => `${p.name}: ${p.stale} stale, ${p.pending} pending`).join('; ') : '(none)';
}

function stateOf(list: SessionListResult, profile: string, id: string): SessionStateName | undefined {
  return list.profiles.find((p) => p.name === profile)?.sessions.find((s) => s.id === id)?.state;
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

describe('Hermes Prompt Lens in the extension host', function () {
  this.timeout(60_000);
  const demo = manifest();
  const soul = path.join(demo.root, 'SOUL.md');
  const soulUri = vscode.Uri.file(soul);
  const def = demo.profiles.find((p) => p.name === 'default')!;
  const work = demo.profiles.find((p) => p.name === 'work')!;
  const install = path.join(demo.root, 'hermes-agent');
  let api: HermesLensApi;

  before(async function () {
    this.timeout(120_000);
    api = await activateLens();
    await vscode.workspace.openTextDocument(soulUri);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('activates: the API’s ready promise resolves with the server running and the demo’s sessions read', async () => {
    assert.ok(api.client()?.isRunning(), 'the language client runs');
    const list = api.sessions();
    assert.deepEqual(list?.profiles.map((p) => p.name).sort(), ['default', 'work']);
    assert.equal(list?.home, demo.root);
    const status = api.status();
    // better-sqlite3 built for this machine's Node where the host is that Node (code-server), the N-API binding in Electron.
    assert.equal(status?.driver, process.versions.electron ? '@photostructure/sqlite' : 'better-sqlite3');
    const manifestStale = Object.values(demo.sessions).filter((s) => s.state === 'stale').length;
    assert.equal(status?.stale, manifestStale);
    // The status bar shows `Hermes: <text>` (`Hermes: 3 stale · ≈ $0.84`).
    assert.equal(`Hermes: ${status?.text}`, expectedStatusText(cli(demo.root)));
  });

  it('the status item names the detected Hermes build: 0.23.0 where the installer puts it, which adopts refresh requests', () => {
    const status = api.status()!;
    assert.deepEqual([status.hermes.version, status.hermes.path, status.hermes.refresh, status.severity], ['0.23.0', install, true, 'ok']);
    // The status bar item's tooltip and the language status item show this detail.
    assert.ok(status.detail.split('\n').includes(`Hermes 0.23.0 (${install}) adopts refresh requests.`), status.detail);
  });

  it('the refresh confirmation names the build, counts the stale sessions and says the fresh ones cost nothing; Cancel writes nothing', async () => {
    // VS Code answers modal dialogs itself in test mode: the dialog the extension asks for is caught here.
    const asked: Array<{ title: string; detail: string | undefined; buttons: string[] }> = [];
    const showWarningMessage = vscode.window.showWarningMessage;
    const metaBefore = stateMeta(def.dbFile);
    await vscode.workspace.getConfiguration('hermesLens').update('confirmRefresh', true, vscode.ConfigurationTarget.Global);
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = async (title: string, options: vscode.MessageOptions, ...buttons: string[]) => {
      asked.push({ title, detail: options?.detail, buttons });
      return undefined; // Cancel
    };
    try {
      const result = await vscode.commands.executeCommand('hermesLens.refreshProfile', 'default');
      assert.equal(result, undefined, 'cancelled');
    } finally {
      (vscode.window as { showWarningMessage: unknown }).showWarningMessage = showWarningMessage;
      await vscode.workspace.getConfiguration('hermesLens').update('confirmRefresh', false, vscode.ConfigurationTarget.Global);
    }
    const profile = cli(demo.root).profiles.find((p) => p.name === 'default')!;
    assert.equal(asked.length, 1, 'one modal');
    assert.equal(asked[0]!.title, `Refresh ${profile.totals.stale} stale sessions in profile default?`);
    // Waiting for a cache to expire is offered where a stale session's cache is still warm.
    const warm = profile.sessions.some((x) => x.state === 'stale' && x.cacheWarm);
    assert.deepEqual(asked[0]!.buttons, warm ? ['Refresh', 'Refresh When Free'] : ['Refresh']);
    const detail = asked[0]!.detail!.split('\n');
    assert.ok(detail.includes(`Hermes 0.23.0 (${install}) adopts refresh requests.`), asked[0]!.detail);
    const fresh = profile.sessions.filter((x) => x.state === 'fresh').length;
    assert.ok(detail.some((l) => l.startsWith("Records Hermes' profile-wide refresh request.") && l.includes(`${fresh} fresh session`)), asked[0]!.detail);
    assert.deepEqual(stateMeta(def.dbFile), metaBefore, 'nothing written');
  });

  it('hover provider (vscode.executeHoverProvider): the tier and the refresh cost of SOUL.md', async () => {
    const stale = staleBecauseOf(cli(demo.root), 'default', soul);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', soulUri, new vscode.Position(1, 4));
    const text = hoverText(hovers);
    assert.match(text, /\*\*Hermes · stable tier\*\*/);
    assert.ok(text.includes(`**${stale.sessions.length} stale** because of this file · refreshing them now: **${usd(stale.cost)}**`), text);
  });

  it('code lens provider (vscode.executeCodeLensProvider): count, cost and the Refresh command', async () => {
    const stale = staleBecauseOf(cli(demo.root), 'default', soul);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', soulUri, 10);
    assert.equal(lenses[0]?.command?.title, `${stale.sessions.length} sessions stale · ${usd(stale.cost)} now${stale.unknown ? ` + ${stale.unknown} unknown` : ''}`);
    assert.equal(lenses[1]?.command?.title, 'Refresh');
    assert.equal(lenses[1]?.command?.command, Commands.refresh);
    assert.equal(lenses[0]!.range.start.line, 0);
    // The informational lens reveals the Sessions view: its command must exist in the client.
    assert.ok((await vscode.commands.getCommands(true)).includes(lenses[0]!.command!.command), lenses[0]!.command!.command);
    await vscode.commands.executeCommand(lenses[0]!.command!.command);
  });

  it('code action provider (vscode.executeCodeActionProvider): the profile refresh, then one per stale session', async () => {
    const status = cli(demo.root);
    const stale = staleBecauseOf(status, 'default', soul);
    const profile = status.profiles.find((p) => p.name === 'default')!.totals;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', soulUri, new vscode.Range(0, 0, 0, 0));
    assert.equal(actions.length, 1 + stale.sessions.length);
    const all = actions[0]!;
    assert.equal(all.title, `Refresh ${profile.stale} stale sessions in profile default (${usd(profile.staleRefreshCostUsd)}${profile.unknownCost ? `, ${profile.unknownCost} of unknown cost` : ''})`);
    assert.equal(all.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.equal(all.isPreferred, true);
    assert.equal(all.disabled, undefined, 'enabled in a trusted workspace');
    assert.equal(all.command?.command, Commands.refresh);
    assert.deepEqual(all.command?.arguments?.[0], { profile: 'default', onlyStale: true });
    const one = actions.slice(1).map((a) => (a.command?.arguments?.[0] as { sessionIds: string[] }).sessionIds[0]);
    assert.deepEqual(one.sort(), stale.sessions.map((s) => s.id).sort());
  });

  it('commands: showPrompt opens the stored prompt as a hermes-prompt document, diffPrompt the refresh diff', async () => {
    const ref = { profile: 'default', sessionId: demo.labels['atlas-tui']! };
    await vscode.commands.executeCommand('hermesLens.showPrompt', ref);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.scheme, 'hermes-prompt');
    assert.equal(editor?.document.languageId, 'hermes-prompt');
    assert.ok(editor?.document.getText().startsWith("You are Hermes, Dana's engineering assistant."), editor?.document.getText().slice(0, 80));

    await vscode.commands.executeCommand('hermesLens.diffPrompt', ref);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, `the active tab is a diff (${vscode.window.tabGroups.activeTabGroup.activeTab?.label})`);
    assert.equal(input.original.scheme, 'hermes-prompt');
    assert.equal(input.modified.scheme, 'hermes-prompt');

    await vscode.commands.executeCommand('hermesLens.reloadSessions');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('code lens and hover on an unsaved SOUL.md: a preview of what saving it would do, without Refresh', async () => {
    const doc = await vscode.workspace.openTextDocument(soulUri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(soulUri, doc.lineAt(doc.lineCount - 1).range.end, '\nQuote the ticket number in every reply.');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty, 'unsaved');
    // A SOUL.md edit reaches every prompt built from SOUL.md: each fresh or stale session is stale once saved.
    const carrying = cli(demo.root).profiles.find((p) => p.name === 'default')!.sessions.filter((s) => s.state === 'stale' || s.state === 'fresh');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', soulUri, 10);
    assert.deepEqual(lenses.map((l) => l.command?.title.replace(/ · .*/, '')), [`Preview (unsaved): saving makes ${carrying.length} sessions stale`]);
    assert.match(lenses[0]!.command!.title, /· ≈ \$[\d.]+/);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', soulUri, new vscode.Position(1, 4));
    assert.match(hoverText(hovers), new RegExp(`\\*\\*Preview \\(unsaved\\):\\*\\* Saving makes ${carrying.length} sessions stale \\(≈ \\$[\\d.]+( \\+ \\d+ of unknown cost)? to refresh now; \\d+ warm\\)`));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.ok(!doc.isDirty, 'reverted');
    const saved = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', soulUri, 10);
    assert.match(saved[0]?.command?.title ?? '', /^\d+ sessions stale · /, 'as saved again');
  });

  it('saving an edit of SOUL.md makes the fresh sessions stale: the API and the code lens follow', async () => {
    const before = cli(demo.root);
    const doc = await vscode.workspace.openTextDocument(soulUri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(soulUri, doc.lineAt(doc.lineCount - 1).range.end, '\nKeep answers under twenty lines.');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save(), 'saved');
    const after = cli(demo.root);
    const expected = totals(after).stale;
    assert.ok(expected > totals(before).stale, 'the CLI: more sessions are stale after the edit');
    const list = await waitForSessions(api, (l) => l.profiles.reduce((n, p) => n + p.stale, 0) === expected, `${expected} stale sessions`);
    assert.equal(list.profiles.find((p) => p.name === 'default')?.stale, after.profiles.find((p) => p.name === 'default')?.totals.stale);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', soulUri, 10);
    assert.match(lenses[0]?.command?.title ?? '', new RegExp(`^${staleBecauseOf(after, 'default', soul).sessions.length} sessions stale · `));
    assert.equal(`Hermes: ${api.status()?.text}`, expectedStatusText(after));
  });

  it('Cancel Refresh When Free drops a waiting request from its tree node, then every other: nothing is written to state.db', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('hermesLens.cancelRefreshWhenFree'));
    const warm = api.sessions()!.profiles.find((p) => p.name === 'default')!.sessions.filter((s) => s.state === 'stale' && s.cacheWarm);
    assert.ok(warm.length > 1, 'stale sessions whose cache is warm');
    const metaBefore = stateMeta(def.dbFile);
    // By method name: the RequestType of this bundle is not the extension's own (another copy of vscode-jsonrpc).
    const scheduled = await api.client()!.sendRequest<RefreshWhenFreeResultDto>(RefreshWhenFreeRequest.method, { profile: 'default', sessionIds: warm.map((s) => s.id) });
    assert.deepEqual(scheduled.writtenNow, [], 'warm caches: every request waits');
    // As the tree's context menu runs it: with the session's node.
    const one = (await vscode.commands.executeCommand('hermesLens.cancelRefreshWhenFree', { kind: 'session', profile: 'default', session: warm[0] })) as CancelRefreshWhenFreeResultDto;
    assert.deepEqual(one.cancelled.map((e) => e.sessionId), [warm[0]!.id]);
    // As the view's title bar runs it: no argument, every profile.
    const rest = (await vscode.commands.executeCommand('hermesLens.cancelRefreshWhenFree')) as CancelRefreshWhenFreeResultDto;
    assert.deepEqual(rest.cancelled.map((e) => e.sessionId).sort(), warm.slice(1).map((s) => s.id).sort());
    assert.deepEqual(stateMeta(def.dbFile), metaBefore, 'state.db as it was');
  });

  it('the refresh code action, executed, records the profile-wide request in state.db and the sessions turn pending', async () => {
    const stale = staleBecauseOf(cli(demo.root), 'default', soul);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', soulUri, new vscode.Range(0, 0, 0, 0));
    const command = actions[0]!.command!;
    const metaBefore = stateMeta(def.dbFile);
    const result = (await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []))) as RefreshResultDto;
    assert.ok(result, 'the refresh ran (no confirmation in test mode: hermesLens.confirmRefresh is off)');
    assert.equal(result.scope, 'profile');
    assert.match(result.message, /^Requested a system prompt refresh for every session in this profile /);

    const meta = stateMeta(def.dbFile);
    assert.equal(meta.prompt_refresh_epoch, String(result.epoch), `prompt_refresh_epoch (before: ${metaBefore.prompt_refresh_epoch})`);
    for (const s of stale.sessions) assert.ok(result.epoch! > s.stampedEpoch);
    const perSession = (m: Record<string, string>) => Object.entries(m).filter(([k]) => k.startsWith('prompt_refresh_epoch:')).map((e) => e.join('='));
    assert.deepEqual(perSession(meta), perSession(metaBefore), 'no key per session');
    await waitForSessions(api, (l) => stale.sessions.every((s) => stateOf(l, 'default', s.id) === 'pending'), 'the refreshed sessions pending');
  });

  it('hermesLens.refreshSession with a session reference refreshes that one session', async () => {
    const id = demo.labels['work-telegram-new']!;
    const result = (await vscode.commands.executeCommand('hermesLens.refreshSession', { profile: 'work', sessionId: id })) as RefreshResultDto;
    assert.deepEqual(result.sessionIds, [id]);
    assert.equal(stateMeta(work.dbFile)[`prompt_refresh_epoch:${id}`], String(result.epoch));
    await waitForSessions(api, (l) => stateOf(l, 'work', id) === 'pending', `work/${id} pending`);
  });

  it('a Hermes-side write (the session adopts the refresh) reaches the API: the session is fresh', async () => {
    const id = demo.labels['atlas-tui']!;
    assert.equal(stateOf(api.sessions()!, 'default', id), 'pending');
    const epoch = outside<number>('adoptRefresh', def.dbFile, id, def.dir);
    assert.ok(epoch > 0);
    assert.equal(outside<Record<string, unknown>>('modelConfig', def.dbFile, id).prompt_refresh_epoch, epoch);
    await waitForSessions(api, (l) => stateOf(l, 'default', id) === 'fresh', `default/${id} fresh`);
  });

  it('with a build that cannot adopt a request (v0.22.5), the status says so and the refresh offers clearing the stored prompts, always asking', async () => {
    writeHermesInstall(install, WITHOUT_REFRESH);
    // A reload has the server read the build again; the status it publishes arrives before the list.
    await vscode.commands.executeCommand('hermesLens.reloadSessions');
    const status = api.status()!;
    assert.deepEqual([status.hermes.version, status.hermes.refresh, status.severity], ['0.22.5', false, 'warning']);
    assert.ok(status.detail.includes(`Hermes 0.22.5 (${install}) cannot adopt a refresh request`), status.detail);
    const before = cli(demo.root).profiles.find((p) => p.name === 'default')!;
    const stale = before.sessions.filter((x) => x.state === 'stale');
    assert.ok(stale.length > 0 && stale.every((x) => x.unadoptableRequest), 'the sessions the earlier refresh left pending are stale again, their request not adoptable');
    assert.equal(stateOf(api.sessions()!, 'default', stale[0]!.id), 'stale');

    const asked: Array<{ title: string; detail: string | undefined; buttons: string[] }> = [];
    const showWarningMessage = vscode.window.showWarningMessage;
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = async (title: string, options: vscode.MessageOptions, ...buttons: string[]) => {
      asked.push({ title, detail: options?.detail, buttons });
      return 'Clear Stored Prompts';
    };
    let result: RefreshResultDto;
    try {
      // hermesLens.confirmRefresh is off here: the offer is asked all the same.
      result = (await vscode.commands.executeCommand('hermesLens.refreshProfile', 'default')) as RefreshResultDto;
    } finally {
      (vscode.window as { showWarningMessage: unknown }).showWarningMessage = showWarningMessage;
    }
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.title, `Clear the stored prompt of ${stale.length} stale session${stale.length === 1 ? '' : 's'} in profile default instead?`);
    assert.deepEqual(asked[0]!.buttons, ['Clear Stored Prompts']);
    assert.ok(asked[0]!.detail!.startsWith(`Hermes 0.22.5 (${install}) cannot adopt a refresh request`), asked[0]!.detail);
    assert.match(asked[0]!.detail!, /it also fires the on_session_start hooks, and an agent a running gateway holds in memory does not see it until the gateway restarts/);
    assert.equal(result.strategy, 'clear-prompt');
    const after = cli(demo.root).profiles.find((p) => p.name === 'default')!;
    for (const s of stale) assert.equal(after.sessions.find((x) => x.id === s.id)?.state, 'no-prompt', `${s.id}'s prompt cleared`);
  });
});
