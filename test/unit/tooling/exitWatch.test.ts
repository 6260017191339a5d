// The test runs' exit watch (scripts/exit-watch.cjs): a suite that leaves something behind must
// end soon after its last test and say what it left, instead of keeping CI waiting until its time
// limit; the run's status stays the tests' own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, spawnNode, type CliRun } from '../../reliability/support/env';
import { removeDir, tempDir } from '../demo/support';

const REPORTER = path.join(REPO_ROOT, 'scripts', 'summary-reporter.cjs');

/** Runs mocha with the project's reporter on one spec file; the watch's grace shortened to `graceMs`. */
function runMocha(spec: string, graceMs: number): Promise<CliRun> {
  return spawnNode(require.resolve('mocha/bin/mocha.js'), ['--reporter', REPORTER, spec], {
    env: { ...process.env, HERMES_LENS_TEST_EXIT_GRACE_MS: String(graceMs) },
  });
}

/** Whether `pid` is a running process (a zombie nobody reaped counts as gone). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('test tooling: the exit watch after the last test', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-exitwatch-')));
  afterEach(() => removeDir(dir));

  it('ends a run that leaves a child process behind, names it, and kills it', async () => {
    const spec = path.join(dir, 'leaky.spec.js');
    fs.writeFileSync(
      spec,
      `const { spawn } = require('node:child_process');
       it('passes but leaves a process running', () => {
         const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['pipe', 'pipe', 'pipe'] });
         console.log('LEFT ' + child.pid);
       });`,
    );
    const run = await runMocha(spec, 300);
    const pid = Number(/LEFT (\d+)/.exec(run.stdout)?.[1]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /1 passed, 0 failed/);
    assert.match(run.stderr, new RegExp(`still held open[^]*child process ${pid}: .*setInterval`));
    assert.equal(running(pid), false, 'the leaked child process still runs');
  });

  it('names a timer chain a test left, with where it was set, and keeps a failing run failed', async () => {
    const spec = path.join(dir, 'ticking.spec.js');
    fs.writeFileSync(
      spec,
      `function poll() { setTimeout(poll, 50); }
       it('starts a poll that never stops', () => poll());
       it('fails', () => { throw new Error('no'); });`,
    );
    const run = await runMocha(spec, 300);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /1 passed, 1 failed/);
    assert.match(run.stderr, /still held open[^]*timer: setTimeout\(…, 50\) .*poll .*ticking\.spec\.js/);
  });

  it('lets a run that cleans up exit at once, with status 0', async () => {
    const spec = path.join(dir, 'tidy.spec.js');
    fs.writeFileSync(spec, `it('passes', () => {});`);
    // A grace far longer than the test's timeout: a run that had to wait for it would time out.
    const run = await runMocha(spec, 10 * 60_000);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /1 passed, 0 failed/);
    assert.doesNotMatch(run.stderr, /held open/);
  });

  it('fails a run whose tests all pass but whose process printed a warning on stderr, naming it', async () => {
    const spec = path.join(dir, 'warns.spec.js');
    fs.writeFileSync(
      spec,
      `const { EventEmitter } = require('node:events');
       it('passes but adds one listener too many', () => {
         const e = new EventEmitter();
         for (let i = 0; i < 11; i++) e.on('exit', () => {});
       });`,
    );
    const run = await runMocha(spec, 300);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /a process warning, printed on stderr: MaxListenersExceededWarning/);
    assert.match(run.stdout, /1 passed, 1 failed \(1 of them process warnings?\)/);
  });
});
