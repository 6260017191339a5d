// Nothing in the repository names a file outside it: a fresh clone is all a reader has, so a
// comment or doc that sends them to notes kept beside the project leads nowhere. The names looked
// for are the notes this project was started from and the machine's own folders; they are built
// from parts here so that this file does not name them itself.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../reliability/support/env';

const NOTES = ['FACTS', 'ANCHORS', 'REAL-VSCODE'];
const SHARED = ['design', 'hermes', 'seeds'];
const OUTSIDE = new RegExp(
  [
    ...NOTES.map((name) => `${name}\\.md`),
    `${NOTES[0]} §`,
    ...SHARED.map((dir) => ['shared', dir, ''].join('/')),
    `/${'work'}/(?:main|steering|shared)`,
  ].join('|'),
);

describe('tooling: the repository is self-contained', () => {
  it('no tracked file names a note or folder outside the repository', () => {
    const files = trackedFiles();
    // Homes Hermes wrote hold the paths of the machine they were written on; they are data, not references.
    const found = files
      .filter((file) => !file.startsWith('test/fixtures/') && fs.existsSync(path.join(REPO_ROOT, file)))
      .flatMap((file) => {
        const text = fs.readFileSync(path.join(REPO_ROOT, file));
        if (text.includes(0)) return [];
        return text.toString('utf8').split('\n').flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
      });
    assert.deepEqual(found, []);
  });
});

/** The files git tracks; in an unpacked archive (no git), every file but what the build and npm make. */
function trackedFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\0').filter(Boolean);
  } catch {
    const made = new Set(['.git', 'node_modules', 'out', 'dist', 'test-output', '.vscode-test']);
    const walk = (dir: string): string[] =>
      fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
        const file = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) return made.has(file) ? [] : walk(file);
        return entry.isFile() ? [file] : [];
      });
    return walk('');
  }
}
