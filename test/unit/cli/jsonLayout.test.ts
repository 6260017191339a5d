// `--json` as people and programs get it: indented at a terminal, one compact line into a pipe,
// the same value either way; and a reader that stops early (`| head`) ends the run quietly.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { startSession } from '../../../server/demo/hermes';
import { removeDir, tempDir } from '../demo/support';
import { cliBinary, runBinary } from './support';

/** The CLI's command line, quoted for a POSIX shell. */
function shellCommand(argv: string[]): string {
  return [process.execPath, cliBinary(), ...argv].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}

/** The CLI run with a pseudo-terminal as its stdout (util-linux `script`), as a person runs it. */
function atTerminal(argv: string[]): { code: number | null; stdout: string } {
  const command = shellCommand(argv);
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, HERMES_HOME: '' } });
  return { code: run.status, stdout: run.stdout.replace(/\r\n/g, '\n') };
}

describe('cli: the layout of --json', function () {
  this.timeout(60000);
  let dir: string;
  let demo: DemoManifest;
  let home: string;
  beforeEach(() => {
    dir = tempDir('hermes-cli-json-');
    // A day old: every prompt cache has expired, so two runs a moment apart compute the same costs.
    demo = generateDemoHome(path.join(dir, 'demo'), { now: Date.now() / 1000 - 86_400, writeManifest: false });
    home = demo.root;
  });
  afterEach(() => removeDir(dir));

  for (const argv of [['status', '--all-profiles'], ['prompt-size'], ['refresh', '--dry-run']]) {
    it(`hermes-lens ${argv.join(' ')} --json: compact into a pipe, indented at a terminal, the same value`, async () => {
      const args = [...argv, '--home', home, '--json'];
      const piped = await runBinary(args);
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stdout.trimEnd().split('\n').length, 1, 'one line into a pipe');
      const shown = atTerminal(args);
      assert.equal(shown.code, 0, shown.stdout);
      assert.match(shown.stdout, /^\{\n {2}"/, 'indented at a terminal');
      assert.deepEqual(JSON.parse(shown.stdout), JSON.parse(piped.stdout));
    });
  }

  it('writes all of it into a pipe a parent made non-blocking, whose reader is slower than the CLI', async () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const now = Date.now() / 1000;
    for (let i = 0; i < 400; i++) startSession(def.dbFile, def.dir, { source: 'cli', model: 'claude-sonnet-4-5', startedAt: now - 86_400 - i, lastActivityAt: now - 86_400 + i, messages: 1 });
    const args = ['status', '--json', '--home', home];
    const blocking = await runBinary(args);
    assert.equal(blocking.code, 0, blocking.stderr);
    assert.ok(blocking.stdout.length > 64 * 1024, 'more than a pipe holds');
    // A one-page pipe, non-blocking on the writer's side (O_NONBLOCK belongs to the open pipe, so the
    // child has it too): a 64 KiB write returns after 4 KiB and the next one would block.
    const parent = [
      'import fcntl, os, subprocess, sys',
      'r, w = os.pipe()',
      'fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ',
      'os.set_blocking(w, False)',
      'child = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.DEVNULL)',
      'os.close(w)',
      'chunks = []',
      'while True:',
      '    chunk = os.read(r, 1024)',
      '    if not chunk: break',
      '    chunks.append(chunk)',
      'sys.stdout.buffer.write(b"".join(chunks))',
      'sys.exit(child.wait())',
    ].join('\n');
    const env = { ...process.env };
    delete env.HERMES_HOME;
    const run = spawnSync('python3', ['-c', parent, process.execPath, cliBinary(), ...args], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), JSON.parse(blocking.stdout));
  });

  it('ends quietly when the pipe it writes to is closed while it writes (status --json | head -c 100)', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    // More output than a pipe holds (64 kB on Linux): the CLI is still writing when the reader goes.
    const now = Date.now() / 1000;
    for (let i = 0; i < 400; i++) startSession(def.dbFile, def.dir, { source: 'cli', model: 'claude-sonnet-4-5', startedAt: now - 600 - i, lastActivityAt: now - i, messages: 1 });
    // A shell pipeline, as people write it: `head` takes 100 bytes and goes.
    const pipeline = `set -o pipefail; ${shellCommand(['status', '--json', '--home', demo.root])} | head -c 100 >/dev/null`;
    const run = spawnSync('bash', ['-c', pipeline], { encoding: 'utf8', env: { ...process.env, HERMES_HOME: '' } });
    assert.equal(run.stderr, '', 'no error and no stack');
    assert.equal(run.status, 0);
  });
});
