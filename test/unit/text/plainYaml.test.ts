// config.yaml's plain block YAML is read without the yaml library; whenever that reading answers,
// it must be exactly what the library gives, and anything else must be left to the library.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { readPlainYaml } from '../../../server/hermes/text/plainYaml';

// Mostly what configs hold, some of everything the reading must leave alone or get exactly right.
const KEYS = ['model', 'default', 'provider', 'skills', 'disabled', 'cache_ttl', 'a-b', '_x', 'x1', 'on', 'yes', 'y', 'constructor'];
const ODD_KEYS = ['True', 'null', 'NULL', '__proto__', 'key with space', '1key', 'a.b', "'q'", '? k', 'k\u00e9'];
const SCALARS = ['claude-sonnet-4-5', 'anthropic', 'auto', '1h', '5m', 'true', 'False', 'TRUE', 'yes', 'no', 'on', 'null', 'Null', '~', '~x', '12', '-0', '+5', '012', 'a b', 'a #c', "'quoted'", "'a #b'", '"dq"', '"é"', "'a' # c", 'a,b', 'f(x)', '$HOME', '/usr/bin'];
const ODD_SCALARS = [
  '0x1F', '0o17', '1e3', '1.5', '.5', '.inf', '-.Inf', '.nan', '1_000', '99999999999999999999', 'a  b', 'a#c', 'a: b', 'a:b', '-', '-x', '- x', '[a, b]', '{a: 1}', '&a x', '*a', '!t x',
  '|', '>', '%x', '@x', '`x', "'it''s'", '"a\\nb"', "'a'b", '"unclosed', 'Zoë', 'C:\\x', '\u00a0x', 'x\u2028y', 'x\u0085y',
];
const key = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_KEYS) });
const scalar = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...SCALARS) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_SCALARS) });

type Tree = ReadonlyArray<readonly [key: string, value: string | Tree | { readonly list: readonly string[] }]>;

/** Nested mappings, lists and scalars, keys and scalars drawn from the tricky words above. */
const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  // Mostly distinct keys (a repeated key is the library's error to report; it gets a case below).
  tree: fc.uniqueArray(
    fc.tuple(
      key,
      fc.oneof(
        { weight: 5, arbitrary: scalar },
        { weight: 2, arbitrary: fc.record({ list: fc.array(scalar, { minLength: 1, maxLength: 4 }) }) },
        { weight: 2, arbitrary: tie('tree') },
      ),
    ),
    { minLength: 1, maxLength: 4, selector: ([k]: readonly [string, unknown]) => k },
  ),
})).tree;

/** The tree as block YAML: each block indented by its own step, comments and blank lines between. */
function render(t: Tree, steps: readonly number[], extras: readonly string[], depth = 0, indent = 0): string[] {
  const pad = ' '.repeat(indent);
  const extra = (i: number) => extras[(depth * 7 + i) % Math.max(1, extras.length)] ?? '';
  const lines: string[] = [];
  t.forEach(([key, value], i) => {
    const step = steps[(depth + i) % steps.length] ?? 2;
    if (extra(i)) lines.push(extra(i));
    if (typeof value === 'string') lines.push(`${pad}${key}: ${value}`);
    else if ('list' in value) lines.push(`${pad}${key}:`, ...value.list.map((v) => `${pad}${' '.repeat(step)}- ${v}`));
    else lines.push(`${pad}${key}:`, ...render(value, steps, extras, depth + 1, indent + step));
  });
  return lines;
}

/** One line changed: moved by a space, given a comment or a tab, or dropped. */
function perturb(lines: string[], at: number, how: number): string[] {
  if (lines.length === 0) return lines;
  const i = at % lines.length;
  const changed = [...lines];
  const line = changed[i]!;
  if (how === 1) changed[i] = ` ${line}`;
  else if (how === 2) changed[i] = line.replace(/^ /, '');
  else if (how === 3) changed[i] = `${line} # trailing`;
  else if (how === 4) changed[i] = line.replace(/^( *)/, '$1\t');
  else if (how === 5) changed.splice(i, 1);
  return changed;
}

/** The library's answer: its value, or that it rejects the text. */
function library(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parse(text, { prettyErrors: true, logLevel: 'error' }) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('text/plainYaml: config.yaml without the yaml library', () => {
  it('answers only for text the library reads, and then with exactly its value', () => {
    let answered = 0;
    const extras = fc.array(fc.constantFrom('', '', '', '# comment', '    # indented comment', '   ', '---'), { maxLength: 5 });
    const steps = fc.array(fc.constantFrom(1, 2, 2, 4), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(tree, steps, extras, fc.nat(), fc.nat(8), fc.boolean(), (t, st, ex, at, how, finalNewline) => {
        const text = perturb(render(t, st, ex), at, how).join('\n') + (finalNewline ? '\n' : '');
        const plain = readPlainYaml(text);
        if (plain === undefined) return;
        answered++;
        assert.deepEqual(library(text), { value: plain }, JSON.stringify(text));
      }),
      { numRuns: 10_000 },
    );
    assert.ok(answered > 1_500, `answered only ${answered} times: the check saw too little`);
  });

  it('reads a typical config.yaml: nested mappings, a long list, comments, words, numbers and booleans', () => {
    const names = Array.from({ length: 600 }, (_, i) => `skill-${i}`);
    const text = [
      '# Hermes config',
      'model:',
      '  default: claude-sonnet-4-5   # the main model',
      '  provider: anthropic',
      'prompt_caching:',
      '  cache_ttl: 1h',
      'context_file_max_chars: 20000',
      'agent:',
      "  system_prompt: 'Be brief.'",
      'memory:',
      '  memory_enabled: true',
      '  nothing:',
      'skills:',
      '  disabled:',
      ...names.map((n) => `    - ${n}`),
      '',
    ].join('\n');
    const expected = {
      model: { default: 'claude-sonnet-4-5', provider: 'anthropic' },
      prompt_caching: { cache_ttl: '1h' },
      context_file_max_chars: 20000,
      agent: { system_prompt: 'Be brief.' },
      memory: { memory_enabled: true, nothing: null },
      skills: { disabled: names },
    };
    assert.deepEqual(readPlainYaml(text), expected);
    assert.deepEqual(parse(text), expected);
  });

  it('leaves to the library what it does not read, errors included', () => {
    for (const text of ['a: [1, 2]\n', 'a: b\n  c\n', 'a: 1\na: 2\n', 'a: 1.5\n', 'a:\n- x\n', '  a: 1\n', 'a: "x\\ty"\n', 'a: &x 1\n', '- a\n', 'a: b\n c: d\n']) {
      assert.equal(readPlainYaml(text), undefined, JSON.stringify(text));
    }
    const bad = fs.readFileSync(path.join(__dirname, '../../../../test/fixtures/bad/53-yaml-error-config/profile/config.yaml'), 'utf8');
    assert.equal(readPlainYaml(bad), undefined);
    assert.equal(readPlainYaml(''), null);
    assert.equal(readPlainYaml('# only a comment\n'), null);
  });
});
