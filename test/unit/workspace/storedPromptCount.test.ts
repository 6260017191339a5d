// The language server reports the count of sessions holding a stored prompt after the session list
// (it is an aggregate over every session, ended ones too): once settled, it must be the number a
// fresh `hermes-lens status` prints, and later re-evaluations must not bring an older one back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { startSession } from '../../../server/demo/hermes';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_795_000_000;

describe('workspace: the stored-prompt count after re-evaluations', function () {
  this.timeout(60000);
  let dir: string;
  let demo: DemoManifest;
  let model: HermesModel;
  beforeEach(() => {
    dir = tempDir('hermes-count-');
    demo = generateDemoHome(dir, { now: NOW, writeManifest: false });
    model = new HermesModel(() => NOW);
    model.configure({ home: demo.root, profiles: ['default'] });
  });
  afterEach(() => {
    model.dispose();
    removeDir(dir);
  });

  const shown = () => model.profileByName('default')!.report.storedPromptSessions;
  const counted = () => {
    const analysis = model.profileByName('default')!;
    return analyzeProfile(analysis.profile, { now: NOW }).report.storedPromptSessions;
  };

  it('is exact at first, follows a new session once settled, and stays settled across a save', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const first = shown();
    assert.equal(first, counted());

    startSession(def.dbFile, def.dir, { source: 'cli', model: 'gpt-5.1', provider: 'openai', startedAt: NOW - 60, lastActivityAt: NOW - 10, messages: 2 });
    model.databaseChanged([def.dir]);
    const settled = model.settleStoredPromptCounts();
    assert.deepEqual(settled.map((a) => a.profile.name), ['default'], 'the profile whose count changed');
    assert.equal(shown(), first + 1);
    assert.equal(shown(), counted());
    assert.deepEqual(model.settleStoredPromptCounts(), [], 'nothing more to settle');

    const soul = path.join(def.dir, 'SOUL.md');
    fs.appendFileSync(soul, '\nAnswer in English unless asked otherwise.\n');
    model.sourcesChanged([soul]);
    assert.equal(shown(), first + 1, 'a save (no database change) keeps the settled count');
  });
});
