// Price lookup as a user would check it: figures match the maintained price library, the 1-hour write
// price exists, Hermes' model spellings resolve, and an unknown model stays unknown instead of free.
import * as assert from 'node:assert/strict';
import { calcPrice, type ModelPrice } from '@pydantic/genai-prices';
import { lookupPrices, pricesForPromptTokens } from '../../../server/hermes/cost/prices';
import { formatUsd } from '../../../server/hermes/cost/refreshCost';

/** The library's own record for a model, resolved the same day. */
function libraryRecord(model: string, providerId: string): ModelPrice {
  const result = calcPrice({}, model, { providerId });
  assert.ok(result, `the library should know ${providerId}/${model}`);
  return result.model_price;
}

function base(value: ModelPrice[string]): number {
  if (typeof value === 'number') return value;
  assert.ok(value && typeof value === 'object', 'expected a price');
  return value.base;
}

describe('cost/prices', () => {
  it("gives a Claude model the library's input, read and write prices, and a 1-hour write at 2× input", () => {
    const prices = lookupPrices('claude-opus-4-5', 'anthropic');
    assert.ok(prices);
    const record = libraryRecord('claude-opus-4-5', 'anthropic');
    assert.equal(prices.origin, 'library');
    assert.equal(prices.provider, 'anthropic');
    assert.equal(prices.inputPerMTok, base(record.input_mtok));
    assert.equal(prices.cacheReadPerMTok, base(record.cache_read_mtok));
    assert.equal(prices.cacheWrite5mPerMTok, base(record.cache_write_mtok));
    assert.equal(prices.cacheWrite5mPerMTok, prices.inputPerMTok * 1.25);
    assert.equal(prices.cacheWrite1hPerMTok, prices.inputPerMTok * 2);
  });

  it('resolves an OpenRouter-style name with a vendor prefix to the vendor prices', () => {
    const routed = lookupPrices('anthropic/claude-sonnet-4.5', 'openrouter');
    const direct = lookupPrices('claude-sonnet-4-5', 'anthropic');
    assert.ok(routed && direct);
    assert.equal(routed.modelId, 'claude-sonnet-4-5');
    assert.deepEqual(
      [routed.inputPerMTok, routed.cacheReadPerMTok, routed.cacheWrite5mPerMTok, routed.cacheWrite1hPerMTok],
      [direct.inputPerMTok, direct.cacheReadPerMTok, direct.cacheWrite5mPerMTok, direct.cacheWrite1hPerMTok],
    );
  });

  it('finds the provider from the model name when Hermes recorded none', () => {
    const prices = lookupPrices('claude-opus-4-5', undefined);
    assert.equal(prices?.provider, 'anthropic');
  });

  it('prices OpenAI before GPT-5.6 with free cache writes (write = input) and the library read price', () => {
    const prices = lookupPrices('gpt-5.1', 'openai');
    assert.ok(prices);
    const record = libraryRecord('gpt-5.1', 'openai');
    assert.equal(prices.inputPerMTok, base(record.input_mtok));
    assert.equal(prices.cacheReadPerMTok, base(record.cache_read_mtok));
    assert.equal(prices.cacheWrite5mPerMTok, prices.inputPerMTok);
    assert.equal(prices.cacheWrite1hPerMTok, prices.inputPerMTok);
    assert.equal(prices.minTtlSeconds, undefined);
  });

  it('gives Gemini (Hermes provider "gemini") and DeepSeek no write premium', () => {
    const gemini = lookupPrices('gemini-2.5-pro', 'gemini');
    assert.ok(gemini);
    assert.equal(gemini.provider, 'google');
    assert.equal(gemini.cacheWrite5mPerMTok, gemini.inputPerMTok);
    assert.ok(gemini.cacheReadPerMTok < gemini.inputPerMTok);
    const deepseek = lookupPrices('deepseek-chat', undefined);
    assert.ok(deepseek);
    assert.equal(deepseek.cacheWrite1hPerMTok, deepseek.inputPerMTok);
    assert.ok(deepseek.cacheReadPerMTok < deepseek.inputPerMTok);
  });

  it('returns undefined, not zero prices, for a model nobody prices, and the money then reads "unknown"', () => {
    assert.equal(lookupPrices('hermes-4-405b', 'nous'), undefined);
    assert.equal(lookupPrices('my-finetune-v3', 'custom'), undefined);
    assert.equal(lookupPrices(undefined, 'anthropic'), undefined);
    assert.equal(lookupPrices('   ', undefined), undefined);
    assert.equal(formatUsd(lookupPrices('my-finetune-v3', 'custom')?.inputPerMTok), 'unknown');
  });

  it('prices an OpenRouter `:free` variant at zero because the router lists it as free', () => {
    const prices = lookupPrices('nousresearch/hermes-3-llama-3.1-405b:free', 'openrouter');
    assert.ok(prices);
    assert.equal(prices.inputPerMTok, 0);
    assert.equal(prices.cacheWrite1hPerMTok, 0);
  });

  it("switches to the library's long-context tier only once the prompt passes its threshold", () => {
    const prices = lookupPrices('gpt-5.5', 'openai');
    assert.ok(prices?.longContext?.length);
    const record = libraryRecord('gpt-5.5', 'openai').input_mtok;
    assert.ok(record && typeof record === 'object');
    const tier = record.tiers[0];
    assert.equal(pricesForPromptTokens(prices, tier.start).inputPerMTok, record.base);
    assert.equal(pricesForPromptTokens(prices, tier.start + 1).inputPerMTok, tier.price);
    assert.ok(tier.price > record.base);
  });
});
