// Cache lifetime per session, as Hermes resolves `prompt_caching.cache_ttl`, and the write price it buys.
import * as assert from 'node:assert/strict';
import { lookupPrices } from '../../../server/hermes/cost/prices';
import { cacheTtlSeconds, cacheWritePrice } from '../../../server/hermes/cost/ttl';
import { CLAUDE_LIKE_PRICES } from './fixtures';

const CLAUDE_LIKE = CLAUDE_LIKE_PRICES;

describe('cost/ttl', () => {
  it('maps 5m and 1h to seconds whatever the source', () => {
    assert.equal(cacheTtlSeconds('5m', 'cli'), 300);
    assert.equal(cacheTtlSeconds('5m', 'cron'), 300);
    assert.equal(cacheTtlSeconds('1h', 'cron'), 3600);
    assert.equal(cacheTtlSeconds('1h', undefined), 3600);
  });

  it('gives auto 1h where a person types, including an unknown source', () => {
    for (const source of ['cli', 'tui', 'telegram', 'discord', 'slack', 'whatsapp', 'signal', 'email', 'acp', 'api_server', 'matrix', undefined]) {
      assert.equal(cacheTtlSeconds('auto', source), 3600, String(source));
    }
  });

  it('gives auto 5m to machine-paced sources', () => {
    for (const source of ['cron', 'subagent', 'webhook', 'batch', 'kanban', 'tool', ' Cron ']) {
      assert.equal(cacheTtlSeconds('auto', source), 300, source);
    }
  });

  it("honours OpenAI GPT-5.6's 30-minute minimum cache lifetime", () => {
    const gpt56 = lookupPrices('gpt-5.6', 'openai');
    assert.ok(gpt56);
    assert.equal(gpt56.minTtlSeconds, 1800);
    assert.equal(cacheTtlSeconds('5m', 'cli', gpt56), 1800);
    assert.equal(cacheTtlSeconds('auto', 'cron', gpt56), 1800);
    assert.equal(cacheTtlSeconds('1h', 'cli', gpt56), 3600);
    // GPT-5.6 writes at 1.25× input.
    assert.equal(gpt56.cacheWrite5mPerMTok, gpt56.inputPerMTok * 1.25);
    // Older OpenAI models have no minimum.
    assert.equal(cacheTtlSeconds('5m', 'cli', lookupPrices('gpt-5.1', 'openai')), 300);
  });

  it('picks the 5-minute write price for a 5-minute cache and the 1-hour price for longer ones', () => {
    assert.equal(cacheWritePrice(CLAUDE_LIKE, 300), 3.75);
    assert.equal(cacheWritePrice(CLAUDE_LIKE, 3600), 6);
    assert.equal(cacheWritePrice(CLAUDE_LIKE, 1800), 6);
  });
});
