// countTokens counts prompts paragraph by paragraph and remembers each paragraph's count (in memory
// and in a small on-disk file of hashes). The sum must be exactly the count of the whole text.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { countTokens, countTokensAfterEdit } from '../../../server/hermes/cost/tokens';
import { TokenCountStore } from '../../../server/hermes/cost/tokenCountStore';
import { lensCacheFolder } from '../../../server/hermes/cacheFolder';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const o200k = require('gpt-tokenizer/encoding/o200k_base') as typeof import('gpt-tokenizer/encoding/o200k_base');
const whole = (text: string) => o200k.countTokens(text, { disallowedSpecial: new Set<string>() });

const PIECES = ['a', 'B', 'é', 'word', 'Words', '1', '123', ' ', '  ', '\n', '\n\n', '\n\n\n', '\r\n', '/', '//', '.', ',', ':', '-', '#', '##', '\t', '\u00a0', '\u3000', '😀', '’', "'s", '═', '<', '|', '`', '*', '> '];

describe('cost/tokens: paragraph-wise counting', () => {
  it('equals the count of the whole text, whatever the text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 160 }), (parts) => {
        const text = parts.join('');
        assert.equal(countTokens(text, 'gpt-5.1').tokens, whole(text), JSON.stringify(text));
      }),
      { numRuns: 400 },
    );
  });

  it('equals the count of a whole prompt-shaped text, and again from memory', () => {
    const paragraph = (i: number) => `## Section ${i}\n\nLine one of ${i}: keep it short.\n- item /path/${i}\n- item two.\n`;
    const text = Array.from({ length: 60 }, (_, i) => paragraph(i)).join('\n\n') + '\n\n/etc starts a line\n\n  indented start';
    assert.equal(countTokens(text, 'gpt-5.1').tokens, whole(text));
    assert.equal(countTokens(text, 'gpt-5.1').tokens, whole(text));
    assert.equal(countTokens(text.slice(0, 777), 'gpt-5.1').tokens, whole(text.slice(0, 777)));
  });
});

describe('cost/tokens: the count of an edited text from its changed parts', () => {
  it('equals the count of the whole edited text, wherever the edits fall', () => {
    const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((parts) => parts.join(''));
    const segment = fc.oneof(fc.record({ same: text }), fc.record({ removed: text, added: text }));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        let before = '';
        let after = '';
        const shared: Array<{ before: number; after: number; length: number }> = [];
        for (const seg of segments) {
          if ('same' in seg) {
            if (seg.same) shared.push({ before: before.length, after: after.length, length: seg.same.length });
            before += seg.same;
            after += seg.same;
          } else {
            before += seg.removed;
            after += seg.added;
          }
        }
        const counted = countTokensAfterEdit(before, countTokens(before, 'gpt-5.1'), after, shared, 'gpt-5.1');
        assert.equal(counted.tokens, whole(after), JSON.stringify(segments));
      }),
      { numRuns: 500 },
    );
  });

  it('counts a prompt whose first and last blocks changed like the whole prompt', () => {
    const blocks = Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\nRule ${i}: stay short.\n- /path/${i}`).join('\n\n');
    const before = `# Persona\n\nYou are Ada.\n\n${blocks}\n\nMemory: pnpm.`;
    const after = `# Persona\n\nYou are Ada, now in Lisbon.\n\nNew rule.\n\n${blocks}\n\nMemory: pnpm, CI on GitHub.`;
    const at = before.indexOf('## Part 0');
    const shared = [{ before: at, after: after.indexOf('## Part 0'), length: blocks.length + 2 }];
    assert.equal(countTokensAfterEdit(before, countTokens(before), after, shared).tokens, whole(after));
    // Stretches out of order are not trusted: the edit is counted whole.
    assert.equal(countTokensAfterEdit(before, countTokens(before), after, [{ before: 5, after: 0, length: after.length }]).tokens, whole(after));
  });
});

describe('cost/tokenCountStore', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lens-token-store-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps counts across processes, keyed by tokenizer, holding hashes and never text', () => {
    const file = path.join(dir, 'counts.json');
    const first = new TokenCountStore(file, 'tok@1');
    const key = TokenCountStore.keyOf('a secret paragraph');
    first.set(key, { tokens: 3, sliced: false });
    first.flush();
    assert.ok(!fs.readFileSync(file, 'utf8').includes('secret'));
    assert.deepEqual(new TokenCountStore(file, 'tok@1').get(key), { tokens: 3, sliced: false });
    assert.equal(new TokenCountStore(file, 'tok@2').get(key), undefined);
  });

  it('merges what another process wrote meanwhile, and ignores a damaged file', () => {
    const file = path.join(dir, 'counts.json');
    const a = new TokenCountStore(file, 't');
    const b = new TokenCountStore(file, 't');
    a.set('ka', { tokens: 1, sliced: false });
    b.set('kb', { tokens: 2, sliced: true });
    a.flush();
    b.flush();
    const c = new TokenCountStore(file, 't');
    assert.deepEqual([c.get('ka'), c.get('kb')], [{ tokens: 1, sliced: false }, { tokens: 2, sliced: true }]);
    fs.writeFileSync(file, '{not json');
    assert.equal(new TokenCountStore(file, 't').get('ka'), undefined);
  });

  it('lives in the user cache folder unless told otherwise', () => {
    assert.equal(lensCacheFolder({ HERMES_LENS_TOKEN_CACHE: 'off' }), undefined);
    assert.equal(lensCacheFolder({ HERMES_LENS_TOKEN_CACHE: dir }), dir);
    assert.equal(lensCacheFolder({ XDG_CACHE_HOME: dir }), path.join(dir, 'hermes-lens'));
  });
});
