// Where Hermes is installed on Windows and macOS, found from the files alone: every layout is laid
// out in memory in that platform's own paths (fs/memoryFs.ts) and searched as the lens searches
// that platform, on any machine. What each place holds (the version, the protocol) is read by
// readInstall.ts and pipInstall.ts, tested on disk in detectBuild.test.ts.
import * as assert from 'node:assert/strict';
import { MemoryFs } from '../../../server/hermes/fs/memoryFs';
import { locateInstalls, type BuildQuery } from '../../../server/hermes/install/detectBuild';
import { installCandidates } from '../../../server/hermes/install/installCandidates';
import { installFsWithoutLinks } from '../../../server/hermes/install/installFs';
import { interpretersInLauncher, pathsInBatch } from '../../../server/hermes/install/windowsLauncher';

const LOCAL = 'C:\\Users\\ann\\AppData\\Local';
const ENV = { USERPROFILE: 'C:\\Users\\ann', LOCALAPPDATA: LOCAL, APPDATA: 'C:\\Users\\ann\\AppData\\Roaming', Path: 'C:\\Windows\\system32;C:\\Windows' };
const HOME = `${LOCAL}\\hermes`;

/** pip's console script as the zipped `__main__.py` a launcher .exe carries (stored, not compressed). */
const MAIN_PY = "# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom hermes_cli.main import main\nif __name__ == '__main__':\n    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n    sys.exit(main())\n";
const launcherCode = () => Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(2048), Buffer.from('This program cannot be run in DOS mode.'), Buffer.alloc(1024)]);
const zipOf = (script: string) => Buffer.concat([Buffer.from('PK\x03\x04\x14\x00\x00\x00\x00\x00'), Buffer.alloc(16), Buffer.from('__main__.py'), Buffer.from(script), Buffer.from('PK\x05\x06'), Buffer.alloc(18)]);

/** distlib's launcher (pip): the code, a `#!` line naming the interpreter, the zipped script. */
function distlibExe(python: string, script = MAIN_PY): Buffer {
  const shebang = python.includes(' ') ? `#!"${python}"\n` : `#!${python}\n`;
  return Buffer.concat([launcherCode(), Buffer.from(shebang, 'utf8'), zipOf(script)]);
}

