// The prefix-families homes Hermes' own code wrote (test/fixtures/hermes-builds/families-*): three
// profiles with the same SOUL.md, skills and memory (one with a toolset disabled) on the CLI and
// telegram, written by 0.20.3 and by the build derived from it with the profile line moved to the end
// of the volatile tier. The manifest records where each pair of profiles' prompts part and which
// stable tiers Hermes built alike; the lens must read the same from the stored prompts.
import * as assert from 'node:assert/strict';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import type { PromptAnatomy } from '../../../server/hermes/anatomy/types';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { copyCorpusHome, corpusFolders, type CorpusHome } from '../../support/hermesCorpus';

const NOW = 1_795_000_000;

interface Parting {
  readonly a: string;
  readonly b: string;
  readonly first_difference: { readonly bytes: number; readonly tier: string; readonly line_opens: string };
}

function anatomies(corpus: CorpusHome): Map<string, PromptAnatomy> {
  const out = new Map<string, PromptAnatomy>();
  const home = readHome({ root: corpus.home, origin: 'argument' });
  for (const profile of Object.keys(corpus.manifest.profiles)) {
    const analysis = analyzeProfile(selectProfile(home, profile), { now: NOW });
    for (const s of analysis.report.sessions) {
      assert.equal(s.state, 'fresh', `${profile} ${s.id}: ${s.reasons.map((r) => r.detail).join('; ')}`);
      assert.doesNotMatch(s.otherBuild ?? '', /differs? from the newest session's/, s.id);
      out.set(s.id, analysis.anatomyOf(s.id)!);
    }
  }
  return out;
}

/** The stable tier as the lens cut it, without the blank line that joins it to the next tier. */
function stableTier(anatomy: PromptAnatomy): string {
  return anatomy.text.slice(0, anatomy.tiers.find((t) => t.name === 'context')!.start).replace(/\n\n$/, '');
}

function firstDifferingByte(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

for (const folder of corpusFolders('families')) {
  describe(`conformance: the prefix-families home Hermes ${folder} wrote`, function () {
    this.timeout(30000);
    let corpus: CorpusHome;
    before(() => (corpus = copyCorpusHome(folder)));
    after(() => corpus.remove());

    it('untouched: every session of every profile is fresh, and none is said to be another build\'s', () => {
      assert.equal(anatomies(corpus).size, corpus.manifest.sessions.length);
    });

    it('two profiles share a stable tier exactly where Hermes built them alike', () => {
      const byId = anatomies(corpus);
      const sessions = corpus.manifest.sessions;
      let shared = 0;
      for (const a of sessions) {
        for (const b of sessions) {
          if (a.id >= b.id || a.profile === b.profile) continue;
          const alike = a.hermes_tiers!.stable.sha256 === b.hermes_tiers!.stable.sha256;
          assert.equal(stableTier(byId.get(a.id)!) === stableTier(byId.get(b.id)!), alike, `${a.scenario_key} / ${b.scenario_key}`);
          if (alike) shared++;
        }
      }
      assert.ok(shared > 0, 'some profiles share their stable tier');
    });

    it('the prompts of two profiles part where the manifest says, at the profile line, in the tier Hermes gave it', () => {
      const byId = anatomies(corpus);
      const partings = (corpus.manifest as unknown as { prefix_families: { partings: Parting[] } }).prefix_families.partings;
      assert.ok(partings.length > 0);
      for (const p of partings) {
        const a = byId.get(p.a)!;
        const at = firstDifferingByte(a.text, byId.get(p.b)!.text);
        assert.equal(at, p.first_difference.bytes, `${p.a} / ${p.b}`);
        const block = a.blocks.find((k) => Buffer.byteLength(a.text.slice(0, k.start), 'utf8') <= at && at < Buffer.byteLength(a.text.slice(0, k.end), 'utf8'));
        assert.equal(block?.kind, 'active-profile', `${p.a} / ${p.b}: the first difference lies in the profile line`);
        assert.equal(block.tier, p.first_difference.tier, `${p.a} / ${p.b}`);
      }
    });
  });
}
