// The lens's o200k count (o200kEncoder.ts over the packed vocabulary of o200kRanks.ts) must be
// gpt-tokenizer's, whatever the text: its quirks with byte-order marks and lone surrogates too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { countTokens } from '../../../server/hermes/cost/o200kEncoder';
import { packedRanks } from '../../../server/hermes/cost/o200kRanks';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const o200k = require('gpt-tokenizer/encoding/o200k_base') as typeof import('gpt-tokenizer/encoding/o200k_base');
const reference = (text: string) => o200k.countTokens(text, { disallowedSpecial: new Set<string>() });

// Letters of several scripts and cases, marks, digits, spaces of every kind, line ends, the
// byte-order mark, lone and paired surrogates, emoji and flags, ligatures, special-token text.
const PIECES = ['a', 'Z', 'é', 'É', 'ß', 'İ', 'ǅ', 'ﬁ', '中', '文', 'Ж', 'ё', 'ٱ', 'अ', 'ा', '\u0301', '\u200d', '😀', '🇺🇸', '\ufeff', '\ud800', '\udc00', '\ufffd', ' ', '  ', '\u00a0', '\u3000', '\t', '\n', '\r', '\r\n', '/', '.', '#', '─', "'s", "'LL", '1', '12345', '<|endoftext|>'];

describe('cost/o200kEncoder', () => {
  it("counts as gpt-tokenizer's o200k_base does, whatever the text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        assert.equal(countTokens(text), reference(text), JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("counts any UTF-16 text as gpt-tokenizer does", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 60 }), (binary, graphemes) => {
        assert.equal(countTokens(binary), reference(binary), JSON.stringify(binary));
        assert.equal(countTokens(graphemes), reference(graphemes), JSON.stringify(graphemes));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts prompt-sized prose, code and long runs as gpt-tokenizer does', () => {
    const prose = fs.readFileSync(path.join(__dirname, '../../../../README.md'), 'utf8');
    const code = fs.readFileSync(path.join(__dirname, '../../../../server/hermes/cost/o200kEncoder.ts'), 'utf8');
    for (const text of [prose, code, 'x'.repeat(700), '='.repeat(300) + ' ' + 'ab'.repeat(200)]) assert.equal(countTokens(text), reference(text));
  });

  it('the build packs exactly this vocabulary into dist/ (npm test builds first)', () => {
    const built = path.join(__dirname, '../../../../dist/o200kRanks.bin');
    assert.ok(fs.existsSync(built), 'dist/o200kRanks.bin is missing: run `npm run build`');
    assert.ok(Buffer.from(packedRanks()).equals(fs.readFileSync(built)), 'dist/o200kRanks.bin is the vocabulary o200kRanks.ts packs');
  });
});
