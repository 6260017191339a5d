// The lens's cache folder comes from the environment a command is run with (cacheFolder.ts): what
// `status` keeps and the watches `refresh` starts go to the folder that environment names, never to
// the one of the process running the command; `off` keeps nothing on disk.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeHermesInstall, WITH_REFRESH } from '../../../server/demo/hermesInstall';
import { HomeBuilder } from '../../../server/demo/homeBuilder';
import { removeDir, tempDir } from '../demo/support';
import { cli, NOW } from './support';

/** The cache folder's subfolders a status and a refresh write, with the files in each. */
function kept(folder: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const sub of ['analyses-v1', 'refresh-adoption-v1']) {
    const dir = path.join(folder, sub);
    out[sub] = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  }
  return out;
}

describe('cli: the cache folder a command uses is the one its environment names', function () {
  this.timeout(30000);
  let dir: string;
  let root: string;
  beforeEach(() => {
    dir = tempDir('hermes-cli-cache-folder-');
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 17 });
    const def = home.profile();
    def.writeSoul('You are Kit.\n');
    def.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 600, messages: 4, promptFromCurrentFiles: true });
    def.writeSoul('You are Kit. Answer briefly.\n');
    writeHermesInstall(path.join(home.root, 'hermes-agent'), WITH_REFRESH);
    root = home.root;
  });
  afterEach(() => removeDir(dir));

  it("status and refresh keep what they keep in the folder of their environment, nothing in the process's", () => {
    const own = path.join(dir, 'own-cache');
    const processFolder = process.env.HERMES_LENS_TOKEN_CACHE!;
    const before = kept(processFolder);
    assert.equal(cli(['status', '--home', root], { HERMES_LENS_TOKEN_CACHE: own }).code, 0);
    const refresh = cli(['refresh', '--home', root], { HERMES_LENS_TOKEN_CACHE: own });
    assert.equal(refresh.code, 0, refresh.stderr);
    const mine = kept(own);
    assert.equal(mine['analyses-v1']!.length, 1, JSON.stringify(mine));
    assert.ok(mine['refresh-adoption-v1']!.length > 0, JSON.stringify(mine));
    assert.deepEqual(kept(processFolder), before);
    // A later status with that environment follows the watch refresh started there, with its
    // prediction; with another it only sees a session pending since a request it did not watch.
    const watch = (env: NodeJS.ProcessEnv) => JSON.parse(cli(['status', '--home', root, '--json'], env).stdout).profiles[0].sessions[0].adoption;
    const followed = watch({ HERMES_LENS_TOKEN_CACHE: own });
    assert.deepEqual([followed.state, followed.by, followed.predicted !== null], ['pending', 'lens', true]);
    const seen = watch({ HERMES_LENS_TOKEN_CACHE: path.join(dir, 'other-cache') });
    assert.notEqual(seen.by, 'lens');
  });

  it('with HERMES_LENS_TOKEN_CACHE=off in its environment, a command keeps nothing on disk', () => {
    const processFolder = process.env.HERMES_LENS_TOKEN_CACHE!;
    const before = kept(processFolder);
    const refresh = cli(['refresh', '--home', root], { HERMES_LENS_TOKEN_CACHE: 'off' });
    assert.equal(refresh.code, 0, refresh.stderr);
    assert.equal(cli(['status', '--home', root], { HERMES_LENS_TOKEN_CACHE: 'off' }).code, 0);
    assert.deepEqual(kept(processFolder), before);
    assert.deepEqual(fs.readdirSync(dir), ['hermes']);
  });
});
