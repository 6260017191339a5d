// rebuildPromptEdit says which stretches of the stored prompt a rebuild kept: the token delta of a
// refresh is measured on what lies between them only, so they must be exactly the stored bytes.
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
    // The skills index's own prose is Hermes' (a rebuild keeps the stored one): an edit is in its list.
    skills: { ...base.skills, block: v.skills === 'same' ? base.skills.block : v.skills === 'gone' ? '' : base.skills.block.replace('\n</available_skills>', '\n  more: entries\n</available_skills>') },
    projectContext: { ...base.projectContext, block: text(base.projectContext.block, v.project, '## extra.md\n\nMore rules.') },
    memory: { ...base.memory, block: text(base.memory.block, v.memory, '§ one more') },
    user: { ...base.user, block: text(base.user.block, v.user, '§ likes tea') },
  };
}

describe('sources: what a rebuild kept of the stored prompt', () => {
  after(cleanup);

  it('keeps exactly the stored bytes in every kept stretch, whatever changed', () => {
    const f = profileFixture();
    const base = f.render();
    const variant = fc.record({ soul: fc.constantFrom(...VARIANTS), skills: fc.constantFrom(...VARIANTS), project: fc.constantFrom(...VARIANTS), memory: fc.constantFrom(...VARIANTS), user: fc.constantFrom(...VARIANTS) });
    fc.assert(
      fc.property(variant, variant, (then, now) => {
        const stored = buildSystemPrompt(f.input(vary(base, then)));
        const today = vary(base, now);
        const edit = rebuildPromptEdit(stored, today);
        assert.equal(edit.text, rebuildPrompt(stored, today));
        let before = 0;
        let after = 0;
        for (const run of edit.kept) {
          assert.ok(run.length > 0 && run.before >= before && run.after >= after, JSON.stringify(edit.kept));
          assert.equal(edit.text.slice(run.after, run.after + run.length), stored.slice(run.before, run.before + run.length));
          before = run.before + run.length;
          after = run.after + run.length;
        }
        assert.ok(before <= stored.length && after <= edit.text.length);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps everything but the one block that changed', () => {
    const f = profileFixture();
    const base = f.render();
    const same = { soul: 'same', skills: 'same', project: 'same', memory: 'same', user: 'same' } as const;
    const stored = buildSystemPrompt(f.input(base));
    for (const key of Object.keys(same) as Array<keyof typeof same>) {
      for (const change of ['edited', 'gone'] as const) {
        const today = vary(base, { ...same, [key]: change });
        const edit = rebuildPromptEdit(stored, today);
        const keptChars = edit.kept.reduce((n, run) => n + run.length, 0);
        const block = key === 'soul' ? base.soul.block : key === 'project' ? base.projectContext.block : base[key].block;
        // What was not kept: the old block, and at most a separator or a neighbour's.
        assert.ok(stored.length - keptChars >= block.length, `${key} ${change}: kept part of the changed block`);
        assert.ok(stored.length - keptChars <= block.length + 4, `${key} ${change}: ${stored.length - keptChars} characters not kept for a block of ${block.length}`);
      }
    }
  });

  it('keeps the whole prompt when nothing changed', () => {
    const f = profileFixture();
    const { prompt, sources } = f.build();
    const edit = rebuildPromptEdit(prompt, sources);
    assert.equal(edit.text, prompt);
    assert.deepEqual(edit.kept, [{ before: 0, after: 0, length: prompt.length }]);
  });
});
