// The bundled language server (dist/server.js) over stdio, driven by a real LSP client on a
// generated Hermes home. Everything is awaited on messages from the server, never on time.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { CodeAction, CodeLens, Diagnostic, Hover, MarkupContent, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import type { DemoManifest } from '../../server/demo/demoHome';
import { adoptRefresh, startSession } from '../../server/demo/hermes';
import { Commands, RefreshPreviewRequest, RefreshRequest, SessionListRequest, type RefreshResultDto, type SessionListResult, type StatusParams } from '../../shared/protocol';
import type { TestLspClient } from '../support/lspClient';
import { demoServerPerTest } from './support/demoServer';
import { cliStatus } from '../e2e/support/hermesHome';

const SESSION_LIST = 'hermes/sessionListChanged';
const STATUS = 'hermes/status';
const PUBLISH_DIAGNOSTICS = 'textDocument/publishDiagnostics';

function readMeta(dbFile: string): Map<string, string> {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return new Map((db.prepare('SELECT key, value FROM state_meta').all() as Array<{ key: string; value: string }>).map((r) => [r.key, String(r.value)]));
  } finally {
    db.close();
  }
}

/** The per-session request keys and their values. */
function sessionKeys(meta: Map<string, string>): string[] {
  return [...meta].filter(([key]) => key.startsWith('prompt_refresh_epoch:')).map(([key, value]) => `${key}=${value}`).sort();
}

function staleIn(list: SessionListResult, profile: string): string[] {
  return list.profiles.find((p) => p.name === profile)?.sessions.filter((s) => s.state === 'stale').map((s) => s.id) ?? [];
}

