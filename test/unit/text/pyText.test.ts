// Python's string order is by code point; JS `<` compares UTF-16 units. The two differ around
// surrogates, which is where compareCodePoints must still give Python's answer.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { codePointLength, compareCodePoints, sliceCodePoints, sortByCodePoints, unitOffset } from '../../../server/hermes/text/pyText';

/** Python's `a < b`, `a == b`, `a > b` as -1, 0, 1: code points compared one by one. */
function pythonOrder(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return Math.sign(x.length - y.length);
}

// Units around the places the orders part: ASCII, the top of the BMP, pairs and lone surrogates.
const UNITS = ['a', 'b', '/', '\u00e9', '\ud7ff', '\ue000', '\uff5a', '\uffff', '\ud83d', '\ude00', '\udfff', '\ud800', '\ud83d\ude00', '\ud800\udc00'];

describe('text/pyText: code-point order', () => {
  it('orders any two strings as Python does, surrogates included', () => {
    const text = fc.array(fc.constantFrom(...UNITS), { maxLength: 6 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        assert.equal(Math.sign(compareCodePoints(a, b)), pythonOrder(a, b), JSON.stringify([a, b]));
      }),
      { numRuns: 5000 },
    );
  });

  it('sorts lists as Python does, with and without surrogates in them', () => {
    const ascii = fc.array(fc.constantFrom('a', 'b', '/', '\u00e9', '\uffff'), { maxLength: 5 }).map((parts) => parts.join(''));
    const any = fc.array(fc.constantFrom(...UNITS), { maxLength: 5 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(fc.oneof(ascii, any), { maxLength: 12 }), (list) => {
        const expected = [...list].sort(pythonOrder);
        assert.deepEqual(sortByCodePoints([...list]), expected, JSON.stringify(list));
      }),
      { numRuns: 3000 },
    );
  });

  it('counts, finds and slices code points as Python does, surrogates or not', () => {
    const text = fc.array(fc.oneof(fc.constantFrom('a', 'é', ' ', '\uffff'), fc.constantFrom(...UNITS)), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: -10, max: 10 }), fc.integer({ min: -10, max: 10 }), (s, start, end) => {
        const points = Array.from(s); // what Python's str holds, one element per code point
        assert.equal(codePointLength(s), points.length);
        const index = Math.abs(start);
        assert.equal(unitOffset(s, index), points.slice(0, index).join('').length);
        const from = start < 0 ? Math.max(0, points.length + start) : start;
        const to = end < 0 ? Math.max(0, points.length + end) : end;
        assert.equal(sliceCodePoints(s, start, end), points.slice(from, to).join(''), JSON.stringify([s, start, end]));
      }),
      { numRuns: 3000 },
    );
  });

  it('puts an astral character after the top of the BMP, where UTF-16 order puts it before', () => {
    assert.ok('\ud83d\ude00' < '\uff5a'); // JS: the surrogate unit is smaller
    assert.ok(compareCodePoints('x/\ud83d\ude00', 'x/\uff5a') > 0);
    assert.ok(compareCodePoints('x/\uff5a', 'x/\ud83d\ude00') < 0);
    assert.equal(compareCodePoints('same', 'same'), 0);
    assert.ok(compareCodePoints('skills/a', 'skills/a/b') < 0);
  });
});
