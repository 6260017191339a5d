// The benchmark's generated home (bench/largeHome.ts) is judged as it was made: every prompt was built
// from the profile's files as they are, in the layout of a Hermes build of the conformance corpus, so
// untouched no session is stale, and an edit of SOUL.md makes every live session stale for it alone.
// A home the engine mis-reads would make the benchmark time the wrong work.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import type { SessionReport } from '../../../server/hermes/engine/types';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { CORPUS_BUILDS } from '../../../bench/corpusBuilds';
import { ensureLargeHome, type HomeSize, type LargeHome } from '../../../bench/largeHome';

const SMALL: HomeSize = { name: 'unit', sessions: 300, live: 60, messages: 3_000, prompts: 30, skills: 60, visibleSkills: 12, projects: 8 };

function liveReports(home: LargeHome): SessionReport[] {
  const profile = selectProfile(readHome({ root: home.root, origin: 'argument' }));
  return analyzeProfile(profile, { now: home.now }).report.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt');
}

describe('bench home: generated as Hermes builds store prompts', function () {
  this.timeout(60000);
  let cacheRoot: string;
  let home: LargeHome;
  before(() => {
    cacheRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lens-bench-home-'));
    home = ensureLargeHome(SMALL, 7, { cacheRoot });
  });
  after(() => fs.rmSync(cacheRoot, { recursive: true, force: true }));

  it('holds the planned distinct prompts, in the layouts of every corpus build', () => {
    assert.equal(home.distinctPrompts, SMALL.prompts);
    assert.deepEqual(Object.keys(home.promptsByBuild).sort(), [...CORPUS_BUILDS].sort());
    assert.ok(home.promptBytes.min < home.promptBytes.max);
  });

  it('untouched: no live session is stale', () => {
    const sessions = liveReports(home);
    assert.equal(sessions.length, home.liveSessionIds.length);
    for (const s of sessions) assert.deepEqual(s.reasons, [], `${s.id}: ${s.reasons.map((r) => `${r.source} ${r.change}: ${r.detail}`).join('; ')}`);
    assert.equal(sessions.filter((s) => s.state === 'stale').length, 0);
  });

  it('SOUL.md edited: every live session is stale because of SOUL.md and nothing else', () => {
    const soul = path.join(home.profileDir, 'SOUL.md');
    const before = fs.readFileSync(soul, 'utf8');
    fs.appendFileSync(soul, '\nWhen a test edits this file, every session goes stale.\n');
    try {
      const sessions = liveReports(home);
      for (const s of sessions) assert.deepEqual(s.reasons.map((r) => `${r.source} ${r.change}`), ['soul changed'], s.id);
      // Sessions with a refresh request outstanding stay `pending`; every other one is stale.
      assert.equal(sessions.filter((s) => s.state === 'fresh').length, 0);
    } finally {
      fs.writeFileSync(soul, before);
    }
  });
});
