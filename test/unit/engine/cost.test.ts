// What a refresh costs, per session, as the engine and the CLI report it for real state.db files.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli } from '../../../server/cli/main';
import { commandEnv } from '../../support/cliNow';
import type { CommandIO } from '../../../server/cli/io';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import type { SessionSpec } from '../../../server/demo/hermes/sessions';
import { lookupPrices } from '../../../server/hermes/cost/prices';
import { cacheWritePrice } from '../../../server/hermes/cost/ttl';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import type { SessionReport } from '../../../server/hermes/engine/types';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_795_000_000;
const MIN = 60;
const HOUR = 3600;

function captureIO(): CommandIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => void stdout.push(t), err: (t) => void stderr.push(t), env: commandEnv(), now: () => NOW };
}

describe('engine: refresh cost', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-cost-')));
  afterEach(() => removeDir(dir));

  function makeHome(config?: Record<string, unknown>) {
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 31 });
    const p = home.profile();
    if (config) p.writeConfig(config);
    p.writeSoul('You are Kit.\n');
    p.addSkill({ category: 'devops', name: 'deploy', description: 'Deploy a service' });
    return { home, p };
  }

  function addSession(p: ProfileBuilder, spec: Partial<SessionSpec>): string {
    return p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 5 * HOUR, messages: 12, promptFromCurrentFiles: true, ...spec });
  }

  /** Edits SOUL.md so every stored prompt is stale and a rebuild grows it (ΔS > 0). */
  function growSoul(p: ProfileBuilder): void {
    p.writeSoul(`You are Kit.\n\n${'Always explain the trade-offs of each option before recommending one. '.repeat(20)}\n`);
  }

  function report(home: HomeBuilder): Map<string, SessionReport> {
    const { report } = analyzeProfile(selectProfile(readHome({ root: home.root, origin: 'argument' })), { now: NOW });
    return new Map(report.sessions.map((s) => [s.id, s]));
  }

  function statusRow(home: HomeBuilder, id: string): string {
    const io = captureIO();
    assert.equal(runCli(['status', '--home', home.root], io), 0, io.stderr.join('\n'));
    const row = io.stdout.join('\n').split('\n').find((line) => line.includes(id));
    assert.ok(row, `no row for ${id}`);
    return row;
  }

  it('an unknown model: the cost is unknown (undefined, null in JSON, "unknown" in the table), never $0', () => {
    const { home, p } = makeHome();
    const id = addSession(p, { model: 'my-local-llama', provider: 'custom', baseUrl: 'http://localhost:11434/v1', lastActivityAt: NOW - 2 * MIN });
    growSoul(p);
    const s = report(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.equal(s.pricesKnown, false);
    assert.equal(s.refreshCostUsd, undefined);
    assert.equal(s.refreshCostColdUsd, undefined);

    const row = statusRow(home, id);
    assert.match(row, /\bunknown\b/);
    assert.doesNotMatch(row, /\$0(?![.,]\d*[1-9])/, 'no zero dollar figure for an unknown price');

    const io = captureIO();
    assert.equal(runCli(['status', '--home', home.root, '--json'], io), 0);
    const json = JSON.parse(io.stdout.join('\n'));
    const js = json.profiles[0].sessions.find((x: { id: string }) => x.id === id);
    assert.equal(js.refreshCostUsd, null);
    assert.equal(json.profiles[0].totals.unknownCost, 1);
  });

  it('warm cache: P × (write − read) + ΔS × write; cold cache (idle past the TTL): only ΔS × write', () => {
    const { home, p } = makeHome();
    const warm = addSession(p, { lastActivityAt: NOW - 2 * MIN });
    const cold = addSession(p, { lastActivityAt: NOW - 2 * HOUR });
    growSoul(p);
    const all = report(home);
    const w = all.get(warm)!;
    const c = all.get(cold)!;
    assert.equal(w.state, 'stale');
    assert.equal(c.state, 'stale');
    assert.equal(w.ttlSeconds, 300, 'the default cache_ttl is 5m');
    assert.ok(w.deltaTokens > 100, `the edit grows the prompt (ΔS = ${w.deltaTokens})`);
    assert.ok(w.prefixTokens > w.systemPromptTokens, 'P counts the transcript and tools too');

    const prices = lookupPrices('claude-sonnet-4-5', 'anthropic')!;
    assert.ok(prices, 'the price library knows claude-sonnet-4-5');
    const write = cacheWritePrice(prices, 300) / 1e6;
    const read = prices.cacheReadPerMTok / 1e6;
    assert.ok(write > read);

    assert.equal(w.cacheWarm, true);
    assert.equal(w.cacheExpiresAt, NOW - 2 * MIN + 300);
    approx(w.refreshCostUsd!, w.prefixTokens * (write - read) + w.deltaTokens * write);
    approx(w.refreshCostColdUsd!, w.deltaTokens * write);

    assert.equal(c.cacheWarm, false);
    assert.equal(c.cacheExpiresAt, NOW - 2 * HOUR + 300);
    approx(c.refreshCostUsd!, c.deltaTokens * write);
    assert.ok(w.refreshCostUsd! > c.refreshCostUsd! * 2, 'a warm cache makes the refresh dearer');

    assert.match(statusRow(home, warm), /warm \d+m left/);
    assert.match(statusRow(home, cold), /\bcold\b/);
  });

  it('a fresh session costs nothing to refresh', () => {
    const { home, p } = makeHome();
    const id = addSession(p, { lastActivityAt: NOW - 2 * MIN });
    const s = report(home).get(id)!;
    assert.equal(s.state, 'fresh');
    assert.equal(s.refreshCostUsd, 0);
    assert.match(statusRow(home, id), /\$0\s*$/);
  });

  it('billing_mode subscription_included: the figure is an API-equivalent and the table says so', () => {
    const { home, p } = makeHome();
    const sub = addSession(p, { source: 'api_server', billingMode: 'subscription_included', lastActivityAt: NOW - 2 * MIN });
    const paid = addSession(p, { source: 'api_server', lastActivityAt: NOW - 2 * MIN });
    growSoul(p);
    const all = report(home);
    assert.equal(all.get(sub)!.apiEquivalent, true);
    assert.equal(all.get(paid)!.apiEquivalent, false);
    assert.ok(all.get(sub)!.refreshCostUsd! > 0);
    assert.match(statusRow(home, sub), /\$[\d.,]+ \(API-equiv\.\)/);
    assert.doesNotMatch(statusRow(home, paid), /API-equiv/);
  });

  it('cache_ttl auto: 1 h where a person types (cli), 5 min for machine-paced sources (cron)', () => {
    const { home, p } = makeHome({ prompt_caching: { cache_ttl: 'auto' } });
    const cli = addSession(p, { source: 'cli', lastActivityAt: NOW - 30 * MIN });
    const cron = addSession(p, { source: 'cron', lastActivityAt: NOW - 30 * MIN });
    growSoul(p);
    const all = report(home);
    assert.deepEqual([all.get(cli)!.ttlSeconds, all.get(cli)!.cacheWarm], [3600, true]);
    assert.deepEqual([all.get(cron)!.ttlSeconds, all.get(cron)!.cacheWarm], [300, false]);
    assert.equal(all.get(cli)!.cacheExpiresAt, NOW - 30 * MIN + 3600);
    // The 1-hour cache is written at the 1-hour price.
    const prices = lookupPrices('claude-sonnet-4-5', 'anthropic')!;
    const s = all.get(cli)!;
    approx(s.refreshCostUsd!, s.prefixTokens * (prices.cacheWrite1hPerMTok - prices.cacheReadPerMTok) / 1e6 + s.deltaTokens * prices.cacheWrite1hPerMTok / 1e6);
  });

  it('cache_ttl off: no cache to lose, so a refresh costs the prompt change at the plain input price, warm or not', () => {
    const { home, p } = makeHome({ prompt_caching: { cache_ttl: false } });
    const recent = addSession(p, { lastActivityAt: NOW - 30 });
    growSoul(p);
    const s = report(home).get(recent)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual([s.ttlSeconds, s.cacheWarm, s.cacheExpiresAt], [0, false, undefined]);
    const prices = lookupPrices('claude-sonnet-4-5', 'anthropic')!;
    assert.ok(s.deltaTokens > 0);
    approx(s.refreshCostUsd!, (s.deltaTokens * prices.inputPerMTok) / 1e6);
    assert.equal(s.refreshCostColdUsd, s.refreshCostUsd);
    assert.match(statusRow(home, recent), /\boff\b/);
  });

  it('cache_ttl 1h applies to every source', () => {
    const { home, p } = makeHome({ prompt_caching: { cache_ttl: '1h' } });
    const cron = addSession(p, { source: 'cron', lastActivityAt: NOW - 30 * MIN });
    assert.equal(report(home).get(cron)!.ttlSeconds, 3600);
  });
});

function approx(actual: number, expected: number): void {
  assert.ok(Number.isFinite(actual), `not a number: ${actual}`);
  assert.ok(Math.abs(actual - expected) <= Math.max(1e-9, Math.abs(expected) * 1e-6), `${actual} ≠ ${expected}`);
}
