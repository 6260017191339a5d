// A judgement carried across changes of the sources (the language server's way: after a save only
// the part that changed is judged again, and ΔS moves by the tokens of the one block that changed)
// must say exactly what judging the stored prompt afresh against the same sources says.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parsePrompt } from '../../../server/hermes/anatomy/parsePrompt';
import { judgePrompt, type Judgement } from '../../../server/hermes/engine/judgement';
import { buildSystemPrompt } from '../../../server/hermes/sources/promptBuilder';
import type { RenderedSources } from '../../../server/hermes/sources/types';
import { SOURCE_PARTS, type SourcePart } from '../../../server/hermes/engine/staleness';
import { profileFixture } from '../anatomy/profileFixture';
import { cleanup } from '../sources/fixtures';

/** A new text for one part's block: edits that keep its edges token boundaries, and ones that do not. */
const blockEdit = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), words: fc.array(fc.constantFrom('deploy', 'notes', 'tea', 'Lisbon', '§', '═', '—', '/tmp', '`x`'), { minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constantFrom('same-text' as const, 'empty' as const, 'leading-space' as const, 'leading-slash' as const, 'original' as const) }),
);
type BlockEdit = typeof blockEdit extends fc.Arbitrary<infer T> ? T : never;

function edited(block: string, original: string, edit: BlockEdit): string {
  switch (edit.kind) {
    case 'append':
      return `${block}\n\n${edit.words.join(' ')}`;
    case 'same-text':
      return block;
    case 'empty':
      return '';
    case 'leading-space':
      return ` ${block}`;
    case 'leading-slash':
      return `/${block}`;
    case 'original':
      return original;
  }
}

/** `sources` with one part a new object holding `text` (for SOUL.md: gone when empty). */
function withPart(sources: RenderedSources, original: RenderedSources, part: SourcePart, edit: BlockEdit): RenderedSources {
  const text = edited(sources[part].block, original[part].block, edit);
  if (part === 'soul') return { ...sources, soul: { ...sources.soul, exists: text !== '', block: text } };
  return { ...sources, [part]: { ...sources[part], block: text } };
}

describe('engine: a judgement carried across source changes', () => {
  after(cleanup);

  it('says what a fresh judgement says, for any sequence of changes one part at a time', () => {
    const f = profileFixture();
    const base = f.render();
    const step = fc.record({ part: fc.constantFrom(...SOURCE_PARTS), edit: blockEdit });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 3 }), fc.array(step, { minLength: 1, maxLength: 8 }), (storedWith, changes) => {
        // The stored prompt: built from sources of some earlier day.
        let then = base;
        for (const s of storedWith) then = withPart(then, base, s.part, s.edit);
        const stored = parsePrompt(buildSystemPrompt(f.input(then)), { identityHint: base.soul.block || undefined });
        let sources = base;
        let carried: Judgement = judgePrompt(stored, sources, f.cwd, {});
        for (const change of changes) {
          sources = withPart(sources, base, change.part, change.edit);
          carried = judgePrompt(stored, sources, f.cwd, {}, carried);
          const fresh = judgePrompt(stored, sources, f.cwd, {});
          assert.deepEqual(carried.reasons, fresh.reasons, `reasons after ${JSON.stringify(change)}`);
          assert.equal(carried.deltaTokens, fresh.deltaTokens, `ΔS after ${JSON.stringify(change)}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the judgement, and the reasons array, when no part changed', () => {
    const f = profileFixture();
    const base = f.render();
    const stored = parsePrompt(buildSystemPrompt(f.input({ ...base, soul: { ...base.soul, block: `You are Bob.\n\n${base.soul.block}` } })));
    const first = judgePrompt(stored, base, f.cwd, {});
    assert.ok(first.reasons.length > 0);
    assert.equal(judgePrompt(stored, { ...base }, f.cwd, {}, first), first);
    // SOUL.md saved again with more text: its reason reads the same, the array is the same one.
    const soulEdited = withPart(base, base, 'soul', { kind: 'append', words: ['Lisbon'] });
    const second = judgePrompt(stored, soulEdited, f.cwd, {}, first);
    const third = judgePrompt(stored, withPart(soulEdited, base, 'soul', { kind: 'append', words: ['tea'] }), f.cwd, {}, second);
    assert.equal(third.reasons, second.reasons);
    assert.notEqual(third.deltaTokens, second.deltaTokens);
  });
});
