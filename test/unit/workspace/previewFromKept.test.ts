// The language server's first list may come from what `hermes-lens status` kept on disk, and its
// verdicts from then on from memory, without the prompts: what saving an unsaved buffer would do
// must read the same there as in a server that judged every prompt itself, for each kind of file,
// in both profiles of the demo home (one with a caller's system message, whose verdicts keep nothing
// to be judged again without the prompt).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { diskVerdicts } from '../../../server/hermes/engine/diskVerdicts';
import { profilePaths, readHome, selectProfile } from '../../../server/hermes/profile/home';
import type { SavePreview } from '../../../server/hermes/engine/savePreview';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { folderWithOwnCache } from '../../support/lensCacheSetting';

const NOW = 1_795_000_000;
// Files written a moment ago could change again within the clock's grain: status keeps what it read of them only when seconds past them.
const LATER = { nowMs: () => Date.now() + 60_000 };

function readable(preview: SavePreview | undefined) {
  assert.ok(preview);
  return {
    changesPrompt: preview.changesPrompt,
    sessions: preview.sessions.map((s) => ({ id: s.session.id, staleNow: s.staleNow, staleAfter: s.staleAfter, anyStaleAfter: s.anyStaleAfter, cost: s.refreshCostUsd, warm: s.cacheWarm })),
  };
}

describe('workspace: save previews of a server whose verdicts came from the disk', function () {
  this.timeout(60000);
  const folder = folderWithOwnCache('hermes-preview-kept-');
  let demo: DemoManifest;
  beforeEach(() => (demo = generateDemoHome(path.join(folder(), 'home'), { now: NOW, writeManifest: false })));

  it('says what a server that judged every prompt itself says, after the first list and once completed', () => {
    for (const name of ['default', 'work']) {
      const profile = selectProfile(readHome({ root: demo.root, origin: 'argument' }), name);
      analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb, undefined, LATER) });
    }
    const judgedHere = new HermesModel(() => NOW);
    judgedHere.configure({ home: demo.root, profiles: [] });
    const fromKept = new HermesModel(() => NOW);
    fromKept.configureFromKept({ home: demo.root, profiles: [] });
    assert.ok(fromKept.incomplete, 'the first list came from the disk');

    const edits: Array<[string, (text: string) => string]> = [];
    for (const profile of demo.profiles) {
      edits.push([path.join(profile.dir, 'SOUL.md'), (t) => `${t.trimEnd()}\n\nAlways answer in French.\n`]);
      edits.push([path.join(profile.dir, 'memories', 'MEMORY.md'), (t) => `${t.trimEnd()}\n§\nDeploys freeze on Fridays.\n`]);
    }
    const skill = demo.edits.find((e) => e.source === 'skill' && e.changesPrompts)!.file;
    edits.push([skill, (t) => t.replace(/^description: .*$/m, 'description: Ship a service, carefully.')]);
    edits.push([path.join(demo.projects.atlas, 'AGENTS.md'), (t) => `${t.trimEnd()}\n\nAlways run the linter before committing.\n`]);

    for (const phase of ['first list', 'completed']) {
      if (phase === 'completed') fromKept.completeAnalyses();
      for (const [file, edit] of edits) {
        const text = edit(fs.readFileSync(file, 'utf8'));
        const want = readable(judgedHere.previewSave(file, text));
        assert.ok(want.sessions.some((s) => s.staleAfter), `${path.basename(file)}: the edit makes sessions stale`);
        assert.deepEqual(readable(fromKept.previewSave(file, text)), want, `${file}, ${phase}`);
      }
    }
  });
});
