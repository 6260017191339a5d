// `npm run package` gives a .vsix that vsce accepts as it is: vsce's own command from the script,
// run on the bundles `npm test` has just built (the development build: vsce does not look inside
// them) into a temporary folder, prints no WARNING and no ERROR. Without a terminal vsce goes on
// after a warning and exits 0, so its output is what tells. The package holds, for each platform it
// serves, the SQLite binding the store loads there. About 2 s.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { vsixFiles } from '../../support/zip';
import { assertBinaryPerTarget, VSIX_TARGETS } from '../../support/vsixTargets';
import { removeDir, tempDir } from '../demo/support';
import { packageJson, rootDir } from './packageJson';

/** The arguments of the `vsce` command in the package script, with `--out` sent to `out`. */
function vsceArgs(script: string, out: string): string[] {
  const command = script
    .split('&&')
    .map((part) => part.trim())
    .find((part) => part.startsWith('vsce '));
  assert.ok(command, `no vsce command in the package script: ${script}`);
  const args = command.split(/\s+/).slice(1);
  const at = args.indexOf('--out');
  assert.ok(at >= 0 && args[at + 1], 'the package script names its --out file');
  args[at + 1] = out;
  return args;
}

function vsceBin(): string {
  const manifest = require.resolve('@vscode/vsce/package.json');
  return path.join(path.dirname(manifest), JSON.parse(fs.readFileSync(manifest, 'utf8')).bin.vsce);
}

describe('client: packaging with vsce', function () {
  this.timeout(60_000);
  const root = rootDir();
  let dir: string;
  let output: string;
  let files: string[];
  let vsix: string;

  before(function () {
    if (!fs.existsSync(path.join(root, 'dist', 'extension.js'))) throw new Error('dist/ is not built: run `npm run build` (npm test does)');
    dir = tempDir('hermes-vsce-');
    vsix = path.join(dir, 'hermes-prompt-lens.vsix');
    const env = { ...process.env };
    delete env.GITHUB_ACTIONS; // vsce would print its warnings as workflow commands there
    const run = spawnSync(process.execPath, [vsceBin(), ...vsceArgs(packageJson().scripts.package, vsix)], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // eslint-disable-next-line no-control-regex
    output = `${run.stdout}${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
    assert.equal(run.status, 0, output);
    files = vsixFiles(vsix);
  });

  after(() => dir && removeDir(dir));

  it('prints no warning and no error', () => {
    assert.doesNotMatch(output, /WARNING|ERROR|Do you want to continue/, output);
    assert.match(output, /DONE\s+Packaged:/, output);
    assert.ok(files.includes('package.json') && files.includes('readme.md'), files.join(', '));
  });

  it('ships the icon the manifest names and the CHANGELOG', () => {
    assert.ok(files.includes(packageJson().icon), files.join(', '));
    assert.ok(files.includes('changelog.md'), files.join(', '));
  });

  it(`ships a SQLite binary for each of its ${VSIX_TARGETS.length} targets that is a shared object of that OS, processor and C library`, () => {
    assertBinaryPerTarget(vsix);
  });

  it('ships every page of the walkthrough', () => {
    for (const step of packageJson().contributes.walkthroughs[0].steps) assert.ok(files.includes(step.media.markdown), step.media.markdown);
  });
});
