// Exit codes of hermes-lens: 0 success, 1 an error with a one-line reason on stderr, 2 bad usage.
// In-process through runCli, and once through the real executable to check the process exit status.
import * as assert from 'node:assert/strict';
import { HomeBuilder } from '../../../server/demo/homeBuilder';
import { PROFILE_EPOCH_KEY } from '../../../server/hermes/refresh/epochs';
import { inspect, removeDir, tempDir, type RawRow } from '../demo/support';
import { cli, NOW, runBinary } from './support';

describe('cli: exit codes', function () {
  this.timeout(30000);
  let dir: string;
  let root: string;
  let dbFile: string;
  beforeEach(() => {
    dir = tempDir('hermes-cli-exit-');
    const home = HomeBuilder.create(`${dir}/hermes`, { seed: 81 });
    const p = home.profile();
    p.writeSoul('You are Kit.\n');
    p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 60, messages: 4, promptFromCurrentFiles: true });
    root = home.root;
    dbFile = p.dbFile;
  });
  afterEach(() => removeDir(dir));

  const epochKey = () => inspect(dbFile, (db) => db.prepare('SELECT value FROM state_meta WHERE key = ?').get(PROFILE_EPOCH_KEY) as RawRow | undefined);

  it('0 for a successful status and refresh', () => {
    assert.equal(cli(['status', '--home', root]).code, 0);
    assert.equal(cli(['refresh', '--home', root]).code, 0);
  });

  it('2 for an unknown flag, with a one-line reason naming it', () => {
    const run = cli(['status', '--home', root, '--bogus']);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /--bogus/);
  });

  it('2 for an unknown command, naming it and showing the usage', () => {
    const run = cli(['refesh', '--home', root]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown command "refesh"/);
    assert.match(run.stderr, /hermes-lens refresh/);
  });

  it('2 for a bad --strategy, and nothing is recorded', () => {
    const run = cli(['refresh', '--home', root, '--strategy', 'nuke']);
    assert.equal(run.code, 2);
    assert.equal(run.stderr.trim().split('\n').length, 1);
    assert.match(run.stderr, /nuke/);
    assert.equal(epochKey(), undefined);
  });

  it('2 for a missing required option (diff without --session) and for no command at all', () => {
    assert.equal(cli(['diff', '--home', root]).code, 2);
    assert.equal(cli([]).code, 2);
  });

  it('2 for a stray positional argument', () => {
    const run = cli(['refresh', 'now', '--home', root]);
    assert.equal(run.code, 2);
    assert.equal(epochKey(), undefined);
  });

  it('0 for --help', () => {
    const run = cli(['status', '--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /hermes-lens status/);
  });

  it('1 for an error a user can fix, with a one-line reason', () => {
    const run = cli(['status', '--home', root, '-p', 'nosuch']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr.trim().split('\n').length, 1);
    assert.match(run.stderr, /^hermes-lens status: /);
  });

  it('the executable exits with the same codes: 0, 1 (one line on stderr) and 2', async () => {
    const ok = await runBinary(['refresh', '--home', root, '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).epoch, 1);
    assert.equal(epochKey()?.value, '1');

    const missing = `${dir}/missing-home`;
    const error = await runBinary(['status', '--home', missing]);
    assert.equal(error.code, 1);
    assert.equal(error.stdout, '');
    assert.equal(error.stderr.trim().split('\n').length, 1, error.stderr);
    assert.ok(error.stderr.includes(missing));

    const usage = await runBinary(['status', '--nope']);
    assert.equal(usage.code, 2);
  });
});
