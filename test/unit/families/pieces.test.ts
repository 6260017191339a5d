// The parts of prefix families that need no home: which breakpoints Hermes marks on a route, how a
// split's extra writes are counted from request times, how a tools array is keyed and sized.
import * as assert from 'node:assert/strict';
import { cacheLayoutOf, markedAt } from '../../../server/hermes/families/cacheLayout';
import { displayedHome } from '../../../server/hermes/families/homeNamingTools';
import { memberTools } from '../../../server/hermes/families/memberTools';
import { splitCost } from '../../../server/hermes/families/splitCost';
import type { PrefixMember } from '../../../server/hermes/families/types';
import type { ModelPrices } from '../../../server/hermes/cost/prices';

function member(id: string, ttlSeconds: number, prices?: Partial<ModelPrices>): PrefixMember {
  return { report: { id, ttlSeconds }, prices: prices && ({ inputPerMTok: 3, cacheReadPerMTok: 0.3, cacheWrite5mPerMTok: 3.75, cacheWrite1hPerMTok: 6, ...prices } as ModelPrices) } as unknown as PrefixMember;
}

describe('prefix families: the pieces', () => {
  it("marks Hermes' breakpoints as agent/prompt_caching.py does for each route", () => {
    assert.equal(cacheLayoutOf('anthropic/claude-sonnet-4.6', 'openrouter', 300), 'stable-and-system');
    assert.equal(cacheLayoutOf('claude-opus-4-8', 'anthropic', 300), 'tools-and-stable');
    assert.equal(cacheLayoutOf('gpt-5.5', 'openai', 300), 'implicit');
    assert.equal(cacheLayoutOf('qwen3-coder', 'alibaba', 300), 'stable-and-system');
    assert.equal(cacheLayoutOf('qwen3-coder', 'openrouter', 300), 'implicit');
    assert.equal(cacheLayoutOf('claude-opus-4-8', 'anthropic', 0), 'off');
    assert.deepEqual(['tools', 'stable', 'system'].map((b) => markedAt('tools-and-stable', b as 'tools')), ['yes', 'yes', 'no']);
    assert.deepEqual(['tools', 'stable', 'system'].map((b) => markedAt('stable-and-system', b as 'tools')), ['no', 'yes', 'yes']);
  });

  it('counts the writes a shared entry would have served: a hit keeps an entry alive one TTL more', () => {
    const a = member('a', 300, {});
    const b = member('b', 300, {});
    const times = new Map([
      [a, [0, 100, 700]],
      [b, [50, 650, 2000]],
    ]);
    // Apart: a writes at 0 and 700, b at 50, 650 and 2000. One entry: 0, 650 (550 after 100), 2000.
    const cost = splitCost([a], [b], { of: (m) => times.get(m) }, 10_000);
    assert.equal(cost.extraWrites, 2);
    assert.equal(cost.extraTokens, 20_000);
    assert.ok(Math.abs(cost.extraUsd! - (2 * 10_000 * (3.75 - 0.3)) / 1e6) < 1e-12);
  });

  it('with caching off nothing is extra, and without prices the money is unknown', () => {
    const off = splitCost([member('a', 0, {})], [member('b', 0, {})], { of: () => [0, 10, 20] }, 1000);
    assert.equal(off.extraWrites, 0);
    const a = member('a', 300);
    const b = member('b', 300);
    const unknown = splitCost([a], [b], { of: (m) => (m === a ? [0] : [10]) }, 1000);
    assert.equal(unknown.extraWrites, 1);
    assert.equal(unknown.extraUsd, undefined);
  });

  it("keys a tools array by each tool's size in its build and, for skill_manage, the profile's home as Hermes writes it", () => {
    const sizes: Record<string, number> = { read_file: 100, skill_manage: 400, todo: 50 };
    const basis = (names: string[]) => ({ names, recorded: false, build: 'b', tokens: 0, sizeOf: (t: string) => (sizes[t] ? { bytes: sizes[t]!, tokens: 1 } : undefined) });
    const one = memberTools(basis(['read_file', 'skill_manage', 'todo']), 'cli', '/home/u/.hermes');
    const two = memberTools(basis(['read_file', 'skill_manage', 'todo']), 'cli', '/home/u/.hermes/profiles/work');
    assert.notEqual(one.digest, two.digest);
    assert.deepEqual(one.namingHome, ['skill_manage']);
    // `[` + 100 + `, ` + 400 + `, ` + 50 + `]`, as json.dumps joins a list.
    assert.equal(one.bytes, 1 + 100 + 2 + 400 + 2 + 50 + 1);
    assert.deepEqual(one.starts, [1, 103, 505]);
    assert.equal(memberTools(basis(['read_file', 'mcp_thing']), 'cli', '/x').bytes, undefined, 'an unmeasured tool leaves the size unknown');
    assert.equal(displayedHome('/home/u/.hermes/profiles/work', '/home/u'), '~/.hermes/profiles/work');
    assert.equal(displayedHome('/srv/hermes', '/home/u'), '/srv/hermes');
  });
});