describe('language server over stdio (bundled dist/server.js)', function () {
  this.timeout(60_000);
  const fixture = demoServerPerTest('hl-protocol-');
  let demo: DemoManifest;
  let client: TestLspClient;
  let soul: string;
  beforeEach(() => {
    ({ demo, client } = fixture);
    soul = path.join(demo.root, 'SOUL.md');
  });

  it('announces its capabilities', async () => {
    const result = await client.initialize({ isTrusted: true });
    assert.equal(result.capabilities.hoverProvider, true);
    assert.ok(result.capabilities.codeLensProvider);
    assert.deepEqual((result.capabilities.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds, ['quickfix']);
    assert.deepEqual(result.capabilities.executeCommandProvider?.commands, [Commands.refresh]);
    assert.equal(result.serverInfo?.name, 'hermes-prompt-lens');
  });

  it('reports the demo home: status with stale count and cost, and the session list', async () => {
    await client.initialize({ isTrusted: true });
    const status = await client.waitFor<StatusParams>(STATUS);
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const expectedStale = Object.values(demo.sessions).filter((s) => s.state === 'stale').length;
    assert.equal(status.stale, expectedStale);
    assert.match(status.text, new RegExp(`^${expectedStale} stale · ≈ \\$\\d`));
    assert.equal(status.driver, cliStatus(demo.root).sqlite.driver, 'the server reads state.db with the binding the CLI uses in the same Node.js');
    assert.deepEqual(list.profiles.map((p) => p.name).sort(), ['default', 'work']);
  });

  it('answers hover, code lenses, code actions and the session list asked right after initialized with what the first analysis finds', async () => {
    const release = client.holdConfiguration();
    await client.initialize({ isTrusted: true });
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    // Asked at once, as Neovim or a script does: the server has no settings yet, so no home read.
    const asked = Promise.all([client.hover(uri, 0, 1), client.codeLens(uri), client.codeActions(uri), client.connection.sendRequest(SessionListRequest, {})]);
    assert.equal(client.notifications.filter((n) => n.method === STATUS).length, 0, 'nothing read yet');
    release();
    const [hover, lenses, actions, list] = await asked;
    const value = ((hover as Hover).contents as MarkupContent).value;
    assert.match(value, /stable tier/);
    assert.match(value, /\d+ stale\*\* because of this file/);
    assert.doesNotMatch(value, /still reading/);
    assert.match(lenses![0]!.command!.title, /^\d+ sessions? stale · ≈ \$/);
    assert.ok((actions as CodeAction[]).some((a) => a.title.startsWith('Refresh ') && !a.disabled), JSON.stringify(actions));
    assert.deepEqual(list.profiles.map((p) => p.name).sort(), ['default', 'work']);
    assert.equal(list.problem, null);
  });

  it('publishes diagnostics on open and updates them on an unsaved change', async () => {
    await client.initialize({ isTrusted: true });
    await client.waitFor(SESSION_LIST);
    const skill = path.join(demo.root, 'skills', 'notes', 'long-description-check', 'SKILL.md');
    fs.mkdirSync(path.dirname(skill), { recursive: true });
    const long = 'Checks that very long descriptions are cut where Hermes cuts them, at sixty characters exactly';
    const text = `---\nname: long-description-check\ndescription: ${long}\n---\n\nBody.\n`;
    fs.writeFileSync(skill, text);
    const uri = await client.open(skill, text);
    const cut = await client.diagnostics(uri, (d) => d.some((x) => x.code === 'description-cut'));
    const diagnostic = cut.find((d) => d.code === 'description-cut')!;
    assert.equal(diagnostic.range.start.line, 2);
    assert.equal(diagnostic.range.start.character, 'description: '.length + 57);
    await client.change(uri, text.replace(long, 'Short enough'));
    // Diagnostics carry the document version they were computed for: wait for version 2's.
    const after = await client.waitFor<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (p) => p.uri === uri && p.version === 2);
    assert.equal(after.diagnostics.filter((d: Diagnostic) => d.code === 'description-cut').length, 0);
  });

  it('hovers SOUL.md with its tier, size, sessions and refresh cost', async () => {
    await client.initialize({ isTrusted: true });
    await client.waitFor(SESSION_LIST);
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const hover = (await client.hover(uri, 0, 1)) as Hover;
    const value = (hover.contents as MarkupContent).value;
    assert.match(value, /stable tier/);
    assert.match(value, /bytes\*\* \(≈?[\d,]+ tokens\) into the prompt/);
    assert.match(value, /Carried by \*\*\d+\*\* live sessions? in \d profiles?/);
    assert.match(value, /\d+ stale\*\* because of this file · refreshing them now: \*\*≈ \$/);
  });

  it('shows the code lens and runs the profile quick fix through workspace/executeCommand: the profile-wide key, read back from state.db', async () => {
    await client.initialize({ isTrusted: true });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const def = list.profiles.find((p) => p.name === 'default')!;
    const staleBySoul = def.sessions.filter((s) => s.state === 'stale' && s.reasons.some((r) => r.path === soul)).map((s) => s.id);
    assert.ok(staleBySoul.length > 0);
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const lenses = (await client.codeLens(uri)) as CodeLens[];
    assert.match(lenses[0]!.command!.title, new RegExp(`^${staleBySoul.length} sessions? stale · ≈ \\$[\\d.]+ now`));
    assert.equal(lenses[1]!.command!.title, 'Refresh');
    assert.deepEqual(lenses[1]!.command!.arguments, [{ profile: 'default', onlyStale: true }]);

    const actions = (await client.codeActions(uri)) as CodeAction[];
    const all = actions.find((a) => a.title.startsWith(`Refresh ${def.stale} stale session`))!;
    assert.ok(all, `actions: ${actions.map((a) => a.title).join(' | ')}`);
    assert.match(all.title, /in profile default \(≈ \$/);
    const dbFile = path.join(demo.root, 'state.db');
    const before = readMeta(dbFile);
    const since = client.mark();
    const result = (await client.executeCommand(all.command!.command, all.command!.arguments!)) as RefreshResultDto;
    assert.equal(result.scope, 'profile');
    assert.match(result.message, /^Requested a system prompt refresh for every session in this profile \(\d+ session\(s\) with a stored prompt\)\./);

    // What Hermes' own command records: the profile-wide request, and no key per session.
    const meta = readMeta(dbFile);
    assert.equal(meta.get('prompt_refresh_epoch'), String(result.epoch));
    assert.ok(result.epoch! > Number(before.get('prompt_refresh_epoch') ?? 0));
    assert.deepEqual(sessionKeys(meta), sessionKeys(before));
    // Every live session holding a prompt adopts it on its next turn: the stale ones and the fresh ones alike.
    const holding = def.sessions.filter((s) => s.state === 'stale' || s.state === 'fresh' || s.state === 'pending').map((s) => s.id);
    const updated = await client.waitFor<SessionListResult>(SESSION_LIST, (l) => staleIn(l, 'default').length === 0, { since });
    const states = updated.profiles.find((p) => p.name === 'default')!.sessions.filter((s) => holding.includes(s.id)).map((s) => s.state);
    assert.ok(states.every((s) => s === 'pending'), states.join(','));
    const lensAfter = (await client.codeLens(uri)) as CodeLens[];
    assert.match(lensAfter[0]!.command!.title, new RegExp(`^${holding.length} of \\d+ sessions pending refresh`));
  });

  it('prices the profile refresh by its stale sessions alone, and counts the fresh ones it also reaches', async () => {
    await client.initialize({ isTrusted: true });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const def = list.profiles.find((p) => p.name === 'default')!;
    const preview = await client.connection.sendRequest(RefreshPreviewRequest, { profile: 'default', onlyStale: true, strategy: 'epoch' });
    assert.equal(preview.scope, 'profile');
    assert.equal(preview.sessions, def.stale);
    assert.equal(preview.warm + preview.cold, def.stale);
    assert.ok(Math.abs(preview.warmCostUsd + preview.coldCostUsd - def.staleRefreshCostUsd) < 1e-9);
    assert.equal(preview.alsoRebuiltFresh, def.sessions.filter((s) => s.state === 'fresh').length);
    assert.ok(preview.alsoRebuiltFresh > 0, 'the demo has fresh sessions in profile default');
    // Clearing prompts is no profile-wide request: it clears the stale sessions alone.
    const clearing = await client.connection.sendRequest(RefreshPreviewRequest, { profile: 'default', onlyStale: true, strategy: 'clear-prompt' });
    assert.deepEqual([clearing.scope, clearing.sessions, clearing.alsoRebuiltFresh], ['session', def.stale, 0]);
  });

  it('answers a refresh after the list that shows it: the requested session pending, the cleared one without a prompt', async () => {
    await client.initialize({ isTrusted: true });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const stateIn = (l: SessionListResult | undefined, id: string) => l?.profiles.find((p) => p.name === 'default')?.sessions.find((s) => s.id === id)?.state;
    const [epochTarget, clearTarget] = list.profiles.find((p) => p.name === 'default')!.sessions.filter((s) => s.state === 'fresh' || s.state === 'stale');
    assert.ok(epochTarget && clearTarget, 'the demo has two live sessions holding a prompt in profile default');
    // No waiting for a later notification: what came before the answer must already show the write.
    await client.connection.sendRequest(RefreshRequest, { profile: 'default', sessionIds: [epochTarget.id] });
    assert.equal(stateIn(client.currentSessionList, epochTarget.id), 'pending');
    await client.connection.sendRequest(RefreshRequest, { profile: 'default', sessionIds: [clearTarget.id], strategy: 'clear-prompt' });
    assert.equal(stateIn(client.currentSessionList, clearTarget.id), 'no-prompt');
  });

  it('tells how many sessions a save made stale, even when the file watcher saw the write first', async () => {
    await client.initialize({ isTrusted: true });
    const first = await client.waitFor<SessionListResult>(SESSION_LIST);
    const staleBefore = staleIn(first, 'work').length;
    const workSoul = path.join(demo.profiles.find((p) => p.name === 'work')!.dir, 'SOUL.md');
    const text = fs.readFileSync(workSoul, 'utf8') + '\nAlways answer in French.\n';
    const uri = await client.open(workSoul, text);
    let since = client.mark();
    fs.writeFileSync(workSoul, text);
    // The watcher re-evaluates on its own before the editor's didSave arrives.
    await client.waitFor<SessionListResult>(SESSION_LIST, (l) => staleIn(l, 'work').length > staleBefore, { since });
    since = client.mark();
    await client.save(uri);
    const saved = await client.waitFor<{ profile: string; newlyStale: number }>('hermes/savedSource', () => true, { since });
    assert.equal(saved.profile, 'work');
    const after = await client.waitFor<SessionListResult>(SESSION_LIST, () => true, { since });
    assert.equal(saved.newlyStale, staleIn(after, 'work').length - staleBefore);
    assert.ok(saved.newlyStale > 0);
  });

  it('keeps watching the sources across re-evaluations: each edit made outside the editor is seen', async () => {
    await client.initialize({ isTrusted: true });
    let list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const work = demo.profiles.find((p) => p.name === 'work')!;
    const workSoul = path.join(work.dir, 'SOUL.md');
    const costOf = (l: SessionListResult) => l.profiles.find((p) => p.name === 'work')!.staleRefreshCostUsd;
    const deltaOf = (l: SessionListResult) => l.profiles.find((p) => p.name === 'work')!.sessions.map((s) => s.deltaTokens).join(',');
    let text = fs.readFileSync(workSoul, 'utf8');
    for (const sentence of ['Always answer in French.', 'Cite the file and line of every claim about code.', 'Say when a test was not run.']) {
      const before = deltaOf(list);
      const since = client.mark();
      text += `\n${sentence}\n`;
      fs.writeFileSync(workSoul, text);
      list = await client.waitFor<SessionListResult>(SESSION_LIST, (l) => deltaOf(l) !== before, { since });
      assert.ok(costOf(list) > 0);
    }
  });

  it('follows a settings change', async () => {
    await client.initialize({ isTrusted: true });
    await client.waitFor(SESSION_LIST);
    const since = client.mark();
    await client.changeSettings({ home: demo.root, profiles: ['work'] });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST, () => true, { since });
    assert.deepEqual(list.profiles.map((p) => p.name), ['work']);
  });

  it('sees a Hermes-side write to state.db and pushes the updated session list', async () => {
    await client.initialize({ isTrusted: true });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const work = demo.profiles.find((p) => p.name === 'work')!;
    const pending = list.profiles.find((p) => p.name === 'work')!.sessions.find((s) => s.state === 'pending')!;
    assert.ok(pending, 'the demo has a pending session in profile work');
    const since = client.mark();
    // What came before is dropped, as the benchmark drops it between samples: a mark taken before still holds.
    client.forgetHistory();
    assert.deepEqual(client.notificationsSince(since), []);
    adoptRefresh(work.dbFile, pending.id, work.dir);
    const updated = await client.waitFor<SessionListResult>(
      SESSION_LIST,
      (l) => l.profiles.find((p) => p.name === 'work')?.sessions.find((s) => s.id === pending.id)?.state === 'fresh',
      { since },
    );
    assert.ok(updated);
  });

  it("re-sends an open document's diagnostics only when a re-evaluation changes them", async () => {
    await client.initialize({ isTrusted: true });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const agents = path.join(demo.projects.atlas, 'AGENTS.md');
    const uri = await client.open(agents, fs.readFileSync(agents, 'utf8'));
    const first = await client.waitFor<PublishDiagnosticsParams>(PUBLISH_DIAGNOSTICS, (p) => p.uri === uri);
    assert.deepEqual(first.diagnostics.map((d) => d.code), [], 'the demo AGENTS.md has nothing to say');

    // A Hermes write re-evaluates the sessions, and a project context file's diagnostics follow
    // them; these stay the same, so nothing is sent (each publish is a marker change in the editor).
    const work = demo.profiles.find((p) => p.name === 'work')!;
    const pending = list.profiles.find((p) => p.name === 'work')!.sessions.find((s) => s.state === 'pending')!;
    const sinceWrite = client.mark();
    adoptRefresh(work.dbFile, pending.id, work.dir);
    await client.waitFor<SessionListResult>(SESSION_LIST, (l) => l.profiles.find((p) => p.name === 'work')?.sessions.find((s) => s.id === pending.id)?.state === 'fresh', { since: sinceWrite });
    // The diagnostics would go out right after the list; an answer to a later request comes after them.
    await client.hover(uri, 0, 0);
    assert.deepEqual(client.notificationsSince(sinceWrite).filter((n) => n.method === PUBLISH_DIAGNOSTICS && n.params.uri === uri), []);

    // A file made outside the editor that beats AGENTS.md changes them, at the same document version.
    const sinceShadow = client.mark();
    fs.writeFileSync(path.join(demo.projects.atlas, '.hermes.md'), '# Atlas\n\nUse pnpm.\n');
    const shadowed = await client.waitFor<PublishDiagnosticsParams>(PUBLISH_DIAGNOSTICS, (p) => p.uri === uri && p.diagnostics.length > 0, { since: sinceShadow });
    assert.deepEqual(shadowed.diagnostics.map((d) => d.code), ['shadowed']);
    assert.equal(shadowed.version, first.version);
  });

  it('counts a session Hermes starts among those holding a stored prompt once its writes settle', async () => {
    await client.initialize({ isTrusted: true });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const work = demo.profiles.find((p) => p.name === 'work')!;
    const countOf = (l: SessionListResult) => l.profiles.find((p) => p.name === 'work')!.storedPromptSessions;
    const before = countOf(list);
    const since = client.mark();
    const now = Date.now() / 1000;
    const id = startSession(work.dbFile, work.dir, { source: 'cli', model: 'gpt-5.1', provider: 'openai', startedAt: now - 5, lastActivityAt: now, messages: 2 });
    const listed = await client.waitFor<SessionListResult>(SESSION_LIST, (l) => l.profiles.find((p) => p.name === 'work')!.sessions.some((s) => s.id === id), { since });
    assert.ok(countOf(listed) <= before + 1);
    const counted = await client.waitFor<SessionListResult>(SESSION_LIST, (l) => countOf(l) === before + 1, { since });
    assert.ok(counted.profiles.find((p) => p.name === 'work')!.sessions.some((s) => s.id === id));
  });

  it('refuses to write in an untrusted workspace and says why', async () => {
    await client.initialize({ isTrusted: false });
    await client.waitFor(SESSION_LIST);
    const before = fs.readFileSync(path.join(demo.root, 'state.db'));
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const actions = (await client.codeActions(uri)) as CodeAction[];
    assert.ok(actions.length > 0 && actions.every((a) => a.disabled?.reason?.includes('Restricted Mode')));
    await assert.rejects(client.executeCommand(Commands.refresh, [{ profile: 'default' }]), /Restricted Mode/);
    assert.deepEqual(fs.readFileSync(path.join(demo.root, 'state.db')), before);
  });

  it('shuts down and exits cleanly', async () => {
    await client.initialize({ isTrusted: true });
    await client.waitFor(SESSION_LIST);
    assert.equal(await client.shutdown(), 0);
  });
});
