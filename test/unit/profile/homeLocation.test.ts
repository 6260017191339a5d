// Where the Hermes home is, as Hermes' own get_hermes_home finds it on each platform, with the
// platform, environment and files given: a Windows machine's homes are tested here on any machine.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MemoryFs } from '../../../server/hermes/fs/memoryFs';
import { locateHome, readHome, profilePaths, selectProfile, userHome } from '../../../server/hermes/profile/home';

const ANN = { USERPROFILE: 'C:\\Users\\ann', LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local', HOME: '/should/not/be/read' };
const win = (env: NodeJS.ProcessEnv, fs = new MemoryFs()) => locateHome(undefined, env, { platform: 'win32', fs });

describe('profile: where the Hermes home is, on Windows, macOS and Linux', () => {
  it('on Windows: %LOCALAPPDATA%\\hermes, else ~\\AppData\\Local\\hermes (HOME is not Windows\' home)', () => {
    assert.deepEqual(win(ANN), { root: 'C:\\Users\\ann\\AppData\\Local\\hermes', origin: 'default' });
    assert.deepEqual(win({ USERPROFILE: 'C:\\Users\\ann', LOCALAPPDATA: '  ' }), { root: 'C:\\Users\\ann\\AppData\\Local\\hermes', origin: 'default' });
    assert.equal(win({ HOMEDRIVE: 'D:', HOMEPATH: '\\Users\\ann' }).root, 'D:\\Users\\ann\\AppData\\Local\\hermes');
    assert.equal(userHome({ USERPROFILE: 'C:\\Users\\ann', HOME: '/home/x' }, 'win32'), 'C:\\Users\\ann');
  });

  it("on Windows: the ~\\.hermes of builds before June 2026 (and Hermes Desktop's legacy home) while %LOCALAPPDATA%\\hermes is not there", () => {
    const legacy = new MemoryFs({ 'C:\\Users\\ann\\.hermes\\config.yaml': 'model: x\n' });
    assert.deepEqual(win(ANN, legacy), { root: 'C:\\Users\\ann\\.hermes', origin: 'default' });
    legacy.write('C:\\Users\\ann\\AppData\\Local\\hermes\\config.yaml', 'model: y\n');
    assert.equal(win(ANN, legacy).root, 'C:\\Users\\ann\\AppData\\Local\\hermes', 'the current home wins once it exists');
  });

  it('HERMES_HOME first (stripped, as Hermes strips it); <root>\\profiles\\<name> gives the root', () => {
    assert.deepEqual(win({ ...ANN, HERMES_HOME: ' D:\\hermes-data \n' }), { root: 'D:\\hermes-data', origin: 'HERMES_HOME' });
    assert.deepEqual(win({ ...ANN, HERMES_HOME: 'C:\\Users\\ann\\AppData\\Local\\hermes\\profiles\\work' }), { root: 'C:\\Users\\ann\\AppData\\Local\\hermes', origin: 'HERMES_HOME' });
    assert.equal(win({ ...ANN, HERMES_HOME: 'c:/data/profiles/coder' }).root, 'C:\\data', 'drive letter as Windows spells it, backslashes');
    assert.equal(win({ ...ANN, HERMES_HOME: '   ' }).origin, 'default', 'a blank HERMES_HOME is unset');
    assert.deepEqual(locateHome('C:\\Users\\ann\\.hermes\\profiles\\work', ANN, { platform: 'linux' }), { root: 'C:\\Users\\ann\\.hermes', origin: 'argument' });
  });

  it('on macOS and Linux: ~/.hermes from HOME; HERMES_HOME=<root>/profiles/<name> gives the root', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      assert.deepEqual(locateHome(undefined, { HOME: '/Users/ann', LOCALAPPDATA: 'C:\\x' }, { platform }), { root: '/Users/ann/.hermes', origin: 'default' });
      assert.equal(locateHome(undefined, { HOME: '/Users/ann', HERMES_HOME: '/srv/hermes/profiles/bot' }, { platform }).root, '/srv/hermes');
      assert.equal(locateHome(undefined, { HOME: '/Users/ann', HERMES_HOME: '/srv/hermes/profiles/Not A Profile' }, { platform }).root, '/srv/hermes/profiles/Not A Profile');
    }
  });

  it('reads a Windows home: its profiles, the active one and their files, in Windows paths', () => {
    const root = 'C:\\Users\\ann\\AppData\\Local\\hermes';
    const fs = new MemoryFs({
      [`${root}\\active_profile`]: 'work\n',
      [`${root}\\SOUL.md`]: 'Default.',
      [`${root}\\profiles\\work\\SOUL.md`]: 'Work.',
      [`${root}\\profiles\\Bad Name\\SOUL.md`]: 'Not a profile Hermes names.',
    });
    const home = readHome({ root, origin: 'default' }, fs);
    assert.deepEqual(home.profiles.map((p) => [p.name, p.dir, p.isActive]), [
      ['default', root, false],
      ['work', `${root}\\profiles\\work`, true],
    ]);
    const work = selectProfile(home);
    assert.deepEqual(profilePaths(work), {
      config: `${root}\\profiles\\work\\config.yaml`,
      soul: `${root}\\profiles\\work\\SOUL.md`,
      memory: `${root}\\profiles\\work\\memories\\MEMORY.md`,
      user: `${root}\\profiles\\work\\memories\\USER.md`,
      skills: `${root}\\profiles\\work\\skills`,
      stateDb: `${root}\\profiles\\work\\state.db`,
    });
    assert.throws(() => selectProfile(home, 'ops'), { message: `No profile "ops" in ${root} (profiles: default, work). Pick one of those with -p NAME.` });
    assert.throws(() => readHome({ root: 'C:\\Users\\bob\\AppData\\Local\\hermes', origin: 'default' }, fs), /^HermesError: No Hermes home at C:\\Users\\bob\\AppData\\Local\\hermes\. Pass --home DIR/);
  });

  it('a relative --home is resolved where the lens runs', () => {
    assert.equal(locateHome('some/home', {}, { platform: 'win32' }).root, path.resolve('some/home'));
  });
});
