// Neovim as a second LSP client: Debian's neovim (0.7) runs headless with test/nvim/init.lua, which
// attaches the bundled stdio server (`node dist/server.js --stdio`) to SOUL.md of a generated Hermes
// home, requests hover, code lens and code actions, executes the refresh command, edits and saves,
// keeps the session list from the server's changes (applying deltas in Lua), and writes what it saw
// to a JSON file. This test checks those results against the CLI and reads
// Hermes' state.db itself.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../e2e/support/codeServer';
import { startSession } from '../../server/demo/hermes';
import { cliProfile, cliStatus, createDemoHome, readStateMeta, SERVER, staleBecauseOf, totals, usd, type CliStatus, type DemoHome } from '../e2e/support/hermesHome';

const NVIM = process.env.HERMES_LENS_NVIM || 'nvim';
const INIT = path.join(REPO_ROOT, 'test', 'nvim', 'init.lua');

interface NvimResults {
  nvim: { major: number; minor: number; patch: number };
  error?: string;
  configurationRequests: string[];
  statuses: Array<{ text: string; stale: number; pending: number; driver: string | null }>;
  serverCapabilities: Record<string, unknown>;
  hover: { contents: { kind: string; value: string } };
  codeLens: Array<{ range: unknown; command: { title: string; command: string; arguments?: unknown[] } }>;
  codeActions: Array<{ title: string; kind: string; isPreferred?: boolean; command: { command: string; arguments: Array<{ profile: string; sessionIds?: string[]; onlyStale?: boolean }> } }>;
  executeCommand: { profile: string; scope: string; sessionIds: string[]; epoch: number; message: string };
  sessionListBeforeSave: SessionList;
  sessionListAfterRefresh: SessionList;
  sessionListDeltas: number;
  sessionPatches: number;
  fullListRequests: number;
  fullListAtEnd: SessionList;
  keptListAtEnd: SessionList;
  statusAfterSave: { text: string; stale: number };
  codeLensAfterSave: Array<{ command: { title: string } }>;
  stopped?: boolean;
}

interface SessionList {
  revision: number;
  profiles: Array<{ name: string; stale: number; sessions: Array<{ id: string; state: string; refreshCostUsd?: number }> }>;
}

/** Profiles by name, sessions by id (their order in the list carries no meaning). */
function byId(list: SessionList): Record<string, unknown> {
  return Object.fromEntries(list.profiles.map((p) => [p.name, { ...p, sessions: Object.fromEntries(p.sessions.map((s) => [s.id, s])) }]));
}

