// The tiers of every stored prompt in the homes Hermes' own code wrote (test/fixtures/hermes-builds,
// every folder and scenario), against the tiers Hermes built it from: the corpus generator recorded
// the sizes of `build_system_prompt_parts`' three tiers for each prompt (manifest `hermes_tiers`).
// The lens finds the tiers by the blocks they hold, so this is where a build that moves a block
// (the derived build's profile line, 0.19.1's skills index) shows whether the lens follows it.
import * as assert from 'node:assert/strict';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import type { PromptAnatomy } from '../../../server/hermes/anatomy/types';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { copyCorpusHome, corpusFolders, corpusManifest, type CorpusHome, type CorpusSession } from '../../support/hermesCorpus';

const NOW = 1_795_000_000;

/** Where Hermes' context and volatile tiers start, in UTF-8 bytes: each tier is joined to the next by a blank line, an empty one left out. */
function hermesStarts(session: CorpusSession): { context: number; volatile: number } {
  const t = session.hermes_tiers!;
  const context = t.stable.bytes + (t.stable.chars > 0 ? 2 : 0);
  return { context, volatile: context + (t.context.chars > 0 ? t.context.bytes + 2 : 0) };
}

function bytesBefore(anatomy: PromptAnatomy, offset: number): number {
  return Buffer.byteLength(anatomy.text.slice(0, offset), 'utf8');
}

function tierAt(session: CorpusSession, byteOffset: number): string {
  const starts = hermesStarts(session);
  return byteOffset < starts.context ? 'stable' : byteOffset < starts.volatile ? 'context' : 'volatile';
}

for (const folder of corpusFolders('all')) {
  describe(`conformance: the tiers of the prompts Hermes ${folder} wrote, as Hermes built them`, function () {
    this.timeout(30000);
    let corpus: CorpusHome;
    before(() => (corpus = copyCorpusHome(folder)));
    after(() => corpus.remove());

    const analyses = () =>
      Object.keys(corpusManifest(folder).profiles).map((profile) => {
        const home = readHome({ root: corpus.home, origin: 'argument' });
        return analyzeProfile(selectProfile(home, profile), { now: NOW, includeEnded: true });
      });

    it('every tier starts where Hermes started it', () => {
      let checked = 0;
      for (const analysis of analyses()) {
        for (const s of analysis.report.sessions) {
          const anatomy = analysis.anatomyOf(s.id);
          const session = corpus.manifest.sessions.find((m) => m.id === s.id);
          if (!anatomy || !session) continue;
          assert.ok(session.hermes_tiers, `${s.id}: the manifest records Hermes' tiers`);
          const tier = (name: string) => anatomy.tiers.find((t) => t.name === name)!;
          const lens = { context: bytesBefore(anatomy, tier('context').start), volatile: bytesBefore(anatomy, tier('volatile').start) };
          assert.deepEqual(lens, hermesStarts(session), `${folder} ${s.id} (${session.scenario_key})`);
          checked++;
        }
      }
      assert.equal(checked, corpus.manifest.sessions.length, 'every session of the manifest was checked');
    });

    it('the profile line is found, in the tier Hermes put it', () => {
      for (const analysis of analyses()) {
        for (const s of analysis.report.sessions) {
          const anatomy = analysis.anatomyOf(s.id);
          const session = corpus.manifest.sessions.find((m) => m.id === s.id);
          if (!anatomy || !session) continue;
          const at = anatomy.text.indexOf('\n\nActive Hermes profile: ') + 2;
          assert.ok(at > 1, `${s.id}: Hermes wrote a profile line`);
          const block = anatomy.blocks.find((b) => b.kind === 'active-profile');
          assert.equal(block?.start, at, `${s.id}: the profile line is a block of its own`);
          assert.equal(block.tier, tierAt(session, bytesBefore(anatomy, at)), `${folder} ${s.id} (${session.scenario_key})`);
        }
      }
    });

    // The folder two builds wrote marks the older build's sessions (hermesBuilds.test.ts).
    if (corpusManifest(folder).builds.length === 1) {
      it("no session is said to be another build's for its prose, one build wrote them all", () => {
        for (const analysis of analyses()) {
          for (const s of analysis.report.sessions) assert.doesNotMatch(s.otherBuild ?? '', /differs? from the newest session's/, `${folder} ${s.id}`);
        }
      });
    }
  });
}
