// `--json` written in pieces says exactly what JSON.stringify says of the same value, whatever the
// value: nested objects and arrays past the walked levels, values JSON leaves out or writes as null,
// Dates and other objects with toJSON, objects without a prototype.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonPieces } from '../../../server/cli/jsonPieces';

function joined(value: unknown): { text: string; pieces: number } {
  const pieces: string[] = [];
  jsonPieces(value, (piece) => void pieces.push(piece));
  return { text: pieces.join(''), pieces: pieces.length };
}

describe('cli: JSON in pieces', () => {
  it('joins to JSON.stringify of any value', () => {
    const odd = fc.oneof(
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.constant(Symbol('s')),
      fc.date({ noInvalidDate: true }),
      fc.constant(Object.create(null) as object),
      fc.constant({ toJSON: () => ({ made: 'by toJSON' }) }),
      fc.constant(new Map([[1, 2]])),
      fc.constant(Number.NaN),
      fc.constant(-0),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), odd, fc.array(tie('node')), fc.dictionary(fc.string(), tie('node'))),
    })).node;
    fc.assert(fc.property(value, (v) => assert.equal(joined(v).text, JSON.stringify(v) ?? '')), { numRuns: 2000 });
  });

  it("hands a status's sessions over one piece each, not as one text", () => {
    const sessions = Array.from({ length: 50 }, (_, i) => ({ id: `s${i}`, reasons: [{ source: 'soul', path: '/h/SOUL.md' }], cost: i / 7 }));
    const status = { home: '/h', profiles: [{ name: 'default', totals: { sessions: 50 }, sessions }] };
    const { text, pieces } = joined(status);
    assert.equal(text, JSON.stringify(status));
    assert.ok(pieces > sessions.length, `${pieces} pieces`);
  });
});
