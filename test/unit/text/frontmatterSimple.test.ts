// The parser-free reading of simple frontmatter must give exactly what the YAML 1.1 parser gives.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { isMap, isScalar, parse, parseDocument } from 'yaml';
import { frontmatterValueSpan, simpleMapping } from '../../../server/hermes/text/frontmatter';

const KEYS = ['name', 'description', 'version', 'author', 'on', 'yes', 'y', 'Name', '_x', 'a-b', 'x1', 'null', '__proto__', 'key with space', '1key'];
const PLAIN = ['Deploy', 'the', 'service', "Dana's", 'v2', 'a/b', 'x=y', 'C++', 'é', '—', 'a,b', 'why?', '$5', '-', 'it', 'Y', 'on', '~x'];
// Quoted values read verbatim, and ones that are not (escapes, doubled quotes, text after the quote).
const QUOTED = ['"Triage: assess, page"', "'a: b # c'", '"it\'s"', "'say \"hi\"'", '""', "''", "'a''b'", '"a\\nb"', '"a\\"', '"yes"', "'null'", '"é — ü"', '"\u00a0x"', '"x" y', "'open", '"tab\there"'];
const WORDS = ['Deploy', 'the', 'service', "Dana's", 'notes', '(beta)', 'v2', 'a/b', 'x=y', 'C++', 'yes', 'no', 'On', 'null', 'NULL', 'true', 'é', 'Ünïcode', '—', '“quoted”', 'a,b', 'why?', '~', '^', '$5', '-', ':', '#', 'C#', "'", '"', '[x]', '{y}', '&a', '*b', '!t', '%p', '@u', '|', '>', '\t', '\r', '0', '12', '1.5', '2024-01-01', '.inf'];

describe('text/frontmatter: simple mappings without the parser', () => {
  it('agrees with the YAML 1.1 parser whenever it answers', () => {
    const words = fc.oneof(
      { arbitrary: fc.array(fc.oneof({ arbitrary: fc.constantFrom(...PLAIN), weight: 12 }, { arbitrary: fc.constantFrom(...WORDS), weight: 1 }), { maxLength: 6 }), weight: 4 },
      { arbitrary: fc.constantFrom(...QUOTED).map((q) => [q]), weight: 1 },
    );
    // A long value wrapped onto indented lines (sometimes after a blank line, or not indented).
    const wrapped = fc.array(fc.tuple(fc.constantFrom(' ', '  ', '    ', '', '\n  '), words, fc.constantFrom('', ' ')), { maxLength: 3 });
    const line = fc.tuple(fc.oneof({ arbitrary: fc.constantFrom('name', 'description', 'author'), weight: 6 }, { arbitrary: fc.constantFrom(...KEYS), weight: 1 }), words, fc.constantFrom('', ' ', '  '), fc.constantFrom(': ', ':  ', ':'), wrapped);
    const render = ([k, first, trail, sep, more]: [string, string[], string, string, Array<[string, string[], string]>]) =>
      `${k}${sep}${first.join(' ')}${trail}` + more.map(([indent, w, end]) => `\n${indent}${w.join(' ')}${end}`).join('');
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), fc.boolean(), (lines, blank) => {
        const text = '\n' + lines.map(render).join(blank ? '\n\n' : '\n');
        const fast = simpleMapping(text);
        if (fast === undefined) return;
        assert.deepEqual(fast, { ...(parse(text, { version: '1.1', uniqueKeys: false }) as object) }, JSON.stringify(text));
        // And the value spans the diagnostics point at are the parser's.
        const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
        for (const key of Object.keys(fast)) {
          let span: { start: number; end: number } | undefined;
          if (isMap(doc.contents)) {
            for (const pair of doc.contents.items) {
              const range = (pair.value as { range?: number[] } | null)?.range;
              if (isScalar(pair.key) && String(pair.key.value) === key && range) span = { start: 3 + range[0]!, end: 3 + range[1]! };
            }
          }
          assert.deepEqual(frontmatterValueSpan(`---${text}\n---\n`, key), span, JSON.stringify(text));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('folds a value wrapped onto indented lines as the parser does', () => {
    const LETTER_FIRST = ['Deploy', 'the', 'service', 'it', 'Check', 'when', 'x'];
    const wordsLine = fc.tuple(fc.constantFrom(...LETTER_FIRST), fc.array(fc.constantFrom(...PLAIN), { maxLength: 4 })).map(([first, rest]) => [first, ...rest].join(' '));
    const continuation = fc.tuple(fc.constantFrom(' ', '  ', '   ', '      '), wordsLine, fc.constantFrom('', ' ', '  '));
    const entry = fc.tuple(fc.constantFrom('name', 'description', 'author'), wordsLine, fc.array(continuation, { minLength: 1, maxLength: 4 }));
    let answered = 0;
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 3 }), fc.boolean(), (entries, blank) => {
        const text = '\n' + entries.map(([k, first, more]) => `${k}: ${first}` + more.map(([indent, w, end]) => `\n${indent}${w}${end}`).join('')).join(blank ? '\n\n' : '\n');
        const fast = simpleMapping(text);
        if (fast === undefined) return;
        answered++;
        assert.deepEqual(fast, { ...(parse(text, { version: '1.1', uniqueKeys: false }) as object) }, JSON.stringify(text));
      }),
      { numRuns: 1000 },
    );
    // Most of these are simple enough to be answered without the parser (else this test proves little).
    assert.ok(answered > 500, `only ${answered} of 1000 answered`);
  });

  it('answers the common shape and leaves the rest to the parser', () => {
    assert.deepEqual(simpleMapping('\nname: deploy-service\ndescription: Deploy a service, then check it'), { name: 'deploy-service', description: 'Deploy a service, then check it' });
    assert.deepEqual(simpleMapping('\nname: x\ndescription: Deploy a service,\n  then check it\n   twice\nauthor: Dana'), { name: 'x', description: 'Deploy a service, then check it twice', author: 'Dana' });
    assert.deepEqual(simpleMapping('\nname: x\ndescription: "Triage: assess impact"'), { name: 'x', description: 'Triage: assess impact' });
    for (const text of ['\nname: x\nplatforms: [linux]', '\ndescription: "quoted\\tescape"', "\ndescription: 'it''s'", '\ndescription: "wrapped\n  on"', '\nenabled: yes', '\nname: a: b', ' trailing\nname: x', '\n  continued\nname: x', '\nname: x\n\n  after a blank line', '\nname: x\n  a: b', '\nname: x\n  # comment']) {
      assert.equal(simpleMapping(text), undefined, text);
    }
  });
});
