// Finding the Hermes build that serves a home, from fake installations of several versions in temp
// folders: where Hermes' installer puts them, named by the setting, or reached through a `hermes`
// command; and bad inputs, each a clear message naming the path, with nothing written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeHermesCommand, writeHermesInstall, writePipInstall, WITH_REFRESH, WITHOUT_REFRESH } from '../../../server/demo/hermesInstall';
import { detectHermesBuild } from '../../../server/hermes/install/detectBuild';
import { hermesBuildJson } from '../../../server/hermes/install/describeBuild';
import { adoptsRefreshRequests, type HermesBuild } from '../../../server/hermes/install/hermesBuild';

describe('install: which Hermes build serves a home', () => {
  let dir: string;
  let homeRoot: string;
  /** A PATH and HOME of the test's own, so the machine's commands play no part. */
  let env: NodeJS.ProcessEnv;
  const detect = (explicit?: string) => detectHermesBuild({ homeRoot, explicit, env });

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-install-')));
    homeRoot = path.join(dir, 'home', '.hermes');
    fs.mkdirSync(homeRoot, { recursive: true });
    env = { PATH: path.join(dir, 'bin'), HOME: path.join(dir, 'home') };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function found(build: HermesBuild) {
    assert.equal(build.kind, 'found', JSON.stringify(build));
    return build as Extract<HermesBuild, { kind: 'found' }>;
  }
  function problemOf(build: HermesBuild): string {
    assert.equal(build.kind, 'unreadable', JSON.stringify(build));
    return (build as Extract<HermesBuild, { kind: 'unreadable' }>).problem;
  }

  it('reads a build with refresh-prompts in $HERMES_HOME/hermes-agent, where the installer puts it', () => {
    const install = writeHermesInstall(path.join(homeRoot, 'hermes-agent'), WITH_REFRESH);
    const build = found(detect());
    assert.deepEqual({ dir: build.dir, version: build.version, refresh: build.refreshPrompts, clue: build.clue }, { dir: install, version: '0.23.0', refresh: true, clue: 'home' });
    assert.equal(adoptsRefreshRequests(build), true);
    assert.deepEqual(hermesBuildJson(build), { version: '0.23.0', path: install, refresh: true, problem: null, summary: `Hermes 0.23.0 (${install}) adopts refresh requests.` });
  });

  it('tells v0.22.5 (its CLI does not offer refresh-prompts) cannot adopt a refresh request', () => {
    const install = writeHermesInstall(path.join(homeRoot, 'hermes-agent'), WITHOUT_REFRESH);
    const build = found(detect());
    assert.equal(build.refreshPrompts, false);
    assert.equal(adoptsRefreshRequests(build), false);
    const json = hermesBuildJson(build);
    assert.deepEqual([json.version, json.path, json.refresh], ['0.22.5', install, false]);
    assert.match(json.summary, /^Hermes 0\.22\.5 \(.*\) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after v0\.22\.5\.$/);
  });

  it('goes by the CLI text, not the version: a main checkout after the merge still says 0.22.5', () => {
    writeHermesInstall(path.join(homeRoot, 'hermes-agent'), { version: '0.22.5', refreshPrompts: true });
    assert.equal(found(detect()).refreshPrompts, true);
  });

  it('uses only the installation the setting names, ~ expanded, even where the home has another', () => {
    writeHermesInstall(path.join(homeRoot, 'hermes-agent'), WITH_REFRESH);
    const elsewhere = writeHermesInstall(path.join(dir, 'home', 'src', 'hermes'), { version: '0.21.0', refreshPrompts: false });
    const build = found(detect('~/src/hermes'));
    assert.deepEqual([build.dir, build.version, build.clue], [elsewhere, '0.21.0', 'setting']);
  });

  it('follows a hermes command on PATH that links into a checkout (older installers)', () => {
    const install = writeHermesInstall(path.join(dir, 'opt', 'hermes-agent'), WITH_REFRESH);
    writeHermesCommand(path.join(dir, 'bin'), install, 'link');
    const build = found(detect());
    assert.deepEqual([build.dir, build.clue], [install, 'command']);
  });

  it("reads the installer's launcher in ~/.local/bin for the checkout it runs, without running it", () => {
    const install = writeHermesInstall(path.join(dir, 'clone'), WITHOUT_REFRESH);
    const launcher = writeHermesCommand(path.join(dir, 'home', '.local', 'bin'), install, 'launcher');
    // Were it run, it would leave this file behind.
    fs.appendFileSync(launcher, `touch ${JSON.stringify(path.join(dir, 'ran'))}\n`);
    const build = found(detect());
    assert.deepEqual([build.dir, build.version, build.refreshPrompts], [install, '0.22.5', false]);
    assert.equal(fs.existsSync(path.join(dir, 'ran')), false);
  });

  it('follows pipx\'s link in ~/.local/bin to the console script, and reads the wheel in its environment without running it', () => {
    const venv = path.join(dir, 'home', '.local', 'share', 'pipx', 'venvs', 'hermes-agent');
    const { sitePackages, script } = writePipInstall(venv, WITH_REFRESH);
    fs.mkdirSync(path.join(dir, 'home', '.local', 'bin'), { recursive: true });
    fs.symlinkSync(script, path.join(dir, 'home', '.local', 'bin', 'hermes'));
    const build = found(detect());
    assert.deepEqual({ dir: build.dir, version: build.version, refresh: build.refreshPrompts, clue: build.clue }, { dir: sitePackages, version: '0.23.0', refresh: true, clue: 'command' });
    assert.equal(hermesBuildJson(build).summary, `Hermes 0.23.0 (${sitePackages}) adopts refresh requests.`);
  });

  it('reads `pip install --user` (the script run by the system python, the wheel in ~/.local), and an old wheel without the protocol', () => {
    const { sitePackages } = writePipInstall(path.join(dir, 'home', '.local'), WITHOUT_REFRESH, '/usr/bin/python3');
    const build = found(detect());
    assert.deepEqual([build.dir, build.version, build.refreshPrompts], [sitePackages, '0.22.5', false]);
    assert.equal(adoptsRefreshRequests(build), false, 'no epoch request for a build that never reads one');
  });

  it('reads the environment the setting names when it holds Hermes\' wheel instead of a checkout', () => {
    const venv = path.join(dir, 'venvs', 'hermes');
    const { sitePackages } = writePipInstall(venv, WITH_REFRESH);
    assert.equal(found(detect(venv)).dir, sitePackages);
    assert.equal(found(detect(sitePackages)).version, '0.23.0');
  });

  it("follows Homebrew's link to its wrapper, the wrapper's exec line to the console script in libexec, and reads the wheel there", () => {
    const cellar = path.join(dir, 'homebrew', 'Cellar', 'hermes-agent', '0.6.0');
    const { sitePackages, script } = writePipInstall(path.join(cellar, 'libexec'), WITH_REFRESH);
    fs.mkdirSync(path.join(cellar, 'bin'), { recursive: true });
    // Homebrew's write_env_script: the variables, then exec, on one line.
    fs.writeFileSync(path.join(cellar, 'bin', 'hermes'), `#!/bin/bash\nHERMES_BUNDLED_SKILLS="${cellar}/share/hermes-agent/skills" HERMES_MANAGED="homebrew" exec "${script}" "$@"\n`, { mode: 0o755 });
    fs.mkdirSync(path.join(dir, 'homebrew', 'bin'), { recursive: true });
    fs.symlinkSync(path.join(cellar, 'bin', 'hermes'), path.join(dir, 'homebrew', 'bin', 'hermes'));
    env.PATH = path.join(dir, 'homebrew', 'bin');
    const build = found(detect());
    assert.deepEqual([build.dir, build.version, build.refreshPrompts, build.clue], [sitePackages, '0.23.0', true, 'command']);
  });

  it("reads a venv's wheel when the project around the venv is not Hermes (a project that depends on it)", () => {
    const project = path.join(dir, 'myproject');
    const { sitePackages, script } = writePipInstall(path.join(project, '.venv'), WITHOUT_REFRESH);
    fs.writeFileSync(path.join(project, 'pyproject.toml'), '[project]\nname = "my-bot"\nversion = "1.0"\n');
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.symlinkSync(script, path.join(dir, 'bin', 'hermes'));
    assert.deepEqual([found(detect()).dir, found(detect()).version], [sitePackages, '0.22.5']);
  });

  it('says none was found (a remote gateway) when no folder exists and no command leads to a checkout', () => {
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', 'hermes'), '#!/bin/sh\ncurl https://gateway.example/run "$@"\n', { mode: 0o755 });
    const build = detect();
    assert.equal(build.kind, 'not-found');
    assert.equal(adoptsRefreshRequests(build), true, 'the profile-wide request stays the default');
    const json = hermesBuildJson(build);
    assert.deepEqual([json.version, json.path, json.refresh, json.problem], [null, null, null, null]);
    assert.match(json.summary, /^No Hermes installation found for this home \(a remote gateway\?\)/);
  });

  describe('bad inputs: a clear message naming the path, nothing written', () => {
    let before: string;
    beforeEach(() => (before = treeOf(dir)));
    afterEach(() => assert.equal(treeOf(dir), before, 'detection changed the files it looked at'));

    it('a pyproject.toml that is garbage', () => {
      const install = path.join(homeRoot, 'hermes-agent');
      writeHermesInstall(install, WITH_REFRESH);
      fs.writeFileSync(path.join(install, 'pyproject.toml'), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x9c, 0x0a, 0x5b]));
      before = treeOf(dir);
      const problem = problemOf(detect());
      assert.ok(problem.startsWith(`${path.join(install, 'pyproject.toml')} has no version = "…" line under [project]`), problem);
      assert.match(problem, /point --hermes-install \(hermesLens\.hermesInstall in the editor\) at the folder of your Hermes checkout/);
    });

    it('a version that is not a version number', () => {
      const install = writeHermesInstall(path.join(homeRoot, 'hermes-agent'), WITH_REFRESH);
      fs.writeFileSync(path.join(install, 'pyproject.toml'), '[project]\nname = "hermes-agent"\nversion = "latest, probably"\n');
      before = treeOf(dir);
      assert.match(problemOf(detect()), /pyproject\.toml gives version = "latest, probably", which is not a version number/);
    });

    it('a folder that is some other project', () => {
      const other = path.join(dir, 'other');
      fs.mkdirSync(other);
      fs.writeFileSync(path.join(other, 'pyproject.toml'), '[project]\nname = "not-hermes"\nversion = "1.0"\n');
      before = treeOf(dir);
      assert.equal(problemOf(detect(other)), `${other} is not a Hermes installation: its pyproject.toml names the project "not-hermes", not hermes-agent; point --hermes-install (hermesLens.hermesInstall in the editor) at the folder of your Hermes checkout, the one holding pyproject.toml and agent/.`);
    });

    it('a setting that names a symbolic link loop', () => {
      const loop = path.join(dir, 'loop');
      fs.symlinkSync(loop, loop);
      before = treeOf(dir);
      assert.match(problemOf(detect(loop)), new RegExp(`^The Hermes installation ${escape(loop)} is a symbolic link that loops; point --hermes-install`));
    });

    it('the installer folder as a symbolic link loop: it decides, and says so', () => {
      const install = path.join(homeRoot, 'hermes-agent');
      fs.symlinkSync(install, install);
      before = treeOf(dir);
      assert.match(problemOf(detect()), /hermes-agent is a symbolic link that loops/);
    });

    it('a setting that names a folder that does not exist, or a file', () => {
      assert.match(problemOf(detect(path.join(dir, 'nowhere'))), /nowhere does not exist; point --hermes-install/);
      fs.writeFileSync(path.join(dir, 'file'), 'x');
      before = treeOf(dir);
      assert.match(problemOf(detect(path.join(dir, 'file'))), /file is not a folder; point --hermes-install/);
    });

    it('a pyproject.toml that is a device (never read without end)', () => {
      const install = writeHermesInstall(path.join(homeRoot, 'hermes-agent'), WITH_REFRESH);
      fs.rmSync(path.join(install, 'pyproject.toml'));
      fs.symlinkSync('/dev/zero', path.join(install, 'pyproject.toml'));
      before = treeOf(dir);
      assert.match(problemOf(detect()), /pyproject\.toml is not a regular file/);
    });

    it("a wheel's METADATA without a version: the file named, and what to do", () => {
      const venv = path.join(dir, 'venvs', 'hermes');
      const { sitePackages } = writePipInstall(venv, WITH_REFRESH);
      const metadata = path.join(sitePackages, 'hermes_agent-0.23.0.dist-info', 'METADATA');
      fs.writeFileSync(metadata, 'Metadata-Version: 2.4\nName: hermes-agent\n');
      before = treeOf(dir);
      assert.equal(problemOf(detect(venv)), `${metadata} gives no version number, so the Hermes build there cannot be told; point --hermes-install (hermesLens.hermesInstall in the editor) at the environment Hermes was installed into.`);
    });

    it('a hermes command on PATH that loops, or leads to no checkout, is no clue', () => {
      fs.mkdirSync(path.join(dir, 'bin'));
      fs.symlinkSync(path.join(dir, 'bin', 'hermes'), path.join(dir, 'bin', 'hermes'));
      fs.mkdirSync(path.join(dir, 'home', '.local', 'bin'), { recursive: true });
      fs.symlinkSync('/usr/bin/env', path.join(dir, 'home', '.local', 'bin', 'hermes'));
      before = treeOf(dir);
      assert.equal(detect().kind, 'not-found');
    });
  });
});

/** Every entry below `root` with its kind, size and mtime: equal listings mean nothing was written. */
function treeOf(root: string): string {
  const lines: string[] = [];
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const s = fs.lstatSync(p);
      lines.push(`${path.relative(root, p)} ${s.isDirectory() ? 'd' : s.isSymbolicLink() ? 'l' : 'f'} ${s.size} ${s.mtimeMs}`);
      if (s.isDirectory()) walk(p);
    }
  };
  walk(root);
  return lines.join('\n');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
