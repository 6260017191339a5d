// The language server reads one environment throughout (ModelOptions.env, else its own): the home it
// opens (HERMES_HOME), the Hermes installation serving that home, the cache folder it keeps verdicts
// and watches in, and the paths config.yaml names. Here the process names another home than the
// environment the model is given, and nothing of the process's may leak in.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeHermesInstall, WITH_REFRESH } from '../../../server/demo/hermesInstall';
import { HomeBuilder } from '../../../server/demo/homeBuilder';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { removeDir, tempDir } from '../demo/support';
import { cli } from '../cli/support';

const NOW = 1_800_000_000;

describe('workspace: the model reads the environment it is given, not the process\'s', function () {
  this.timeout(30000);
  let dir: string;
  let savedHome: string | undefined;
  beforeEach(() => {
    dir = tempDir('hermes-model-env-');
    savedHome = process.env.HERMES_HOME;
  });
  afterEach(() => {
    if (savedHome === undefined) delete process.env.HERMES_HOME;
    else process.env.HERMES_HOME = savedHome;
    removeDir(dir);
  });

  /** A home with one session, its skills partly in a folder config.yaml names through `$TEAM`. */
  function homeAt(name: string): string {
    const home = HomeBuilder.create(path.join(dir, name), { seed: 23 });
    const def = home.profile();
    def.writeSoul('You are Kit.\n');
    def.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 600, messages: 4, promptFromCurrentFiles: true });
    return home.root;
  }

  it('opens the home its HERMES_HOME names, finds the installation there, keeps its caches in its folder and expands its variables', () => {
    const other = homeAt('process-home');
    const mine = homeAt('model-home');
    writeHermesInstall(path.join(mine, 'hermes-agent'), WITH_REFRESH);
    const team = path.join(dir, 'team-skills');
    fs.mkdirSync(path.join(team, 'ops', 'pager'), { recursive: true });
    fs.writeFileSync(path.join(team, 'ops', 'pager', 'SKILL.md'), '---\nname: pager\ndescription: Answer a page.\n---\n');
    fs.appendFileSync(path.join(mine, 'config.yaml'), 'skills:\n  external_dirs: ["$TEAM"]\n');
    process.env.HERMES_HOME = other;
    const cache = path.join(dir, 'model-cache');
    const env = { HERMES_HOME: mine, TEAM: team, PATH: '', HOME: path.join(dir, 'user'), HERMES_LENS_TOKEN_CACHE: cache };
    // What a status run with that environment kept, for the model to start from.
    assert.equal(cli(['status', '--home', mine], env).code, 0);

    const model = new HermesModel(() => NOW);
    model.configureFromKept({ home: '', profiles: [], env });
    try {
      assert.equal(model.home?.root, mine);
      assert.equal(model.build.kind, 'found', JSON.stringify(model.build));
      assert.equal(model.incomplete, true, 'its first list came from what the status kept in its cache folder');
      assert.deepEqual(model.externalSkillDirs(), [fs.realpathSync(team)]);
    } finally {
      model.dispose();
    }
  });
});