function nvimVersion(): string | undefined {
  const r = spawnSync(NVIM, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? /NVIM v(\S+)/.exec(r.stdout)?.[1] : undefined;
}

/** Runs Neovim headless with our init.lua; resolves when it exits (killed after `timeoutMs`). */
function runNvim(home: DemoHome, resultsFile: string, timeoutMs = 120_000): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NVIM, ['--headless', '--clean', '-u', INIT], {
      cwd: home.root,
      env: {
        ...process.env,
        HERMES_LENS_NODE: process.execPath,
        HERMES_LENS_SERVER: SERVER,
        HERMES_LENS_HOME: home.root,
        HERMES_LENS_SOUL: home.soul,
        HERMES_LENS_RESULTS: resultsFile,
        // Neovim keeps its log, shada and swap files under XDG dirs: keep them in the temp folder.
        XDG_STATE_HOME: path.join(home.dir, 'xdg-state'),
        XDG_DATA_HOME: path.join(home.dir, 'xdg-data'),
        XDG_CACHE_HOME: path.join(home.dir, 'xdg-cache'),
        XDG_CONFIG_HOME: path.join(home.dir, 'xdg-config'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nvim did not exit within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('Neovim (headless) as an LSP client of the bundled server', function () {
  this.timeout(60_000);
  let home: DemoHome;
  let initial: CliStatus;
  let metaBefore: Map<string, string>;
  let r: NvimResults;
  let unpricedSession: string;

  before(async function () {
    this.timeout(180_000);
    const version = nvimVersion();
    assert.ok(version, `${NVIM} not found: run scripts/e2e-setup.sh --packages-only (apt-get install neovim)`);
    const [major, minor] = version.split('.').map(Number);
    assert.ok(major! > 0 || minor! >= 7, `Neovim ${version}: 0.7 or later is needed`);
    assert.ok(fs.existsSync(SERVER), `${SERVER} not found: run \`npm run build\``);
    home = createDemoHome('hl-nvim');
    // A fresh session of a model without prices: the save makes it stale and its refresh cost
    // unknown, a field that becomes null (which Neovim's decoder drops from a patch).
    const def = home.profile('default');
    const now = Date.now() / 1000;
    unpricedSession = startSession(def.dbFile, def.dir, { source: 'cli', model: 'my-local-llama', provider: 'custom', startedAt: now - 60, lastActivityAt: now - 10, messages: 2 });
    initial = cliStatus(home.root);
    metaBefore = readStateMeta(home.profile('default').dbFile);
    const resultsFile = path.join(home.dir, 'nvim-results.json');
    const run = await runNvim(home, resultsFile);
    assert.ok(fs.existsSync(resultsFile), `nvim exited with ${run.code} and wrote no results; stderr:\n${run.stderr}\nstdout:\n${run.stdout}`);
    r = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as NvimResults;
    assert.equal(r.error, undefined, `init.lua failed: ${r.error}`);
    assert.equal(run.code, 0, `nvim exit code; stderr:\n${run.stderr}`);
  });
  after(() => home?.dispose());

  it('initializes over stdio, pulls the hermesLens settings through workspace/configuration, and reports status', () => {
    assert.ok(r.nvim.major > 0 || r.nvim.minor >= 7);
    assert.equal(r.serverCapabilities.hoverProvider, true);
    assert.deepEqual((r.serverCapabilities.executeCommandProvider as { commands: string[] }).commands, ['hermesLens.server.refresh']);
    assert.ok(r.configurationRequests.includes('hermesLens'), JSON.stringify(r.configurationRequests));
    const first = r.statuses.find((s) => s.stale > 0)!;
    assert.equal(first.driver, initial.sqlite.driver, 'the server reads state.db with the binding the CLI uses in the same Node.js');
    assert.equal(first.stale, totals(initial).stale);
  });

  it('hover (buf_request_sync textDocument/hover), asked right after initialize: tier, size and refresh cost of SOUL.md', () => {
    const stale = staleBecauseOf(initial, 'default', home.soul);
    assert.equal(r.hover.contents.kind, 'markdown');
    assert.match(r.hover.contents.value, /\*\*Hermes · stable tier\*\*/);
    assert.ok(r.hover.contents.value.includes(`**${stale.sessions.length} stale** because of this file · refreshing them now: **${usd(stale.cost)}**`), r.hover.contents.value);
    assert.doesNotMatch(r.hover.contents.value, /still reading/);
  });

  it('code lens and code actions: count, cost, and a refresh command per profile and per session', () => {
    const stale = staleBecauseOf(initial, 'default', home.soul);
    const n = stale.sessions.length;
    assert.equal(r.codeLens[0]!.command.title, `${n} sessions stale · ${usd(stale.cost)} now${stale.unknown ? ` + ${stale.unknown} unknown` : ''}`);
    assert.equal(r.codeLens[1]!.command.title, 'Refresh');
    assert.equal(r.codeActions.length, 1 + n);
    const all = r.codeActions[0]!;
    // The profile's refresh reaches its every stale session: it counts them all.
    const profile = cliProfile(initial, 'default').totals;
    assert.equal(all.title, `Refresh ${profile.stale} stale sessions in profile default (${usd(profile.staleRefreshCostUsd)}${profile.unknownCost ? `, ${profile.unknownCost} of unknown cost` : ''})`);
    assert.equal(all.kind, 'quickfix');
    assert.equal(all.command.command, 'hermesLens.server.refresh');
    assert.deepEqual(all.command.arguments[0], { profile: 'default', onlyStale: true });
    assert.deepEqual(r.codeActions.slice(1).map((a) => a.command.arguments[0]!.sessionIds![0]).sort(), stale.sessions.map((s) => s.id).sort());
  });

  it('workspace/executeCommand with the profile action’s command writes the profile-wide request to state.db', () => {
    const stale = staleBecauseOf(initial, 'default', home.soul);
    const res = r.executeCommand;
    assert.equal(res.scope, 'profile');
    assert.match(res.message, /^Requested a system prompt refresh for every session in this profile /);
    const meta = readStateMeta(home.profile('default').dbFile);
    assert.equal(meta.get('prompt_refresh_epoch'), String(res.epoch), `before: ${metaBefore.get('prompt_refresh_epoch')}`);
    const perSession = (m: Map<string, string>) => [...m].filter(([k]) => k.startsWith('prompt_refresh_epoch:')).map((e) => e.join('='));
    assert.deepEqual(perSession(meta), perSession(metaBefore), 'no key per session');
    const listed = r.sessionListAfterRefresh.profiles.find((p) => p.name === 'default')!.sessions;
    for (const s of stale.sessions) {
      assert.ok(res.epoch > s.stampedEpoch);
      assert.equal(listed.find((x) => x.id === s.id)?.state, 'pending');
    }
    assert.equal(cliProfile(cliStatus(home.root), 'default').totals.stale, 0, 'the CLI agrees: no stale session left in default');
  });

  it('an edit saved from Neovim (:write) makes the fresh sessions stale: status and code lens follow', () => {
    assert.ok(fs.readFileSync(home.soul, 'utf8').includes('Prefer small, reversible changes.'), 'the edit is on disk');
    // SOUL.md feeds every session of default: the save made each fresh one stale. (The refresh that
    // followed turned them all pending, so the CLI of now cannot say it: the count comes from before.)
    const fresh = cliProfile(initial, 'default').sessions.filter((s) => s.state === 'fresh').length;
    assert.ok(fresh > 0, 'the demo has fresh sessions in default');
    assert.equal(r.statusAfterSave.stale, totals(initial).stale + fresh);
    const stale = staleBecauseOf(initial, 'default', home.soul);
    assert.match(r.codeLensAfterSave[0]!.command.title, new RegExp(`^${stale.sessions.length + fresh} sessions? stale · `));
    assert.equal(r.stopped, true, 'the client shut the server down');
  });

  it('keeps the session list from deltas in Lua: the same as the full list the server answers', () => {
    assert.ok(r.sessionListDeltas > 0, 'the refresh and the save came as deltas');
    assert.ok(r.sessionPatches > 0, 'the sessions they changed came as patches');
    assert.equal(r.fullListRequests, 0, 'every delta fitted the list kept');
    assert.equal(r.keptListAtEnd.revision, r.fullListAtEnd.revision);
    assert.deepEqual(byId(r.keptListAtEnd), byId(r.fullListAtEnd));
    const unpriced = (list: SessionList) => list.profiles.find((p) => p.name === 'default')!.sessions.find((s) => s.id === unpricedSession);
    assert.equal(unpriced(r.sessionListBeforeSave)?.refreshCostUsd, 0, 'fresh before the save: refreshing it costs nothing');
    assert.equal(unpriced(r.keptListAtEnd)?.state, 'pending', 'stale after the save, then refreshed with the profile');
    assert.equal(unpriced(r.keptListAtEnd)?.refreshCostUsd, undefined, 'its cost became unknown (null, which Neovim decodes as no value)');
    for (const p of cliStatus(home.root).profiles) assert.equal(r.keptListAtEnd.profiles.find((k) => k.name === p.name)?.stale, p.totals.stale, `stale in ${p.name}`);
  });
});
