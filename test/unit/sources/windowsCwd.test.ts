// A session Hermes ran on Windows stores `C:\Users\ann\repo\pkg` as its cwd and labels the AGENTS
// chain with `os.path.relpath` (`..\AGENTS.md`). The lens reads such a workspace the same on any
// machine: the same workspace is laid out twice in memory, once with Windows paths and once with
// POSIX ones, and each must render exactly as Hermes on that platform renders it.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { parsePrompt } from '../../../server/hermes/anatomy/parsePrompt';
import { partReasons } from '../../../server/hermes/engine/staleness';
import { MemoryFs } from '../../../server/hermes/fs/memoryFs';
import { DEFAULT_CONFIG } from '../../../server/hermes/profile/config';
import { buildSystemPrompt } from '../../../server/hermes/sources/promptBuilder';
import { contextFileKind, discoverProjectContext } from '../../../server/hermes/sources/projectContext';
import { renderSources } from '../../../server/hermes/sources/renderSources';

const PREFIX = '# Project Context\n\nThe following project context files have been loaded and should be followed:\n\n';

/** The workspace of one flavour: a git checkout `repo` whose `pkg` folder is the session's cwd. */
function workspace(flavour: 'win32' | 'posix') {
  const p = flavour === 'win32' ? path.win32 : path.posix;
  const root = flavour === 'win32' ? 'C:\\Users\\ann\\repo' : '/home/ann/repo';
  const cwd = p.join(root, 'pkg');
  const fs = new MemoryFs({
    [p.join(root, '.git', 'HEAD')]: 'ref: refs/heads/main\n',
    [p.join(root, 'AGENTS.md')]: 'Root rules.\n',
    [p.join(cwd, 'AGENTS.md')]: 'Package rules.\n',
  });
  return { p, root, cwd, fs, sep: p.sep };
}

const discover = (fs: MemoryFs, cwd: string, maxChars = 20_000) => discoverProjectContext(fs, cwd, { maxChars });

