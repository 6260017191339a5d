// The refresh cost arithmetic of docs/PROMPT-CACHING.md with numbers worked out by hand.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ModelPrices } from '../../../server/hermes/cost/prices';
import { estimateRefreshCost, formatUsd } from '../../../server/hermes/cost/refreshCost';
import { CLAUDE_LIKE_PRICES } from './fixtures';

const PRICES = CLAUDE_LIKE_PRICES;
const NOW = 1_800_000_000;

function near(actual: number | undefined, expected: number): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);
}

describe('cost/refreshCost', () => {
  it('writes amounts of a cent and more as en-US does (two decimals, thousands commas), negative ones too', () => {
    const enUs = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    assert.equal(formatUsd(1234567.891), '$1,234,567.89');
    assert.equal(formatUsd(-1000), '-$1,000.00');
    assert.equal(formatUsd(0.5, true), '≈ $0.50');
    assert.equal(formatUsd(0.345), '$0.35', 'half up on the shortest decimal form, as Intl rounds (toFixed says 0.34)');
    assert.equal(formatUsd(999.995), '$1,000.00');
    // Any double, and amounts of a few decimals, where the halves that decide rounding are.
    const amounts = fc.oneof(
      fc.double({ min: 0.01, max: 1e12, noNaN: true }),
      fc.integer({ min: 10, max: 1e12 }).map((k) => k / 1000),
      fc.integer({ min: 1, max: 1e9 }).map((k) => k / 100 + 0.005),
    );
    fc.assert(
      fc.property(amounts, fc.boolean(), (amount, negative) => {
        assert.equal(formatUsd(negative ? -amount : amount), `${negative ? '-' : ''}$${enUs.format(amount)}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('charges a warm 5-minute cache P × (write − read) + ΔS × write', () => {
    const input = { prefixTokens: 100_000, systemPromptDeltaTokens: 2_000, lastActivityAt: NOW - 60, now: NOW, ttlSeconds: 300, prices: PRICES };
    const cost = estimateRefreshCost(input);
    assert.equal(cost.warm, true);
    assert.equal(cost.cacheExpiresAt, NOW + 240);
    // 100,000 × (3.75 − 0.30) / 1e6 = 0.345; 2,000 × 3.75 / 1e6 = 0.0075
    near(cost.extraUsd, 0.3525);
    near(cost.coldUsd, 0.0075);
    assert.equal(formatUsd(cost.extraUsd), '$0.35');
    assert.equal(formatUsd(cost.coldUsd), '$0.0075');
  });

  it('uses the 1-hour write price for a 1-hour cache', () => {
    const cost = estimateRefreshCost({ prefixTokens: 100_000, systemPromptDeltaTokens: 0, lastActivityAt: NOW - 1_800, now: NOW, ttlSeconds: 3600, prices: PRICES });
    assert.equal(cost.warm, true);
    near(cost.extraUsd, 0.57); // 100,000 × (6 − 0.3) / 1e6
    near(cost.coldUsd, 0);
  });

  it('charges only ΔS × write once the cache has expired', () => {
    const input = { prefixTokens: 100_000, systemPromptDeltaTokens: 2_000, lastActivityAt: NOW - 301, now: NOW, ttlSeconds: 300, prices: PRICES };
    const cost = estimateRefreshCost(input);
    assert.equal(cost.warm, false);
    assert.equal(cost.cacheExpiresAt, NOW - 1);
    near(cost.extraUsd, 0.0075);
    near(cost.coldUsd, 0.0075);
  });

  it('counts unknown last activity as expired', () => {
    const cost = estimateRefreshCost({ prefixTokens: 100_000, systemPromptDeltaTokens: 1_000, now: NOW, ttlSeconds: 3600, prices: PRICES });
    assert.equal(cost.warm, false);
    assert.equal(cost.cacheExpiresAt, undefined);
    near(cost.extraUsd, 0.006); // 1,000 × 6 / 1e6 (1-hour write)
  });

  it('does not let a shrinking system prompt make a refresh look like a saving', () => {
    const warm = estimateRefreshCost({ prefixTokens: 10_000, systemPromptDeltaTokens: -3_000, lastActivityAt: NOW, now: NOW, ttlSeconds: 300, prices: PRICES });
    near(warm.extraUsd, 0.0345); // 10,000 × 3.45 / 1e6, nothing subtracted for the shrink
    const cold = estimateRefreshCost({ prefixTokens: 10_000, systemPromptDeltaTokens: -3_000, lastActivityAt: NOW - 10_000, now: NOW, ttlSeconds: 300, prices: PRICES });
    near(cold.extraUsd, 0);
    assert.equal(formatUsd(cold.extraUsd), '$0.00');
  });

  it('bills the long-context tier when the refreshed request passes its threshold', () => {
    const tiered: ModelPrices = {
      ...PRICES,
      longContext: [{ aboveTokens: 200_000, inputPerMTok: 6, cacheReadPerMTok: 0.6, cacheWrite5mPerMTok: 7.5, cacheWrite1hPerMTok: 12 }],
    };
    const cost = estimateRefreshCost({ prefixTokens: 250_000, systemPromptDeltaTokens: 0, lastActivityAt: NOW, now: NOW, ttlSeconds: 300, prices: tiered });
    near(cost.extraUsd, 1.725); // 250,000 × (7.5 − 0.6) / 1e6
  });

  it('reports unknown money, not zero, when the model has no prices', () => {
    const input = { prefixTokens: 100_000, systemPromptDeltaTokens: 500, lastActivityAt: NOW, now: NOW, ttlSeconds: 300 };
    const cost = estimateRefreshCost(input);
    assert.equal(cost.warm, true);
    assert.equal(cost.extraUsd, undefined);
    assert.equal(cost.coldUsd, undefined);
    assert.equal(formatUsd(cost.extraUsd), 'unknown');
  });

  it('flags subscription_included billing as an API-equivalent figure', () => {
    const input = { prefixTokens: 1_000, systemPromptDeltaTokens: 0, now: NOW, ttlSeconds: 300, prices: PRICES, billingMode: 'subscription_included' };
    assert.equal(estimateRefreshCost(input).apiEquivalent, true);
    const api = estimateRefreshCost({ prefixTokens: 1_000, systemPromptDeltaTokens: 0, now: NOW, ttlSeconds: 300, prices: PRICES, billingMode: 'api' });
    assert.equal(api.apiEquivalent, false);
  });

  it('formats dollars for people', () => {
    assert.equal(formatUsd(0.84), '$0.84');
    assert.equal(formatUsd(0.0031), '$0.0031');
    assert.equal(formatUsd(0.003), '$0.003');
    assert.equal(formatUsd(1234.5), '$1,234.50');
    assert.equal(formatUsd(0.84, true), '≈ $0.84');
    assert.equal(formatUsd(0.000004), '<$0.0001');
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(undefined), 'unknown');
    assert.equal(formatUsd(undefined, true), 'unknown');
  });
});
