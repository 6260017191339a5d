// rebuildPromptEdit says how much of the stored prompt's start and end a rebuild kept: the token
// delta of a refresh is measured on the middle only, so those ends must be exactly the stored bytes.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildSystemPrompt, rebuildPrompt, rebuildPromptEdit } from '../../../server/hermes/sources/promptBuilder';
import type { RenderedSources } from '../../../server/hermes/sources/types';
import { profileFixture } from '../anatomy/profileFixture';
import { cleanup } from './fixtures';

type Variant = 'same' | 'edited' | 'gone';
const VARIANTS: readonly Variant[] = ['same', 'edited', 'gone'];

/** The fixture's sources with each rendered block kept, edited or emptied. */
function vary(base: RenderedSources, v: { soul: Variant; skills: Variant; project: Variant; memory: Variant; user: Variant }): RenderedSources {
  const text = (block: string, variant: Variant, edit: string) => (variant === 'same' ? block : variant === 'edited' ? `${block}\n\n${edit}` : '');
  return {
    ...base,
    soul: v.soul === 'gone' ? { ...base.soul, exists: false, block: '' } : { ...base.soul, block: text(base.soul.block, v.soul, 'Now in Lisbon.') },
    skills: { ...base.skills, block: text(base.skills.block, v.skills, '  more: entries') },
    projectContext: { ...base.projectContext, block: text(base.projectContext.block, v.project, '## extra.md\n\nMore rules.') },
    memory: { ...base.memory, block: text(base.memory.block, v.memory, '§ one more') },
    user: { ...base.user, block: text(base.user.block, v.user, '§ likes tea') },
  };
}

describe('sources: what a rebuild kept of the stored prompt', () => {
  after(cleanup);

  it('keeps exactly the stored bytes at both ends, whatever changed', () => {
    const f = profileFixture();
    const base = f.render();
    const variant = fc.record({ soul: fc.constantFrom(...VARIANTS), skills: fc.constantFrom(...VARIANTS), project: fc.constantFrom(...VARIANTS), memory: fc.constantFrom(...VARIANTS), user: fc.constantFrom(...VARIANTS) });
    fc.assert(
      fc.property(variant, variant, (then, now) => {
        const stored = buildSystemPrompt(f.input(vary(base, then)));
        const today = vary(base, now);
        const edit = rebuildPromptEdit(stored, today);
        assert.equal(edit.text, rebuildPrompt(stored, today));
        const { keptPrefix: a, keptSuffix: z } = edit;
        assert.ok(a >= 0 && z >= 0 && a + z <= Math.min(stored.length, edit.text.length), JSON.stringify({ a, z }));
        assert.equal(edit.text.slice(0, a), stored.slice(0, a));
        assert.equal(edit.text.slice(edit.text.length - z), stored.slice(stored.length - z));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves out of the middle everything but the one block that changed', () => {
    const f = profileFixture();
    const base = f.render();
    const same = { soul: 'same', skills: 'same', project: 'same', memory: 'same', user: 'same' } as const;
    const stored = buildSystemPrompt(f.input(base));
    for (const key of Object.keys(same) as Array<keyof typeof same>) {
      for (const change of ['edited', 'gone'] as const) {
        const today = vary(base, { ...same, [key]: change });
        const edit = rebuildPromptEdit(stored, today);
        const storedMiddle = stored.slice(edit.keptPrefix, stored.length - edit.keptSuffix);
        const block = key === 'soul' ? base.soul.block : key === 'project' ? base.projectContext.block : base[key].block;
        // The old block, what separated it, and at most the neighbour a removal joined it to.
        assert.ok(storedMiddle.includes(block) || block === '', `${key} ${change}: the middle misses the changed block`);
        assert.ok(storedMiddle.length < stored.length / 2, `${key} ${change}: the middle is ${storedMiddle.length} of ${stored.length} characters`);
      }
    }
  });

  it('keeps the whole prompt when nothing changed', () => {
    const f = profileFixture();
    const { prompt, sources } = f.build();
    const edit = rebuildPromptEdit(prompt, sources);
    assert.equal(edit.text, prompt);
    assert.equal(edit.keptPrefix + edit.keptSuffix, prompt.length);
  });
});