/** uv's launcher: the code, the zipped script, then the interpreter's path, its length and `UVSC` (older uv). */
function uvTrailerExe(python: string): Buffer {
  const bytes = Buffer.from(python, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(bytes.length);
  return Buffer.concat([launcherCode(), zipOf(MAIN_PY), bytes, length, Buffer.from('UVSC')]);
}

/** uv's newer launcher: the path and the script as PE resources (raw data in the resource section). */
function uvResourceExe(python: string): Buffer {
  return Buffer.concat([launcherCode(), Buffer.from('.rsrc\x00\x00\x00'), Buffer.alloc(64), Buffer.from([1, 0, 0, 0]), Buffer.from(python, 'utf8'), Buffer.alloc(7), zipOf(MAIN_PY), Buffer.alloc(32)]);
}

/** A checkout as install.ps1 makes it: pyproject.toml, agent\, venv\Scripts\hermes.exe. */
function checkout(fs: MemoryFs, dir: string): void {
  fs.write(`${dir}\\pyproject.toml`, '[project]\nname = "hermes-agent"\nversion = "0.23.0"\n');
  fs.write(`${dir}\\agent\\__init__.py`, '');
  fs.write(`${dir}\\venv\\Scripts\\python.exe`, launcherCode());
  fs.write(`${dir}\\venv\\Scripts\\hermes.exe`, uvResourceExe(`${dir}\\venv\\Scripts\\python.exe`));
}

/** A wheel pip installed into the site-packages folder `site`. */
function wheel(fs: MemoryFs, site: string, version = '0.23.0'): void {
  fs.write(`${site}\\hermes_agent-${version}.dist-info\\METADATA`, `Metadata-Version: 2.4\nName: hermes-agent\nVersion: ${version}\n`);
  fs.write(`${site}\\agent\\__init__.py`, '');
}

function located(fs: MemoryFs, query: Partial<BuildQuery> & { env: NodeJS.ProcessEnv }, platform: NodeJS.Platform = 'win32') {
  return [...locateInstalls({ homeRoot: undefined, ...query }, platform, installFsWithoutLinks(fs))].map((l) => (l.decides ? [l.clue, l.dir] : [l.clue, l.layout, l.dir]));
}

describe('install: where Hermes is on Windows (install.ps1, Hermes Desktop, pip, uv, pipx)', () => {
  it("finds install.ps1's checkout in the home's hermes-agent folder: it decides, before any command", () => {
    const fs = new MemoryFs();
    checkout(fs, `${HOME}\\hermes-agent`);
    const env = { ...ENV, Path: `${HOME}\\hermes-agent\\venv\\Scripts;${ENV.Path}` };
    assert.deepEqual(located(fs, { homeRoot: HOME, env }), [
      ['home', `${HOME}\\hermes-agent`],
      ['command', 'checkout', `${HOME}\\hermes-agent`],
    ]);
  });

  it('follows hermes.exe on Path (any case of the name) to the checkout whose venv holds it, for a home elsewhere', () => {
    const fs = new MemoryFs();
    checkout(fs, 'D:\\tools\\hermes-agent');
    const { Path: _, ...rest } = ENV;
    const env = { ...rest, pAtH: `C:\\Windows;"D:\\tools\\hermes-agent\\venv\\Scripts"` };
    assert.deepEqual(located(fs, { homeRoot: 'D:\\hermes-data', env }), [['command', 'checkout', 'D:\\tools\\hermes-agent']]);
  });

  it('follows <env>\\Scripts\\hermes.exe to <env>\\Lib\\site-packages (pip into a venv or a Python install)', () => {
    const fs = new MemoryFs();
    wheel(fs, 'C:\\Python312\\Lib\\site-packages');
    fs.write('C:\\Python312\\Scripts\\hermes.exe', distlibExe('C:\\Python312\\python.exe'));
    const env = { ...ENV, Path: `C:\\Python312\\Scripts;C:\\Python312;${ENV.Path}` };
    assert.deepEqual(located(fs, { homeRoot: HOME, env }), [['command', 'site-packages', 'C:\\Python312\\Lib\\site-packages']]);
  });

  it('follows `pip install --user` (%APPDATA%\\Python\\Python312\\Scripts) to the user site-packages beside it', () => {
    const fs = new MemoryFs();
    const base = `${ENV.APPDATA}\\Python\\Python312`;
    wheel(fs, `${base}\\site-packages`);
    fs.write(`${base}\\Scripts\\hermes.exe`, distlibExe('C:\\Program Files\\Python312\\python.exe'));
    assert.deepEqual(located(fs, { env: { ...ENV, Path: `${base}\\Scripts` } }), [['command', 'site-packages', `${base}\\site-packages`]]);
  });

  for (const [maker, name] of [[uvTrailerExe, "uv's older launcher"], [uvResourceExe, "uv's launcher"], [distlibExe, "pip's launcher"]] as const) {
    it(`reads a copy in ~\\.local\\bin (uv tool, pipx) for the interpreter it names: ${name}, a user name with ë`, () => {
      const fs = new MemoryFs();
      const env = { ...ENV, USERPROFILE: 'C:\\Users\\zoë' };
      const tool = 'C:\\Users\\zoë\\AppData\\Roaming\\uv\\tools\\hermes-agent';
      wheel(fs, `${tool}\\Lib\\site-packages`);
      fs.write(`${tool}\\Scripts\\python.exe`, launcherCode());
      fs.write('C:\\Users\\zoë\\.local\\bin\\hermes.exe', maker(`${tool}\\Scripts\\python.exe`));
      assert.deepEqual(located(fs, { env }), [['command', 'site-packages', `${tool}\\Lib\\site-packages`]]);
    });
  }

  it('reads a hermes.cmd on Path for the programs it names (%~dp0 is its own folder), in PATHEXT order', () => {
    const fs = new MemoryFs();
    checkout(fs, 'D:\\src\\hermes');
    wheel(fs, 'C:\\Python312\\Lib\\site-packages');
    fs.write('D:\\bin\\hermes.cmd', '@echo off\r\n"%~dp0..\\src\\hermes\\venv\\Scripts\\python.exe" -m hermes_cli.main %*\r\n');
    fs.write('D:\\bin\\hermes.exe', distlibExe('C:\\Python312\\python.exe'));
    const env = { ...ENV, Path: 'D:\\bin', PATHEXT: '.COM;.CMD;.EXE' };
    assert.deepEqual(installCandidates(undefined, env, 'win32').commands, ['D:\\bin\\hermes.cmd', 'D:\\bin\\hermes.exe', 'C:\\Users\\ann\\.local\\bin\\hermes.cmd', 'C:\\Users\\ann\\.local\\bin\\hermes.exe']);
    assert.deepEqual(located(fs, { env }), [
      ['command', 'checkout', 'D:\\src\\hermes'],
      ['command', 'site-packages', 'C:\\Python312\\Lib\\site-packages'],
    ]);
  });

  it('passes over a hermes.exe that is another program, and Hermes Desktop\'s large Hermes.exe', () => {
    const fs = new MemoryFs();
    fs.write('C:\\Tools\\hermes.exe', distlibExe('C:\\Python312\\python.exe', 'import other\nother.run()\n'));
    fs.write(`${LOCAL}\\Programs\\Hermes\\Hermes.exe`, Buffer.alloc(5 * 1024 * 1024));
    assert.deepEqual(located(fs, { env: { ...ENV, Path: `C:\\Tools;${LOCAL}\\Programs\\Hermes` } }), []);
  });

  it('looks nowhere POSIX on Windows: no /usr/local, no command without an extension', () => {
    const { folders, commands } = installCandidates(HOME, ENV, 'win32');
    assert.deepEqual(folders, [{ dir: `${HOME}\\hermes-agent`, clue: 'home' }]);
    assert.ok(commands.every((c) => /^C:\\.*\\hermes\.(exe|bat|cmd)$/.test(c)), commands.join('\n'));
  });

  it('reads the interpreter out of a launcher, and the paths out of a batch file', () => {
    assert.deepEqual(interpretersInLauncher(distlibExe('C:\\Program Files\\Python 3.12\\python.exe')), ['C:\\Program Files\\Python 3.12\\python.exe']);
    assert.deepEqual(interpretersInLauncher(uvTrailerExe('C:\\Users\\zoë\\venv\\Scripts\\pythonw.exe')), ['C:\\Users\\zoë\\venv\\Scripts\\pythonw.exe']);
    assert.deepEqual(interpretersInLauncher(launcherCode()), []);
    assert.deepEqual(pathsInBatch('@"C:\\Python312\\python.exe" "%~dp0hermes" %*\r\nset X=D:\\a\\b.exe\r\n', 'D:\\src'), ['C:\\Python312\\python.exe', 'D:\\src\\hermes', 'D:\\a\\b.exe']);
  });
});

describe('install: where Hermes is on macOS (install.sh, Homebrew)', () => {
  const MAC = { HOME: '/Users/ann', PATH: '/usr/bin:/bin' };

  it("finds install.sh's checkout in ~/.hermes/hermes-agent, and never /usr/local/lib (Homebrew's, on macOS)", () => {
    const fs = new MemoryFs({ '/Users/ann/.hermes/hermes-agent/pyproject.toml': '[project]\nname = "hermes-agent"\n', '/usr/local/lib/hermes-agent/pyproject.toml': 'x' });
    assert.deepEqual(located(fs, { homeRoot: '/Users/ann/.hermes', env: MAC }, 'darwin'), [['home', '/Users/ann/.hermes/hermes-agent']]);
    assert.deepEqual(installCandidates('/Users/ann/.hermes', MAC, 'darwin').commands.slice(-3), ['/Users/ann/.local/bin/hermes', '/opt/homebrew/bin/hermes', '/usr/local/bin/hermes']);
  });

  it("follows Homebrew's wrapper (variables, then exec) to the console script in libexec, and its environment's wheel", () => {
    const cellar = '/opt/homebrew/Cellar/hermes-agent/0.6.0';
    const fs = new MemoryFs({
      '/opt/homebrew/bin/hermes': `#!/bin/bash\nHERMES_BUNDLED_SKILLS="${cellar}/share/hermes-agent/skills" HERMES_OPTIONAL_SKILLS="${cellar}/share/hermes-agent/optional-skills" HERMES_MANAGED="homebrew" exec "${cellar}/libexec/bin/hermes" "$@"\n`,
      [`${cellar}/libexec/bin/hermes`]: `#!${cellar}/libexec/bin/python\n${MAIN_PY}`,
      [`${cellar}/libexec/lib/python3.14/site-packages/hermes_agent-0.6.0.dist-info/METADATA`]: 'Name: hermes-agent\nVersion: 0.6.0\n',
    });
    assert.deepEqual(located(fs, { homeRoot: '/Users/ann/.hermes', env: MAC }, 'darwin'), [['command', 'site-packages', `${cellar}/libexec/lib/python3.14/site-packages`]]);
  });
});
