// Price answers remembered on disk (priceAnswers.ts) must give every figure a live lookup gives:
// in a later process, for models priced by date or time of day, and not at all when caches are off.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calcPrice } from '@pydantic/genai-prices';
import { answerHoldsUntil, PriceAnswerStore } from '../../../server/hermes/cost/priceAnswers';

const PRICES = path.resolve(__dirname, '../../../server/hermes/cost/prices.js');
/** Vendor ids, router names and variants, a date-priced and a time-of-day-priced model, unknown ones. */
const MODELS: Array<[string, string | undefined]> = [
  ['claude-opus-4-5', 'anthropic'], ['claude-sonnet-4-5', undefined], ['anthropic/claude-sonnet-4.5', 'openrouter'], ['claude-opus-4-6', 'anthropic'],
  ['gpt-5.1', 'openai'], ['gemini-2.5-pro', 'gemini'], ['deepseek-chat', 'deepseek'], ['meta-llama/llama-3.3-70b-instruct:free', 'openrouter'],
  ['my-local-llama', 'custom'], ['no-such-model', undefined],
];

/** Looks MODELS up in a fresh process; says whether the price library had to be loaded. */
function lookUpInProcess(cache: string): { prices: unknown[]; libraryLoaded: boolean } {
  const script = `const { lookupPrices } = require(${JSON.stringify(PRICES)});
    const prices = ${JSON.stringify(MODELS)}.map(([m, p]) => lookupPrices(m, p) ?? null);
    const libraryLoaded = Object.keys(require.cache).some((f) => f.includes('genai-prices'));
    console.log(JSON.stringify({ prices, libraryLoaded }));`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, HERMES_LENS_TOKEN_CACHE: cache } });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { prices: unknown[]; libraryLoaded: boolean };
}

/** The library's price record for a model at an instant. */
function record(model: string, providerId: string, at: number): string {
  return JSON.stringify(calcPrice({}, model, { providerId, timestamp: new Date(at) })?.model_price);
}

describe('cost/priceAnswers: the price library remembered', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-prices-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives a later process the same prices as a live lookup, without loading the library', () => {
    const cache = path.join(dir, 'cache');
    const live = lookUpInProcess('off');
    const first = lookUpInProcess(cache);
    const second = lookUpInProcess(cache);
    assert.deepEqual(first.prices, live.prices);
    assert.deepEqual(second.prices, live.prices);
    assert.ok(first.libraryLoaded);
    assert.equal(second.libraryLoaded, false, 'every answer was remembered');
    assert.equal(fs.statSync(path.join(cache, 'price-answers-v1.json')).mode & 0o777, 0o600);
    assert.ok(live.prices.some((p) => p !== null) && live.prices.includes(null), 'known and unknown models');
  });

  it('writes nothing when caches are off, and ignores answers of another library version or a damaged file', () => {
    const cache = path.join(dir, 'cache');
    lookUpInProcess(cache);
    const file = path.join(cache, 'price-answers-v1.json');
    const shape = JSON.parse(fs.readFileSync(file, 'utf8')) as { library: string };
    fs.writeFileSync(file, JSON.stringify({ ...shape, library: '0.0.0-other' }));
    assert.equal(lookUpInProcess(cache).libraryLoaded, true);
    fs.writeFileSync(file, '{ not json');
    assert.deepEqual(lookUpInProcess(cache).prices, lookUpInProcess('off').prices);
    const xdg = path.join(dir, 'xdg');
    const run = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(PRICES)}).lookupPrices('gpt-5.1', 'openai')`], { env: { ...process.env, HERMES_LENS_TOKEN_CACHE: 'off', XDG_CACHE_HOME: xdg } });
    assert.equal(run.status, 0);
    assert.ok(!fs.existsSync(xdg));
  });

  it('holds a time-of-day price until the library changes it, at any moment of the day', () => {
    const model = calcPrice({}, 'deepseek-chat', { providerId: 'deepseek' })!.model;
    assert.ok(Array.isArray(model.prices), 'deepseek-chat is priced by time of day in this library version');
    const day = Date.UTC(2026, 5, 1);
    for (let minute = 0; minute < 24 * 60; minute += 7) {
      const now = day + minute * 60_000 + 123;
      const until = answerHoldsUntil(model, now)!;
      assert.ok(until > now && until - now <= 86_400_000, `${new Date(now).toISOString()}: until ${until}`);
      const atNow = record('deepseek-chat', 'deepseek', now);
      for (const t of [now + 1, Math.floor((now + until) / 2), until - 1]) assert.equal(record('deepseek-chat', 'deepseek', t), atNow, new Date(t).toISOString());
      assert.notEqual(record('deepseek-chat', 'deepseek', until), atNow, `changes at ${new Date(until).toISOString()}`);
    }
  });

  it('holds a date-priced record until its start date, then for good; an unconstrained one always', () => {
    const model = calcPrice({}, 'claude-opus-4-6', { providerId: 'anthropic' })!.model;
    assert.ok(Array.isArray(model.prices));
    const starts = model.prices.map((p) => p.constraint).filter((c) => c?.type === 'start_date').map((c) => new Date((c as { start_date: string }).start_date).getTime());
    const start = Math.min(...starts);
    assert.equal(answerHoldsUntil(model, start - 86_400_000), start);
    assert.notEqual(record('claude-opus-4-6', 'anthropic', start - 1), record('claude-opus-4-6', 'anthropic', start));
    assert.equal(answerHoldsUntil(model, Math.max(...starts) + 1), Infinity);
    assert.equal(answerHoldsUntil(calcPrice({}, 'gpt-5.1', { providerId: 'openai' })!.model, Date.now()), Infinity);
    assert.equal(answerHoldsUntil(undefined, Date.now()), Infinity);
  });

  it('uses a remembered answer only while it holds', () => {
    const store = new PriceAnswerStore(path.join(dir, 'answers.json'), '1.2.3');
    const answer = { modelId: 'm', providerId: 'p', price: { input_mtok: 1 } };
    store.remember('k', answer, 2_000);
    const again = new PriceAnswerStore(path.join(dir, 'answers.json'), '1.2.3');
    assert.deepEqual(again.get('k', 1_999), answer);
    assert.equal(again.get('k', 2_000), undefined);
    assert.equal(new PriceAnswerStore(path.join(dir, 'answers.json'), '9.9.9').get('k', 0), undefined);
    // An answer JSON would not give back as it is (an undefined price) is not kept.
    store.remember('odd', { modelId: 'm', providerId: 'p', price: { input_mtok: undefined } }, Infinity);
    assert.equal(new PriceAnswerStore(path.join(dir, 'answers.json'), '1.2.3').get('odd', 0), undefined);
  });
});
