// Paths are read in their own flavour whatever machine the lens runs on: a Windows session's cwd,
// a Windows editor's file URI and a Windows profile compare as Windows compares them (whatever the
// case), POSIX ones as POSIX does, and the two never mix.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AnalysisCache } from '../../../server/hermes/engine/analysisCache';
import { flavourOf, isAtOrInside, labelBasename, labelDirname, relativeInside, resolvedIn, resolvedPath, samePath } from '../../../server/hermes/pathFlavour';
import type { ProjectContext } from '../../../server/hermes/sources/types';
import { overrideReadingOf } from '../../../server/hermes/sources/contextAsRead';
import { pathToUri, uriToPath } from '../../../server/lsp/uri';

describe('pathFlavour: a path is read in its own flavour, on any machine', () => {
  it('tells a Windows path by its drive or share, a POSIX one by its leading slash', () => {
    assert.equal(flavourOf('C:\\Users\\ann'), path.win32);
    assert.equal(flavourOf('d:/work'), path.win32);
    assert.equal(flavourOf('\\\\server\\share\\repo'), path.win32);
    assert.equal(flavourOf('/home/ann'), path.posix);
    assert.equal(resolvedPath('c:/Users/ann/repo/../repo'), 'C:\\Users\\ann\\repo');
    assert.equal(resolvedIn('C:\\Users\\ann\\repo\\pkg', '..\\AGENTS.md'), 'C:\\Users\\ann\\repo\\AGENTS.md');
    assert.equal(resolvedIn('/home/ann/repo/pkg', '../AGENTS.md'), '/home/ann/repo/AGENTS.md');
  });

  it('compares Windows paths whatever their case, POSIX ones exactly, and never one with the other', () => {
    assert.equal(relativeInside('C:\\Users\\ann\\repo', 'c:\\users\\ANN\\repo\\pkg\\AGENTS.md'), 'pkg\\AGENTS.md');
    assert.equal(samePath('C:\\Users\\ann\\repo', 'c:/users/ann/REPO'), true);
    assert.equal(isAtOrInside('C:\\Users\\ann\\repo', 'D:\\Users\\ann\\repo'), false, 'another drive');
    assert.equal(isAtOrInside('C:\\Users\\ann\\repo', 'C:\\Users\\ann\\repo-old'), false);
    assert.equal(isAtOrInside('/home/ann/repo', '/home/ann/Repo/x'), false);
    assert.equal(isAtOrInside('/home/ann/repo', '/home/ann/repo/..x/AGENTS.md'), true, 'a folder whose name starts with two dots');
    assert.equal(isAtOrInside('/home/ann', 'C:\\home\\ann'), false);
  });

  it('reads a label with either separator: Hermes writes ..\\ on Windows', () => {
    assert.deepEqual([labelBasename('..\\..\\AGENTS.override.md'), labelDirname('..\\..\\AGENTS.override.md')], ['AGENTS.override.md', '../..']);
    assert.deepEqual([labelBasename('../AGENTS.md'), labelDirname('../AGENTS.md'), labelDirname('AGENTS.md')], ['AGENTS.md', '..', '.']);
    // A prompt carrying a folder's AGENTS.md and its override both came from a build that appends the override.
    assert.equal(overrideReadingOf({ labels: ['..\\AGENTS.md', '..\\AGENTS.override.md'], readsNoOverride: false }), 'appended');
    assert.equal(overrideReadingOf({ labels: ['..\\AGENTS.md', 'AGENTS.override.md'], readsNoOverride: false }), 'instead');
  });

  it("turns a Windows editor's file URI into the Windows path, drive letter in upper case, and back", () => {
    assert.equal(uriToPath('file:///c%3A/Users/ann/repo/AGENTS.md'), 'C:\\Users\\ann\\repo\\AGENTS.md');
    assert.equal(uriToPath('file:///C:/Users/ann/My%20Repo/SOUL.md'), 'C:\\Users\\ann\\My Repo\\SOUL.md');
    assert.equal(uriToPath('file://server/share/repo/AGENTS.md'), '\\\\server\\share\\repo\\AGENTS.md');
    assert.equal(uriToPath('file:///home/ann/repo/AGENTS.md'), '/home/ann/repo/AGENTS.md');
    assert.equal(uriToPath('untitled:Untitled-1'), undefined);
    assert.equal(pathToUri('C:\\Users\\ann\\repo\\AGENTS.md'), 'file:///C:/Users/ann/repo/AGENTS.md');
    assert.equal(pathToUri('/home/ann/repo/AGENTS.md'), 'file:///home/ann/repo/AGENTS.md');
  });
});

describe('engine: a saved file drops what it feeds, in Windows paths too', () => {
  const context = { kind: 'none', files: [], shadowed: [], block: '', problems: [] } as ProjectContext;

  for (const flavour of ['win32', 'posix'] as const) {
    const p = flavour === 'win32' ? path.win32 : path.posix;
    const userHome = flavour === 'win32' ? 'C:\\Users\\ann' : '/home/ann';
    // What an editor hands over: VS Code spells a Windows drive `c:`, and the case of a name may differ from the stored cwd's.
    const edited = (file: string) => (flavour === 'win32' ? file.replace(/^C:/, 'c:').replace('\\repo\\', '\\Repo\\') : file);

    it(`a project file drops the cwds at and below its folder only (${flavour})`, () => {
      const cache = new AnalysisCache();
      cache.profileDir = p.join(userHome, '.hermes');
      const pkg = p.join(userHome, 'repo', 'pkg');
      const other = p.join(userHome, 'repo-old');
      for (const cwd of [pkg, other, p.join(userHome, 'repo')]) cache.projectContexts.set(cwd, context);
      cache.sourcesChanged([edited(p.join(userHome, 'repo', 'pkg', 'AGENTS.md'))]);
      assert.deepEqual([...cache.projectContexts.keys()].sort(), [p.join(userHome, 'repo'), other].sort());
      cache.sourcesChanged([edited(p.join(userHome, 'repo', '.cursor', 'rules', 'style.mdc'))]);
      assert.deepEqual([...cache.projectContexts.keys()], [other]);
    });

    it(`a profile's SOUL.md or memory file drops only that part (${flavour})`, () => {
      const cache = new AnalysisCache();
      const profileDir = p.join(userHome, flavour === 'win32' ? 'AppData\\Local\\hermes' : '.hermes');
      cache.profileDir = profileDir;
      const soul = { exists: true } as never;
      const memory = { exists: true } as never;
      Object.assign(cache.parts, { soul, memory, user: memory });
      cache.projectContexts.set(p.join(userHome, 'repo'), context);
      const named = flavour === 'win32' ? profileDir.replace(/^C:/, 'c:').toLowerCase() : profileDir;
      cache.sourcesChanged([p.join(named, 'SOUL.md')]);
      assert.deepEqual(Object.keys(cache.parts).sort(), ['memory', 'user']);
      cache.sourcesChanged([p.join(named, 'memories', 'USER.md')]);
      assert.deepEqual(Object.keys(cache.parts), ['memory']);
      assert.equal(cache.projectContexts.size, 1, 'no project context was fed by those');
    });
  }
});
