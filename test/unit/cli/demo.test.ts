// `hermes-lens demo`: the README's first command (`npm run demo` = `node dist/cli.js demo`) must show
// the embedded demo home with fresh, stale and pending sessions and their refresh costs.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeDir, tempDir } from '../demo/support';
import { cli, runBinary, cliBinary } from './support';

/** Rows of the status table: state and the refresh-cost cell. */
function rows(text: string): Array<{ state: string; line: string }> {
  return text
    .split('\n')
    .map((line) => ({ line, match: /^\s{2}(fresh|stale|pending|no-prompt|ended)\s/.exec(line) }))
    .filter((r) => r.match)
    .map((r) => ({ state: r.match![1]!, line: r.line }));
}

describe('cli: hermes-lens demo', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-cli-demo-')));
  afterEach(() => removeDir(dir));

  it('prints both profiles with fresh, stale and pending sessions, money figures, unknown and API-equivalent costs', () => {
    const run = cli(['demo', '--dir', path.join(dir, 'demo')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Demo Hermes home written to /);
    assert.match(run.stdout, /Profile default \(active\)/);
    assert.match(run.stdout, /Profile work/);
    const table = rows(run.stdout);
    const states = new Set(table.map((r) => r.state));
    for (const state of ['fresh', 'stale', 'pending']) assert.ok(states.has(state), `no ${state} session in:\n${run.stdout}`);
    assert.ok(!states.has('ended'), 'live sessions only');
    const stale = table.filter((r) => r.state === 'stale');
    assert.ok(stale.some((r) => /\$\d+\.\d*[1-9]/.test(r.line)), 'a stale session with a non-zero cost');
    assert.ok(stale.some((r) => /\bunknown\s*$/.test(r.line)), 'the local model has an unknown cost');
    assert.ok(stale.some((r) => /\(API-equiv\.\)\s*$/.test(r.line)), 'the subscription session is labelled');
    assert.ok(table.filter((r) => r.state === 'fresh').every((r) => /\$0\s*$/.test(r.line)));
    assert.match(run.stdout, /↳ soul changed: /);
    assert.match(run.stdout, /Totals: .* stale \(.*\$[\d.,]+ to refresh now/);
  });

  it('--json: the same states, per profile', () => {
    const run = cli(['demo', '--dir', path.join(dir, 'demo'), '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(out.profiles.map((p: { name: string }) => p.name), ['default', 'work']);
    const states = new Set(out.profiles.flatMap((p: { sessions: Array<{ state: string }> }) => p.sessions.map((s) => s.state)));
    for (const state of ['fresh', 'stale', 'pending']) assert.ok(states.has(state), state);
    assert.equal(out.profiles.find((p: { name: string }) => p.name === 'work').requestedEpoch, 2);
  });

  it('the executable (README: npm run demo → node dist/cli.js demo) prints the same table', async () => {
    const bin = cliBinary();
    const run = await runBinary(['demo', '--dir', path.join(dir, 'demo')]);
    assert.equal(run.code, 0, run.stderr);
    const states = new Set(rows(run.stdout).map((r) => r.state));
    for (const state of ['fresh', 'stale', 'pending']) assert.ok(states.has(state), `${bin}: no ${state} session`);
    assert.match(run.stdout, /\$\d/);
  });

  describe('two demos at once', () => {
    /** The demo home a run says it wrote. */
    const writtenTo = (stdout: string) => /Demo Hermes home written to (\S+)/.exec(stdout)?.[1];
    const tmp = () => ({ TMPDIR: dir, TMP: dir, TEMP: dir });

    it('run together, each writes and shows a whole home of its own', async () => {
      const runs = await Promise.all([runBinary(['demo'], tmp()), runBinary(['demo'], tmp())]);
      for (const run of runs) {
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stderr, '');
        const states = new Set(rows(run.stdout).map((r) => r.state));
        for (const state of ['fresh', 'stale', 'pending']) assert.ok(states.has(state), `no ${state} session in:\n${run.stdout}`);
        assert.ok(fs.existsSync(path.join(writtenTo(run.stdout)!, 'state.db')), run.stdout);
      }
      assert.deepEqual(fs.readdirSync(dir).filter((name) => name.endsWith('.lock')), [], 'no lock left behind');
    });

    it('while another run holds the usual folder, the demo writes a folder of its own beside it and leaves that one alone', async () => {
      const usual = path.join(dir, 'hermes-lens-demo');
      fs.mkdirSync(usual);
      fs.writeFileSync(path.join(usual, 'being-written'), '');
      fs.writeFileSync(`${usual}.lock`, String(process.pid)); // a live process: this test's
      const run = await runBinary(['demo'], tmp());
      assert.equal(run.code, 0, run.stderr);
      const home = writtenTo(run.stdout)!;
      assert.ok(home.startsWith(`${usual}-`), home);
      assert.match(run.stdout, new RegExp(`\\(another demo is using ${usual.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
      assert.ok(fs.existsSync(path.join(usual, 'being-written')), 'the other run\'s folder is untouched');
      assert.equal(fs.readFileSync(`${usual}.lock`, 'utf8'), String(process.pid), 'and so is its lock');
    });

    it('takes over the lock of a run that died, and refuses a --dir another live run holds', async () => {
      const usual = path.join(dir, 'hermes-lens-demo');
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      fs.writeFileSync(`${usual}.lock`, String(gone));
      const run = await runBinary(['demo'], tmp());
      assert.equal(run.code, 0, run.stderr);
      assert.ok(writtenTo(run.stdout)!.startsWith(`${usual}${path.sep}`), run.stdout);
      assert.ok(fs.existsSync(path.join(writtenTo(run.stdout)!, 'state.db')), run.stdout);
      assert.ok(!fs.existsSync(`${usual}.lock`), 'released');
      const chosen = path.join(dir, 'mine');
      fs.writeFileSync(`${chosen}.lock`, String(process.pid));
      const refused = cli(['demo', '--dir', chosen]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, new RegExp(`Another hermes-lens demo is writing ${chosen.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.ok(!fs.existsSync(chosen));
    });
  });
});