describe('sources: a session cwd written on Windows, read on any machine', () => {
  for (const flavour of ['win32', 'posix'] as const) {
    it(`loads the AGENTS chain from the git root with ${flavour === 'win32' ? '..\\' : '../'} labels (${flavour} paths)`, () => {
      const { p, root, cwd, fs, sep } = workspace(flavour);
      const context = discover(fs, cwd);
      assert.equal(context.kind, 'agents-chain');
      assert.deepEqual(context.files.map((f) => [f.label, f.path]), [
        [`..${sep}AGENTS.md`, p.join(root, 'AGENTS.md')],
        ['AGENTS.md', p.join(cwd, 'AGENTS.md')],
      ]);
      assert.equal(context.block, `${PREFIX}## ..${sep}AGENTS.md\n\nRoot rules.\n\n## AGENTS.md\n\nPackage rules.`);
      assert.deepEqual(context.problems, []);
    });
  }

  it('stops at the git root a .git file marks (a worktree), and reads .hermes.md up to it', () => {
    const { p, root, fs } = workspace('win32');
    const cwd = p.join(root, 'wt', 'feature');
    fs.write(p.join(root, 'wt', '.git'), 'gitdir: C:\\Users\\ann\\repo\\.git\\worktrees\\wt\n');
    fs.write(p.join(root, 'wt', '.hermes.md'), '---\ntitle: x\n---\nWorktree notes.\n');
    fs.write(p.join(cwd, 'AGENTS.md'), 'Shadowed.');
    const context = discover(fs, cwd);
    assert.equal(context.kind, 'hermes-md');
    assert.deepEqual(context.files.map((f) => [f.label, f.path]), [['.hermes.md', p.join(root, 'wt', '.hermes.md')]]);
    assert.deepEqual(context.shadowed, [{ path: p.join(cwd, 'AGENTS.md'), winner: p.join(root, 'wt', '.hermes.md') }]);
  });

  it('matches .cursor\\rules\\*.mdc whatever the case on Windows only, and labels them with / as Hermes does', () => {
    for (const flavour of ['win32', 'posix'] as const) {
      const { p, cwd } = workspace(flavour);
      const fs = new MemoryFs({ [p.join(cwd, '.cursor', 'rules', 'b.MDC')]: 'Upper.', [p.join(cwd, '.cursor', 'rules', 'a.mdc')]: 'Lower.' });
      const labels = discover(fs, cwd).files.map((f) => f.label);
      assert.deepEqual(labels, flavour === 'win32' ? ['.cursor/rules/a.mdc', '.cursor/rules/b.MDC'] : ['.cursor/rules/a.mdc'], flavour);
    }
  });

  it('names the absolute Windows path in a truncation marker, as Hermes reads it', () => {
    const { p, cwd, fs } = workspace('win32');
    fs.write(p.join(cwd, 'AGENTS.md'), 'x'.repeat(300));
    const context = discover(fs, cwd, 100);
    assert.match(context.block, /read the complete file with the read_file tool: C:\\Users\\ann\\repo\\pkg\\AGENTS\.md\]/);
    assert.match(context.block, /\[\.\.\.truncated AGENTS\.md \(directory chain\): kept 70\+20 of \d+ chars/);
  });

  it('reads a cwd stored with a lower-case drive letter as the same folder, spelt C:\\ as Hermes resolves it', () => {
    const { cwd, fs } = workspace('win32');
    const lower = `c${cwd.slice(1)}`;
    const context = discover(fs, lower);
    assert.deepEqual(context.files.map((f) => f.path), ['C:\\Users\\ann\\repo\\AGENTS.md', 'C:\\Users\\ann\\repo\\pkg\\AGENTS.md']);
    assert.deepEqual(context.files.map((f) => f.label), ['..\\AGENTS.md', 'AGENTS.md']);
  });

  it('tells what a Windows context file is by its own path', () => {
    assert.deepEqual(contextFileKind('C:\\Users\\ann\\repo\\.cursor\\rules\\style.mdc'), { kind: 'cursorrules', cwd: 'C:\\Users\\ann\\repo', label: '.cursor/rules/style.mdc' });
    assert.deepEqual(contextFileKind('C:\\Users\\ann\\repo\\pkg\\AGENTS.md'), { kind: 'agents-chain', cwd: 'C:\\Users\\ann\\repo\\pkg', label: 'AGENTS.md' });
  });

  describe('staleness of a prompt Hermes built in that cwd', () => {
    const profile = { dir: '/home/ann/.hermes' };
    function storedPrompt(fs: MemoryFs, cwd: string) {
      const sources = renderSources(profile, DEFAULT_CONFIG, cwd, { fs, platform: 'win32' });
      return parsePrompt(buildSystemPrompt({ sources, trailer: { startedAt: 1_795_000_000 } }));
    }
    const reasons = (fs: MemoryFs, cwd: string, stored: ReturnType<typeof parsePrompt>) =>
      partReasons('projectContext', stored, renderSources(profile, DEFAULT_CONFIG, cwd, { fs, platform: 'win32' }), cwd).map((r) => [r.change, r.path, r.detail]);

    it('is fresh while nothing changed, and names the Windows file that changed or went', () => {
      const { p, root, cwd, fs } = workspace('win32');
      const stored = storedPrompt(fs, cwd);
      assert.deepEqual(stored.projectSections.map((s) => s.label), ['..\\AGENTS.md', 'AGENTS.md']);
      assert.deepEqual(reasons(fs, cwd, stored), []);
      fs.write(p.join(root, 'AGENTS.md'), 'Root rules, edited.\n');
      assert.deepEqual(reasons(fs, cwd, stored), [['changed', 'C:\\Users\\ann\\repo\\AGENTS.md', '..\\AGENTS.md']]);
      fs.remove(p.join(root, 'AGENTS.md'));
      assert.deepEqual(reasons(fs, cwd, stored), [['removed', 'C:\\Users\\ann\\repo\\AGENTS.md', '..\\AGENTS.md']]);
    });
  });
});
