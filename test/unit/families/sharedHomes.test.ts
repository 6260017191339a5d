// Prefix families where profiles do share: the homes Hermes wrote for them, with each session's tools
// pinned in state.db without the skills toolset (test/support/sharedFamilies.ts), so no schema
// names a profile's home. Then the stable tier decides: byte-identical across profiles in the derived
// build (one entry), parted at the profile line in the fetched build (a newer Hermes would share it,
// and the lens says what that would save from the sessions' own requests); and a SOUL.md edited in
// one profile parts it at that line, said as the user's choice.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FamiliesReport, Parting, PrefixFamily } from '../../../server/hermes/families/types';
import { copyCorpusHome, type CorpusHome } from '../../support/hermesCorpus';
import { addRequests, pinTools, rebuildWithSoul } from '../../support/sharedFamilies';
import { familiesOfCorpus } from '../../support/familiesOfCorpus';

const DERIVED = 'families-derived-0.20.3-profile-line-volatile';
const FETCHED = 'families-v0.20.3-schema26';

function keyOf(corpus: CorpusHome, key: string): string {
  return corpus.manifest.sessions.find((s) => s.scenario_key === key)!.id;
}

function stableFamilyOf(report: FamiliesReport, sessionId: string): PrefixFamily {
  return report.families.find((f) => f.breakpoint === 'stable' && f.members.some((m) => m.report.id === sessionId))!;
}

function partingBetween(report: FamiliesReport, a: string, b: string): Parting | undefined {
  const fa = stableFamilyOf(report, a).id;
  const fb = stableFamilyOf(report, b).id;
  return report.partings.find((p) => (p.a === fa && p.b === fb) || (p.a === fb && p.b === fa));
}

describe('prefix families: profiles that share', function () {
  this.timeout(60000);
  const homes: CorpusHome[] = [];
  const copy = (folder: string) => {
    const corpus = copyCorpusHome(folder);
    homes.push(corpus);
    pinTools(corpus);
    return corpus;
  };
  after(() => homes.forEach((h) => h.remove()));

  it('the derived build puts identical profiles in one stable-tier family on each platform and folder; the one with a toolset off parts at the tools, by its choice', () => {
    const corpus = copy(DERIVED);
    const report = familiesOfCorpus(corpus);
    const k = (key: string) => keyOf(corpus, key);
    for (const [a, b] of [['d-empty', 'w-empty'], ['d-empty-2', 'w-empty'], ['d-repo', 'w-repo'], ['d-telegram', 'w-telegram']]) {
      const family = stableFamilyOf(report, k(a!));
      assert.equal(family, stableFamilyOf(report, k(b!)), `${a} and ${b} share one entry`);
      assert.deepEqual(family.profiles, ['default', 'work']);
      assert.equal(family.marked, 'yes', 'OpenRouter routes carry Hermes\' marker at the end of the stable tier');
    }
    assert.ok(report.families.every((f) => !f.toolsInferred), 'the tools are pinned');
    const lean = partingBetween(report, k('d-empty'), k('l-empty'))!;
    assert.equal(lean.tier, 'tools');
    assert.equal(lean.source, 'todo');
    assert.equal(lean.choice, true);
    assert.ok(lean.stableTierShared);
    // Their whole prompts still part at the profile line, last in the volatile tier: by design.
    const system = report.families.filter((f) => f.breakpoint === 'system' && f.profiles.includes('work'));
    assert.ok(system.every((f) => f.profiles.length === 1));
  });

  it('the fetched build parts identical profiles at the profile line in the stable tier and says a newer Hermes would share it; in a workspace they share already', () => {
    const corpus = copy(FETCHED);
    const report = familiesOfCorpus(corpus);
    const k = (key: string) => keyOf(corpus, key);
    const parting = partingBetween(report, k('d-empty'), k('w-empty'))!;
    assert.equal(parting.tier, 'stable');
    assert.equal(parting.block, 'active-profile');
    assert.equal(parting.systemOffset, corpus.manifest.sessions.length && (corpus.manifest as unknown as { prefix_families: { partings: Array<{ a: string; b: string; first_difference: { bytes: number } }> } }).prefix_families.partings.find((p) => p.a === k('d-empty') && p.b === k('w-empty'))!.first_difference.bytes);
    assert.equal(parting.fix, 'update-hermes');
    assert.match(parting.reason, /Hermes builds before 2026-09-28 put the "Active Hermes profile" line, which names the profile's home, in the stable tier; .* these sessions would share one stable-tier entry/);
    assert.equal(stableFamilyOf(report, k('d-repo')), stableFamilyOf(report, k('w-repo')), 'after a workspace snapshot the profile line is in the context tier');
  });

  it('prices the split from the sessions\' own requests: the writes one shared entry would have served, and what updating Hermes would save', () => {
    const corpus = copy(FETCHED);
    const d = keyOf(corpus, 'd-empty');
    const w = keyOf(corpus, 'w-empty');
    const t0 = 1_787_200_000;
    // default at 0, 10 and 20 minutes; work a minute after each: apart, six writes; one entry, three.
    addRequests(corpus, d, [t0, t0 + 600, t0 + 1200]);
    addRequests(corpus, w, [t0 + 60, t0 + 660, t0 + 1260]);
    const report = familiesOfCorpus(corpus);
    const parting = partingBetween(report, d, w)!;
    const days = report.activity.days;
    assert.ok(days >= 1 && days <= 7);
    assert.equal(parting.extraWritesPerDay, 3 / days);
    assert.equal(parting.extraTokensPerDay, (3 * parting.sharedTokens) / days);
    assert.ok(parting.extraUsdPerDay! > 0);
    assert.equal(parting.savingUsdPerDay, parting.extraUsdPerDay);
  });

  it('a SOUL.md edited in one profile parts it from the other at that line, and says so as the user\'s choice', () => {
    const corpus = copy(DERIVED);
    const soul = fs.readFileSync(path.join(corpus.profileDir('work'), 'SOUL.md'), 'utf8');
    rebuildWithSoul(corpus, 'work', soul.replace('You write plainly', 'You write tersely'));
    const report = familiesOfCorpus(corpus);
    const k = (key: string) => keyOf(corpus, key);
    const parting = partingBetween(report, k('d-empty'), k('w-empty'))!;
    assert.equal(parting.tier, 'stable');
    assert.equal(parting.block, 'identity');
    assert.equal(parting.source, 'SOUL.md:5');
    assert.equal(parting.choice, true);
    assert.match(parting.reason, /^SOUL\.md differs from profile work's at line 5: from there on each writes an entry of its own \(your choice\)$/);
    assert.ok(stableFamilyOf(report, k('w-empty')).members.every((m) => m.report.state === 'fresh'), "work's sessions hold today's SOUL.md");
  });
});
