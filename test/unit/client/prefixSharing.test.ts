// The Sessions view's "Prefix sharing" section and the anatomy view's shared part, from the families a
// home Hermes wrote gives (the JSON the server sends): labels, descriptions, tooltips and ids.
import * as assert from 'node:assert/strict';
import { sharedPrefixOf, sharedPrefixText } from '../../../client/anatomy/sharedPrefix';
import {
  familyChildren,
  familyDescription,
  familyLabel,
  familyTooltip,
  partingChildren,
  partingDescription,
  partingLabel,
  partingTooltip,
  prefixNodeId,
  prefixSection,
  sectionChildren,
  sectionDescription,
  type FamilyNode,
  type PartingsNode,
  type PrefixTreeNode,
} from '../../../client/prefixSharingModel';
import { familiesJson } from '../../../server/hermes/families/familiesJson';
import type { PrefixFamiliesDto } from '../../../shared/prefixFamilies';
import { familiesOfCorpus } from '../../support/familiesOfCorpus';
import { copyCorpusHome } from '../../support/hermesCorpus';
import { pinTools } from '../../support/sharedFamilies';

function familiesOf(folder: string, shared = false): { dto: PrefixFamiliesDto; key: (k: string) => string } {
  const corpus = copyCorpusHome(folder);
  try {
    if (shared) pinTools(corpus);
    const dto = familiesJson(familiesOfCorpus(corpus));
    return { dto, key: (k) => corpus.manifest.sessions.find((s) => s.scenario_key === k)!.id };
  } finally {
    corpus.remove();
  }
}

describe('client: the Prefix sharing section', function () {
  this.timeout(30000);
  let fetched: ReturnType<typeof familiesOf>;
  let shared: ReturnType<typeof familiesOf>;
  before(() => {
    fetched = familiesOf('families-v0.20.3-schema26');
    shared = familiesOf('families-derived-0.20.3-profile-line-volatile', true);
  });

  it('shows one node per stable-tier entry, then where they part; nothing before the families are known', () => {
    assert.equal(prefixSection(undefined), undefined);
    const section = prefixSection(fetched.dto)!;
    assert.equal(sectionDescription(fetched.dto), '8 cache entries · 9 sessions · 3 profiles');
    const children = sectionChildren(section);
    assert.deepEqual(children.map((c) => c.kind), [...Array(8).fill('family'), 'partings']);
    const ids = new Set<string>();
    const walk = (n: PrefixTreeNode) => {
      const id = prefixNodeId(n);
      assert.ok(!ids.has(id), `unique id ${id}`);
      ids.add(id);
    };
    children.forEach(walk);
    for (const c of children) if (c.kind === 'family') familyChildren(c, undefined).forEach(walk);
    partingChildren(children.at(-1) as PartingsNode).forEach(walk);
  });

  it("names an entry by its profiles and platforms, sizes it in tokens, and says whether Hermes marks it on the route", () => {
    const both = sectionChildren(prefixSection(shared.dto)!).find((c): c is FamilyNode => c.kind === 'family' && c.family.profiles.length === 2)!;
    assert.match(familyLabel(both.family, shared.dto), /^default, work · (cli|telegram)$/);
    assert.match(familyDescription(both.family), /^claude-sonnet-4\.6 · \d sessions · ≈ [\d,]+ tokens · cold$/);
    const tooltip = familyTooltip(both.family, shared.dto);
    assert.match(tooltip, /Hermes marks this breakpoint on their route: the provider keeps an entry here\./);
    assert.deepEqual(familyChildren(both, undefined).map((m) => m.profile).sort(), both.family.members.map((m) => m.profile).sort());
  });

  it('a parting says where and why, what it costs a day, and never promises a saving the tools would keep', () => {
    const node = partingChildren(sectionChildren(prefixSection(fetched.dto)!).at(-1) as PartingsNode).find((p) => p.parting.then?.block === 'active-profile')!;
    assert.match(partingLabel(node, fetched.dto), /^(default|work|lean) · (cli|telegram) ↔ (default|work|lean) · (cli|telegram)$/);
    assert.match(partingDescription(node.parting), /^tools: skill_manage(, todo)? · ≈ \$0\.00 a day$/);
    const tooltip = partingTooltip(node.parting, node.days);
    assert.match(tooltip, /In the tools \(byte [\d,]+, in the tool starting there\): `skill_manage`'s schema names each profile's home/);
    assert.match(tooltip, /Past the tools, at byte [\d,]+ of the system prompt \((stable|context) tier\)/);
    assert.doesNotMatch(tooltip, /would save/);
  });

  it("the anatomy view's shared part: to the end of the stable tier where profiles share it, and nothing said before the families are known", () => {
    const d = shared.key('d-empty');
    const part = sharedPrefixOf(shared.dto, 'default', d)!;
    assert.deepEqual(part.levels.map((l) => [l.breakpoint, l.others, l.profiles.join()]), [['stable', 2, 'default,work'], ['system', 1, 'default']]);
    assert.match(
      sharedPrefixText(part),
      /^Shared with 1 other session \(default · cli\) up to the end of the system prompt: ≈ [\d,]+ tokens from one cache entry\. Shared with 2 other sessions \(default, work · cli\) up to the end of the stable tier: ≈ [\d,]+ tokens from one cache entry\.$/,
    );
    assert.equal(sharedPrefixOf(fetched.dto, 'lean', fetched.key('l-empty')), null);
    assert.match(sharedPrefixText(null), /is its own/);
    assert.equal(sharedPrefixOf(undefined, 'default', d), null);
  });
});
