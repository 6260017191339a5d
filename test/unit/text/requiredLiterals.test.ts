// The scan skips a pattern when the text lacks words every match contains. That must never skip a
// pattern that would match: checked on text generated from each of Hermes' patterns, with the case,
// width and look-alike changes NFKC and case-insensitive matching see through.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import patternsJson from '../../../server/hermes/sources/injection-patterns.json';
import { pythonPatternToJs } from '../../../server/hermes/text/pyRegex';
import { mayMatch, requiredLiterals } from '../../../server/hermes/text/requiredLiterals';

const macros = patternsJson.macros as Record<string, string>;
const hermesPatterns = patternsJson.patterns.map((p) => ({ id: p.id, source: p.regex.replace(/\{([A-Z_]+)\}/g, (whole, name: string) => macros[name] ?? whole) }));

/** A version of a Python pattern fast-check can generate text from (ASCII classes, no lookarounds, short repeats). */
function generatorSource(source: string): string {
  return source
    .replace(/\[([^\]]*)\]/g, (_, body: string) => `[${body.replace(/\\s/g, ' \\t\\n').replace(/\\w/g, 'a-zA-Z0-9_')}]`)
    .replace(/\\[bB]/g, '')
    .replace(/\(\?<?[=!][^)]*\)/g, '')
    .replace(/\\w/g, '[a-zA-Z0-9_\u00e9]')
    .replace(/\\s/g, '[ \\t\\n]')
    .replace(/\\(['~])/g, '$1')
    .replace(/\{0,(512|2048)\}/g, '{0,6}');
}

/** Each character kept, its case changed, made full-width, or swapped for a look-alike that folds to it. */
function disguise(text: string, choices: number[]): string {
  return Array.from(text, (c, i) => {
    const choice = choices.length ? choices[i % choices.length]! : 0;
    if (!/[A-Za-z]/.test(c) || choice === 0) return c;
    if (choice === 1) return c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    if (choice === 2) return String.fromCharCode(c.charCodeAt(0) + 0xfee0); // ｆｕｌｌ-width
    const lookAlike: Record<string, string> = { k: '\u212a', K: '\u212a', s: '\u017f', i: '\u0131', I: '\u0130' };
    return lookAlike[c] ?? c.toUpperCase();
  }).join('');
}

/** The text as the scan matches it: NFKC, then Turkish dotted and dotless i as plain i. */
function scanned(text: string): string {
  return text.normalize('NFKC').replace(/[\u0130\u0131]/g, 'i');
}

describe('text/requiredLiterals: what every match contains', () => {
  for (const { id, source } of hermesPatterns) {
    it(`never rules out a text that ${id} matches`, () => {
      const regex = new RegExp(pythonPatternToJs(source), 'iu');
      const required = requiredLiterals(source);
      let matched = 0;
      fc.assert(
        fc.property(fc.stringMatching(new RegExp(`^(?:${generatorSource(source)})$`)).map((t) => ` ${t} `), fc.array(fc.nat(3), { maxLength: 7 }), (text, choices) => {
          const seen = scanned(disguise(text, choices));
          if (!regex.test(seen)) return;
          matched++;
          assert.ok(mayMatch(required, seen.toLowerCase()), `${JSON.stringify(seen)} matches but ${JSON.stringify(required)} rules it out`);
        }),
        { numRuns: 400 },
      );
      assert.ok(matched >= 80, `only ${matched} of the generated texts matched: the check saw too few matches`);
    });
  }

  it('reads sequences, alternatives and optional parts of a pattern', () => {
    assert.deepEqual(requiredLiterals('ignore\\s+(?:\\w+\\s+){0,8}(previous|all)\\s+instructions'), [['ignore'], ['previous', 'all'], ['instructions']]);
    assert.deepEqual(requiredLiterals('https?://'), [['http'], ['://']]);
    assert.deepEqual(requiredLiterals('\\$HOME/\\.ssh|\\~/\\.ssh'), [['$home/.ssh', '~/.ssh']]);
    assert.deepEqual(requiredLiterals('(?<![A-Za-z])(?:api[_-]?key|token)'), [['api', 'token']]);
    assert.deepEqual(requiredLiterals('(?P<x>ab+c)'), [['ab'], ['c']]);
  });

  it('requires nothing where it cannot tell: a branch without words, unknown syntax, non-ASCII', () => {
    assert.deepEqual(requiredLiterals('abc|\\d+'), []);
    assert.deepEqual(requiredLiterals('(?i)abc'), []);
    assert.deepEqual(requiredLiterals('a{,x'), []);
    assert.deepEqual(requiredLiterals('[abc'), []);
    assert.deepEqual(requiredLiterals('\u00fcber'), [['ber']]);
    assert.ok(mayMatch([], 'anything'));
  });
});
