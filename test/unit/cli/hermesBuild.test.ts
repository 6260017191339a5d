// The Hermes build in `hermes-lens status` and `refresh`, on homes with fake installations of
// several versions: what status says and `--json` carries, the request written where the build
// reads it, nothing written where it cannot, and the older way offered instead.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeHermesInstall, WITH_REFRESH, WITHOUT_REFRESH } from '../../../server/demo/hermesInstall';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import { PROFILE_EPOCH_KEY } from '../../../server/hermes/refresh/epochs';
import { promptHash } from '../../../server/hermes/store/promptHash';
import { inspect, removeDir, tempDir, type RawRow } from '../demo/support';
import { cli, NOW } from './support';

function stateMeta(file: string): Record<string, string> {
  return inspect(file, (db) => Object.fromEntries((db.prepare('SELECT key, value FROM state_meta').all() as RawRow[]).map((r) => [String(r.key), String(r.value)])));
}

/** The database's bytes (its -wal too): equal means nothing was written. */
function dbBytes(file: string): string {
  return [file, `${file}-wal`].map((f) => (fs.existsSync(f) ? promptHash(fs.readFileSync(f).toString('latin1')) : 'absent')).join(',');
}

describe('cli: the Hermes build in status and refresh', function () {
  this.timeout(30000);
  let dir: string;
  let home: HomeBuilder;
  let def: ProfileBuilder;
  let stale: string;
  beforeEach(() => {
    dir = tempDir('hermes-cli-build-');
    home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 71 });
    def = home.profile();
    def.writeSoul('You are Kit.\n');
    stale = def.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 600, messages: 4, promptFromCurrentFiles: true });
    def.writeSoul('You are Kit. Answer briefly.\n');
  });
  afterEach(() => removeDir(dir));

  const install = (build = WITH_REFRESH) => writeHermesInstall(path.join(home.root, 'hermes-agent'), build);
  const run = (argv: string[]) => cli([argv[0]!, '--home', home.root, ...argv.slice(1)]);

  it('status --json: hermes {version, path, refresh, protocol} of the installation in the home', () => {
    const dirOf = install();
    const out = JSON.parse(run(['status', '--json']).stdout);
    const { protocol, ...build } = out.hermes;
    assert.deepEqual(build, { version: '0.23.0', path: dirOf, refresh: true, problem: null, summary: `Hermes 0.23.0 (${dirOf}) adopts refresh requests.` });
    // The fake build's CLI registers refresh-prompts in hermes_cli/main.py and names the keys in the module it imports for it.
    assert.deepEqual(
      { found: protocol.found, where: protocol.where, requestKey: protocol.requestKey, stampKey: protocol.stampKey, keysFrom: protocol.keysFrom },
      { found: 'cli-text', where: path.join(dirOf, 'hermes_cli', 'main.py'), requestKey: 'prompt_refresh_epoch', stampKey: 'prompt_refresh_epoch', keysFrom: 'install' },
    );
    assert.ok(run(['status']).stdout.split('\n')[1]!.startsWith('Refresh protocol: its CLI offers `hermes sessions refresh-prompts`; names in use:'));
  });

  it('status says first which build serves the home, and that v0.22.5 cannot adopt a refresh request', () => {
    const dirOf = install(WITHOUT_REFRESH);
    const text = run(['status']);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout.split('\n')[0], `Hermes 0.22.5 (${dirOf}) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after v0.22.5.`);
    assert.equal(JSON.parse(run(['status', '--json']).stdout).hermes.refresh, false);
  });

  it('status with no installation: says so (a remote gateway), and --json has nulls', () => {
    const out = JSON.parse(run(['status', '--json']).stdout);
    assert.deepEqual([out.hermes.version, out.hermes.path, out.hermes.refresh, out.hermes.problem], [null, null, null, null]);
    assert.match(run(['status']).stdout.split('\n')[0]!, /^No Hermes installation found for this home \(a remote gateway\?\)/);
  });

  it('status shows a requested refresh pending where the build adopts it, and "requested, but this Hermes build cannot adopt it" where not', () => {
    def.setStateMeta(PROFILE_EPOCH_KEY, '1');
    install(WITH_REFRESH);
    const adopting = JSON.parse(run(['status', '--json']).stdout).profiles[0];
    assert.deepEqual([adopting.sessions[0].state, adopting.sessions[0].unadoptableRequest, adopting.totals.pending], ['pending', false, 1]);

    install(WITHOUT_REFRESH);
    const json = JSON.parse(run(['status', '--json']).stdout).profiles[0];
    assert.deepEqual([json.sessions[0].id, json.sessions[0].state, json.sessions[0].unadoptableRequest], [stale, 'stale', true]);
    assert.deepEqual([json.totals.pending, json.totals.stale], [0, 1]);
    const lines = run(['status']).stdout.split('\n');
    const row = lines.findIndex((l) => l.includes(stale));
    assert.match(lines[row]!, /^\s+stale\s/);
    assert.ok(lines.slice(row + 1).some((l) => l.trim() === '↳ requested, but this Hermes build cannot adopt it'), lines.join('\n'));
  });

  it('refresh with a build that has refresh-prompts records the profile-wide request, and says only how the lens watches it', () => {
    install();
    const out = run(['refresh']);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.split('\n');
    assert.equal(lines.length, 3, "Hermes' two lines and the watch");
    assert.equal(lines[2], 'The lens watches each session it concerns: 1 waiting for a turn. "hermes-lens status" tells how each took it up.');
    assert.equal(stateMeta(def.dbFile)[PROFILE_EPOCH_KEY], '1');
  });

  it('refresh with v0.22.5 writes nothing and offers the older way with its two drawbacks; clear-prompt then works', () => {
    const dirOf = install(WITHOUT_REFRESH);
    const before = dbBytes(def.dbFile);
    for (const argv of [['refresh'], ['refresh', '--session', stale], ['refresh', '--strategy', 'epoch', '--dry-run']]) {
      const refused = run(argv);
      assert.equal(refused.code, 1, argv.join(' '));
      assert.equal(refused.stderr.trim().split('\n').length, 1);
      assert.ok(refused.stderr.startsWith(`hermes-lens refresh: Hermes 0.22.5 (${dirOf}) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after v0.22.5, so a request would never be read.`), refused.stderr);
      assert.match(refused.stderr, /The older way, clearing the stored prompt \(--strategy clear-prompt; hermesLens\.refreshStrategy in the editor\), works with any build/);
      assert.match(refused.stderr, /fires the on_session_start hooks, and an agent a running gateway holds in memory does not see it until the gateway restarts/);
      assert.match(refused.stderr, /Nothing was written\.$/m);
    }
    assert.equal(dbBytes(def.dbFile), before, 'state.db unchanged');

    const cleared = run(['refresh', '--strategy', 'clear-prompt', '--json']);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.equal(JSON.parse(cleared.stdout).hermes.version, '0.22.5');
    const prompt = inspect(def.dbFile, (db) => db.prepare('SELECT system_prompt_hash FROM sessions WHERE id = ?').get(stale) as RawRow);
    assert.equal(prompt.system_prompt_hash, null);
  });

  it('--hermes-install names the installation the home does not hold', () => {
    install(WITHOUT_REFRESH);
    const elsewhere = writeHermesInstall(path.join(dir, 'src', 'hermes-agent'), WITH_REFRESH);
    const out = run(['refresh', '--hermes-install', elsewhere, '--json']);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual([JSON.parse(out.stdout).hermes.path, JSON.parse(out.stdout).hermes.refresh], [elsewhere, true]);
    assert.equal(stateMeta(def.dbFile)[PROFILE_EPOCH_KEY], '1');
  });

  it('bad --hermes-install (a link that loops): status says so and goes on; refresh writes nothing', () => {
    const loop = path.join(dir, 'loop');
    fs.symlinkSync(loop, loop);
    const status = run(['status', '--hermes-install', loop]);
    assert.equal(status.code, 0, status.stderr);
    assert.ok(status.stdout.startsWith(`The Hermes installation ${loop} is a symbolic link that loops; point --hermes-install`), status.stdout);
    assert.ok(status.stdout.includes(stale), 'the sessions are still listed');
    const json = JSON.parse(run(['status', '--hermes-install', loop, '--json']).stdout).hermes;
    assert.deepEqual([json.version, json.path, json.refresh], [null, loop, null]);
    assert.match(json.problem, /is a symbolic link that loops/);

    const before = dbBytes(def.dbFile);
    const refused = run(['refresh', '--hermes-install', loop]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^hermes-lens refresh: The Hermes installation .* is a symbolic link that loops; .* Whether this build reads a refresh request cannot be told\. The older way, clearing the stored prompt \(--strategy clear-prompt; .*\), works with any build: .* Nothing was written\.$/);
    assert.equal(dbBytes(def.dbFile), before);
  });
});
