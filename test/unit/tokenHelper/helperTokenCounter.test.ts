// The language server counts text no cache knows in a helper process (relay thread + child
// process): the counts must be exactly what the tokenizer gives in-process, the tokenizer must not
// load in the asking process, and when the helper cannot run the count must still be right.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { countWithTokenizer } from '../../../server/hermes/cost/countWithTokenizer';
import { HelperTokenCounter } from '../../../server/tokenHelper/helperTokenCounter';

const COST_DIR = path.resolve(__dirname, '../../../server/hermes/cost');
const HELPER_DIR = path.resolve(__dirname, '../../../server/tokenHelper');
const PIECES = ['a', 'word', ' Words', '123', ' ', '\n', '\n\n', '/', '.', '😀', 'é', '═', '<|endoftext|>', '\u3000', 'x'.repeat(1500), ' '.repeat(1200)];

describe('tokenHelper/helperTokenCounter', () => {
  let counter: HelperTokenCounter;
  beforeEach(() => (counter = new HelperTokenCounter()));
  afterEach(() => counter.close());

  it('counts exactly what the tokenizer counts in-process, long runs sliced alike', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join('')), { minLength: 1, maxLength: 5 }), (texts) => {
        assert.deepEqual(counter.count(texts), texts.map(countWithTokenizer));
      }),
      { numRuns: 150 },
    );
    assert.equal(counter.running, true);
  });

  it('starts again after it closed, with the same counts', () => {
    const texts = ['## Rules\n\nKeep it short.', 'second paragraph'];
    const first = counter.count(texts);
    counter.close();
    assert.equal(counter.running, false);
    assert.deepEqual(counter.count(texts), first);
    assert.equal(counter.running, true);
  });

  it('counts in-process, still exactly, when the helper files are missing', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'lens-no-helper-'));
    try {
      const missing = new HelperTokenCounter({ dir: empty });
      assert.deepEqual(missing.count(['hello world', 'y'.repeat(2500)]), [countWithTokenizer('hello world'), countWithTokenizer('y'.repeat(2500))]);
      assert.equal(missing.running, false);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('keeps the tokenizer out of the process that asks', () => {
    // A fresh process: this one has loaded the tokenizer for the comparisons above.
    const script = `
      const tokens = require(${JSON.stringify(path.join(COST_DIR, 'tokens.js'))});
      const { HelperTokenCounter } = require(${JSON.stringify(path.join(HELPER_DIR, 'helperTokenCounter.js'))});
      const counter = new HelperTokenCounter();
      tokens.countUncachedWith(counter.count);
      const count = tokens.countTokens('Never seen before: ' + process.argv[1], 'gpt-5.1');
      counter.close();
      const loaded = Object.keys(require.cache).some((file) => file.endsWith('o200kEncoder.js'));
      process.stdout.write(JSON.stringify({ count, loaded }));`;
    const nonce = String(process.hrtime.bigint());
    const env = { ...process.env, HERMES_LENS_TOKEN_CACHE: 'off' };
    const result = JSON.parse(execFileSync(process.execPath, ['-e', script, nonce], { env, encoding: 'utf8' })) as { count: unknown; loaded: boolean };
    assert.deepEqual(result, { count: { tokens: countWithTokenizer('Never seen before: ' + nonce).tokens, exact: true, counted: true }, loaded: false });
  });
});
