// User price overrides: they beat the library, globs and missing fields behave predictably, and a broken
// file is reported with its name and what to fix instead of half-applying.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadPriceOverrides, lookupPrices, parsePriceOverrides } from '../../../server/hermes/cost/prices';

describe('cost/price overrides', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-lens-prices-'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function write(name: string, text: string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  }

  it('lets an override file beat the library', () => {
    const file = write('prices.json', JSON.stringify({ 'claude-opus-4-5': { input: 4, cacheRead: 0.4, cacheWrite5m: 5, cacheWrite1h: 8 } }));
    const { overrides, problem } = loadPriceOverrides(file);
    assert.equal(problem, undefined);
    const prices = lookupPrices('claude-opus-4-5', 'anthropic', overrides);
    assert.ok(prices);
    assert.equal(prices.origin, 'override');
    assert.deepEqual(
      [prices.inputPerMTok, prices.cacheReadPerMTok, prices.cacheWrite5mPerMTok, prices.cacheWrite1hPerMTok],
      [4, 0.4, 5, 8],
    );
    // A model the file does not name keeps its library prices.
    assert.equal(lookupPrices('claude-haiku-4-5', 'anthropic', overrides)?.origin, 'library');
  });

  it('prices an unknown custom model through a glob and derives missing prices from its family', () => {
    const { overrides } = parsePriceOverrides({ 'my-vllm-*': { input: 0.5 }, 'claude-*': { input: 2 } }, 'settings');
    const custom = lookupPrices('my-vllm-qwen', 'custom', overrides);
    assert.ok(custom);
    // Unknown family: no write premium, no read discount.
    assert.deepEqual([custom.inputPerMTok, custom.cacheReadPerMTok, custom.cacheWrite5mPerMTok, custom.cacheWrite1hPerMTok], [0.5, 0.5, 0.5, 0.5]);
    const claude = lookupPrices('anthropic/claude-sonnet-4.5', 'openrouter', overrides);
    assert.ok(claude);
    // Anthropic family: read 0.1×, 5-minute write 1.25×, 1-hour write 2× of the overridden input.
    assert.deepEqual([claude.cacheReadPerMTok, claude.cacheWrite5mPerMTok, claude.cacheWrite1hPerMTok], [0.2, 2.5, 4]);
  });

  it('prefers an exact model id over a glob whatever the order in the file', () => {
    const { overrides } = parsePriceOverrides({ 'claude-*': { input: 2 }, 'Claude-Opus-4-5': { input: 7 } }, 'settings');
    assert.equal(lookupPrices('claude-opus-4-5', undefined, overrides)?.inputPerMTok, 7);
    assert.equal(lookupPrices('claude-haiku-4-5', undefined, overrides)?.inputPerMTok, 2);
  });

  it('reports a file that is not JSON, naming the file, and applies nothing', () => {
    const file = write('broken.json', '{ "claude-opus-4-5": { "input": 4, } ');
    const { overrides, problem } = loadPriceOverrides(file);
    assert.equal(overrides.length, 0);
    assert.ok(problem?.includes(file), problem);
    assert.match(problem ?? '', /not valid JSON/);
    assert.equal(lookupPrices('claude-opus-4-5', 'anthropic', overrides)?.origin, 'library');
  });

  it('reports each bad entry with the key and the field to fix, and applies none of the file', () => {
    const file = write(
      'bad-entries.json',
      JSON.stringify({ good: { input: 1 }, 'no-input': { cacheRead: 0.1 }, negative: { input: -1 }, typo: { input: 1, cache_read: 0.1 } }),
    );
    const { overrides, problem } = loadPriceOverrides(file);
    assert.equal(overrides.length, 0);
    assert.ok(problem?.includes(file), problem);
    assert.match(problem ?? '', /"no-input" needs "input"/);
    assert.match(problem ?? '', /"negative"\.input must be a number ≥ 0/);
    assert.match(problem ?? '', /"typo" has unknown field "cache_read"/);
  });

  it('reports a missing file and a value that is not an object', () => {
    const missing = path.join(dir, 'nope.json');
    const loaded = loadPriceOverrides(missing);
    assert.equal(loaded.overrides.length, 0);
    assert.ok(loaded.problem?.includes(missing));
    const parsed = parsePriceOverrides([{ input: 1 }], 'hermesLens.priceOverrides');
    assert.equal(parsed.overrides.length, 0);
    assert.ok(parsed.problem?.includes('hermesLens.priceOverrides'));
  });

  it('ignores "$comment" keys so users can annotate the file', () => {
    const { overrides, problem } = parsePriceOverrides({ $comment: 'negotiated rates', 'gpt-5.1': { input: 1 } }, 'f.json');
    assert.equal(problem, undefined);
    assert.equal(overrides.length, 1);
  });
});
