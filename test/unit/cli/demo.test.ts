// `hermes-lens demo`: the README's first command (`npm run demo` = `node dist/cli.js demo`) must show
// the embedded demo home with fresh, stale and pending sessions and their refresh costs.
import * as assert from 'node:assert/strict';
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
});
