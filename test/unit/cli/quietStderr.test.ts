// The CLI's contract on stderr, under whichever Node.js runs the tests (CI runs them under 20, 22 and
// 24): every command prints nothing there when it succeeds, and exactly one line when it fails. No
// runtime warning, V8 flag complaint or binding notice may reach it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeDir, tempDir } from '../demo/support';
import { runBinary, type Run } from './support';

describe(`cli: stderr under Node.js ${process.version}`, function () {
  this.timeout(120000);
  let dir: string;
  let root: string;
  let sessionId: string;
  before(async () => {
    dir = tempDir('hermes-cli-stderr-');
    const demo = await runBinary(['demo', '--dir', dir, '--json']);
    assertQuiet(demo, 'demo --json');
    root = (JSON.parse(demo.stdout) as { home: string }).home;
    const status = JSON.parse((await runBinary(['status', '--home', root, '--json'])).stdout) as { profiles: Array<{ sessions: Array<{ id: string; state: string }> }> };
    sessionId = status.profiles[0]!.sessions.find((s) => s.state === 'stale')!.id;
  });
  after(() => removeDir(dir));

  function assertQuiet(run: Run, what: string): void {
    assert.equal(run.code, 0, `${what} exited ${run.code}: ${run.stderr}`);
    assert.equal(run.stderr, '', `${what} wrote on stderr`);
    assert.notEqual(run.stdout, '', `${what} printed nothing`);
  }

  function assertOneLine(run: Run, what: string, code: number): void {
    assert.equal(run.code, code, `${what}: ${run.stderr}`);
    assert.equal(run.stdout, '', `${what} printed on stdout`);
    assert.equal(run.stderr.endsWith('\n') ? run.stderr.slice(0, -1).split('\n').length : -1, 1, `${what} wrote other than one line on stderr:\n${run.stderr}`);
  }

  it('nothing on stderr from each command that succeeds', async () => {
    const commands = [
      ['demo', '--dir', path.join(dir, 'second')],
      ['status', '--home', root],
      ['status', '--home', root, '--json', '--all-profiles', '--all'],
      ['prompt-size', '--home', root, '--session', sessionId],
      ['prompt-size', '--home', root, '--session', sessionId, '--json'],
      ['diff', '--home', root, '--session', sessionId],
      ['diff', '--home', root, '--session', sessionId, '--json'],
      ['refresh', '--home', root, '--json'],
      ['status', '--help'],
      ['--help'],
    ];
    for (const argv of commands) assertQuiet(await runBinary(argv), argv.join(' '));
  });

  it('one line on stderr from each command that fails, and nothing on stdout', async () => {
    const missing = path.join(dir, 'no-such-home');
    for (const command of [['status'], ['prompt-size'], ['diff', '--session', 'x'], ['refresh']]) {
      const argv = [...command, '--home', missing];
      const run = await runBinary(argv);
      assertOneLine(run, argv.join(' '), 1);
      assert.ok(run.stderr.includes(missing), `${argv.join(' ')} names the home: ${run.stderr}`);
    }
    assertOneLine(await runBinary(['status', '--home', root, '--bogus']), 'status --bogus', 2);
    const noBinding = await runBinary(['refresh', '--home', root], { HERMES_LENS_SQLITE_DRIVER: 'no-such-binding' });
    assertOneLine(noBinding, 'refresh with no SQLite binding', 1);
    assert.match(noBinding.stderr, /HERMES_LENS_SQLITE_DRIVER/);
    assert.ok(fs.existsSync(root), 'the home is still there');
  });
});
