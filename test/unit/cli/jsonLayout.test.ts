// `--json` as people and programs get it: indented at a terminal, one compact line into a pipe,
// the same value either way.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { generateDemoHome } from '../../../server/demo/demoHome';
import { removeDir, tempDir } from '../demo/support';
import { cliBinary, runBinary } from './support';

/** The CLI run with a pseudo-terminal as its stdout (util-linux `script`), as a person runs it. */
function atTerminal(argv: string[]): { code: number | null; stdout: string } {
  const command = [process.execPath, cliBinary(), ...argv].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, HERMES_HOME: '' } });
  return { code: run.status, stdout: run.stdout.replace(/\r\n/g, '\n') };
}

describe('cli: the layout of --json', function () {
  this.timeout(60000);
  let dir: string;
  let home: string;
  beforeEach(() => {
    dir = tempDir('hermes-cli-json-');
    // A day old: every prompt cache has expired, so two runs a moment apart compute the same costs.
    home = generateDemoHome(path.join(dir, 'demo'), { now: Date.now() / 1000 - 86_400, writeManifest: false }).root;
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
});
