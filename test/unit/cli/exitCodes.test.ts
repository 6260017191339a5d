// Exit codes of hermes-lens: 0 success, 1 an error with a one-line reason on stderr, 2 bad usage.
// In-process through runCli, and once through the real executable to check the process exit status.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../../server/cli/main';
import type { CommandIO } from '../../../server/cli/io';
import { HomeBuilder } from '../../../server/demo/homeBuilder';
import { PROFILE_EPOCH_KEY } from '../../../server/hermes/refresh/epochs';
import { inspect, removeDir, tempDir, type RawRow } from '../demo/support';

const NOW = 1_795_000_000;
const REPO = path.resolve(__dirname, '..', '..', '..', '..');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(argv: string[]): Run {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = { out: (t) => void out.push(t), err: (t) => void err.push(t), env: {}, now: () => NOW };
  const code = runCli(argv, io);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** The CLI as users run it: the esbuild bundle when built, else the compiled entry point. */
function binary(): string {
  const bundle = path.join(REPO, 'dist', 'cli.js');
  return fs.existsSync(bundle) ? bundle : path.join(REPO, 'out', 'server', 'cli', 'main.js');
}

function runBinary(argv: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.HERMES_HOME;
    const child = spawn(process.execPath, [binary(), ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

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
