// Prefix families on the homes Hermes' own code wrote for them (test/fixtures/hermes-builds/families-*):
// the lens groups the sessions at each breakpoint exactly as the requests Hermes sent group them (the
// manifest's `families`, from each session's wire record), says where and why profiles part as the
// manifest records it, and keeps no text of any prompt in what it reports.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { familiesJson } from '../../../server/hermes/families/familiesJson';
import type { FamiliesReport, Parting, PrefixFamily } from '../../../server/hermes/families/types';
import { familiesOfCorpus } from '../../support/familiesOfCorpus';
import { copyCorpusHome, corpusFolders, type CorpusHome } from '../../support/hermesCorpus';

interface ManifestFamily {
  readonly breakpoint: 'tools' | 'stable' | 'system';
  readonly sessions: readonly string[];
  readonly prefix_bytes: number;
}
interface ManifestParting {
  readonly a: string;
  readonly b: string;
  readonly a_profile: string;
  readonly b_profile: string;
  readonly tools_only_in_a: readonly string[];
  readonly tools_only_in_b: readonly string[];
  readonly tools_differing: readonly string[];
  readonly first_difference: { readonly bytes: number; readonly tier: string };
}
interface PrefixRecord {
  readonly families: readonly ManifestFamily[];
  readonly stable_tier_alone: readonly ManifestFamily[];
  readonly partings: readonly ManifestParting[];
}

const setOf = (ids: readonly string[]) => [...ids].sort().join(' ');

for (const folder of corpusFolders('families')) {
  describe(`prefix families: the home Hermes ${folder} wrote`, function () {
    this.timeout(60000);
    let corpus: CorpusHome;
    let record: PrefixRecord;
    let report: FamiliesReport;
    before(() => {
      corpus = copyCorpusHome(folder);
      record = (corpus.manifest as unknown as { prefix_families: PrefixRecord }).prefix_families;
      report = familiesOfCorpus(corpus);
    });
    after(() => corpus.remove());

    it('groups the sessions at each breakpoint as the requests Hermes sent group them, their tools inferred from platform, config and build', () => {
      for (const breakpoint of ['tools', 'stable', 'system'] as const) {
        const lens = report.families.filter((f) => f.breakpoint === breakpoint).map((f) => setOf(f.members.map((m) => m.report.id))).sort();
        const hermes = record.families.filter((f) => f.breakpoint === breakpoint).map((f) => setOf(f.sessions)).sort();
        assert.deepEqual(lens, hermes, breakpoint);
      }
      assert.ok(report.families.every((f) => f.toolsInferred), 'no session of these builds names its tools in state.db');
    });

    it("sizes each family's prefix as Hermes sent it (the tools array's bytes within 1%, the system part exactly)", () => {
      for (const f of record.families) {
        const lens = familyOf(report, f.sessions[0]!, f.breakpoint);
        assert.ok(lens.bytes !== undefined, f.breakpoint);
        assert.ok(Math.abs(lens.bytes - f.prefix_bytes) <= f.prefix_bytes * 0.01, `${f.breakpoint} ${f.sessions.join(',')}: ${lens.bytes} vs ${f.prefix_bytes}`);
      }
    });

    it('no two profiles share an entry: the tools part them first (skill_manage names each profile\'s home), and the reason says so', () => {
      for (const f of report.families) assert.equal(f.profiles.length, 1, `${f.id}: ${f.profiles.join(', ')}`);
      for (const p of record.partings) {
        const parting = partingOf(report, p.a, p.b);
        assert.equal(parting.tier, 'tools', `${p.a_profile} / ${p.b_profile}`);
        for (const tool of [...p.tools_differing, ...p.tools_only_in_a, ...p.tools_only_in_b]) assert.ok(parting.source.split(', ').includes(tool), `${parting.source} names ${tool}`);
        assert.match(parting.reason, /`skill_manage`'s schema names each profile's home/);
        assert.equal(parting.savingUsdPerDay, 0, 'no saving promised while the tools part them');
      }
    });

    it('past the tools, the system prompts part at the byte and in the tier the manifest records, at the profile line', () => {
      for (const p of record.partings) {
        const then = partingOf(report, p.a, p.b).then!;
        assert.equal(then.systemOffset, p.first_difference.bytes, `${p.a_profile} / ${p.b_profile}`);
        assert.equal(then.tier, p.first_difference.tier);
        assert.equal(then.block, 'active-profile');
        assert.equal(then.source, 'Active Hermes profile line');
        // Never "update Hermes and they share": the tools still part them.
        assert.doesNotMatch(then.reason, /would share one stable-tier entry/);
      }
    });

    it('says where the stable tiers alone are byte-identical: what the profiles would share with the same tools', () => {
      const alike = new Set(record.stable_tier_alone.filter((f) => f.sessions.length > 1).map((f) => setOf(f.sessions)));
      for (const p of record.partings) {
        const parting = partingOf(report, p.a, p.b);
        const shared = [...alike].some((s) => s.includes(p.a) && s.includes(p.b));
        assert.equal(parting.stableTierShared, shared, `${p.a_profile} / ${p.b_profile}`);
        if (shared) assert.match(parting.reason, /their stable tiers are byte-identical .*: with the same tools they would share one entry/);
      }
    });

    it('a profile that turns a toolset off parts at the tools, and that is said to be its own choice', () => {
      const lean = record.partings.filter((p) => p.tools_only_in_a.includes('todo') || p.tools_only_in_b.includes('todo'));
      assert.ok(lean.length > 0);
      for (const p of lean) assert.match(partingOf(report, p.a, p.b).reason, /profile lean turns off the `todo` toolset \(`agent\.disabled_toolsets` in its config\.yaml\)/);
    });

    it('keeps no text of any prompt in what it reports', () => {
      const json = JSON.stringify(familiesJson(report));
      const texts = [
        ...fs.readFileSync(path.join(corpus.home, 'SOUL.md'), 'utf8').split('\n'),
        ...fs.readFileSync(path.join(corpus.home, 'memories', 'MEMORY.md'), 'utf8').split('\n'),
        // Hermes' own text in every prompt (the reasons name the profile line by its label only).
        'Conversation started',
        'Other profiles (if any) live under',
      ].map((l) => l.trim()).filter((l) => l.length > 12 && l !== '§');
      for (const text of texts) assert.ok(!json.includes(text), `the report holds "${text}"`);
      for (const f of report.families) assert.match(f.id, /^(tools|stable|system):[A-Za-z0-9_-]{10}$/);
    });
  });
}

function familyOf(report: FamiliesReport, sessionId: string, breakpoint: PrefixFamily['breakpoint']): PrefixFamily {
  const f = report.families.find((x) => x.breakpoint === breakpoint && x.members.some((m) => m.report.id === sessionId));
  assert.ok(f, `${breakpoint} family of ${sessionId}`);
  return f;
}

function partingOf(report: FamiliesReport, a: string, b: string): Parting {
  const fa = familyOf(report, a, 'stable').id;
  const fb = familyOf(report, b, 'stable').id;
  const p = report.partings.find((x) => (x.a === fa && x.b === fb) || (x.a === fb && x.b === fa));
  assert.ok(p, `a parting of ${a} and ${b}`);
  return p;
}
