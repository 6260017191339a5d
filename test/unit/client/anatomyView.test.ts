// The prompt anatomy view's pure parts: the page's Content-Security-Policy, the messages each side
// accepts, what a block says to a screen reader, the cache timeline, and which block a file selects.
import * as assert from 'node:assert/strict';
import { anatomyHtml, makeNonce } from '../../../client/anatomy/anatomyHtml';
import { cacheTimeline, partAriaLabel, skillCostText, toolsCaption, toolsetsTitle } from '../../../client/anatomy/anatomyText';
import { otherBuildLine } from '../../../shared/otherBuild';
import { parseHostMessage, parseViewMessage } from '../../../client/anatomy/messages';
import { partOf } from '../../../client/anatomy/partOf';
import { formatClock } from '../../../client/format';
import type { PromptMapDto, PromptPartDto, SessionDto } from '../../../shared/protocol';

function part(over: Partial<PromptPartDto> = {}): PromptPartDto {
  return { kind: 'identity', tier: 'stable', label: 'SOUL.md', origin: 'file', path: '/h/SOUL.md', line: 0, start: 0, end: 10, bytes: 2048, tokens: 512, shareTenths: 123, stale: [], entries: [], ...over };
}

function map(parts: PromptPartDto[]): PromptMapDto {
  return { profile: 'default', sessionId: 's1', bytes: 4096, tokens: 1024, tokensExact: true, tiers: [], parts, unplaced: [], tools: null };
}

function session(over: Partial<SessionDto> = {}): SessionDto {
  return {
    profile: 'default', id: 's1', title: 'Fix the build', source: 'cli', model: 'claude-sonnet-4', provider: 'anthropic', state: 'stale', reasons: [], otherBuild: null, tipSessionId: null,
    lastActivityAt: 1_000_000, requestedEpoch: 0, stampedEpoch: 0, systemPromptTokens: 9_000, toolTokens: 11_000, prefixTokens: 42_000, tokensExact: true, deltaTokens: 12, ttlSeconds: 300,
    cacheWarm: true, cacheExpiresAt: 1_000_300, refreshCostUsd: 0.12, refreshCostColdUsd: 0.01, apiEquivalent: false, unadoptableRequest: false, adoption: null, ...over,
  };
}

describe('client: the prompt anatomy view', () => {
  it('locks its page down: nothing loads but its own script (by nonce) and style, from the extension', () => {
    const nonce = makeNonce((n) => new Uint8Array(n).map((_, i) => i * 7));
    assert.match(nonce, /^[A-Za-z0-9]{32}$/);
    const html = anatomyHtml({ cspSource: 'https://file+.vscode-resource.example', nonce, scriptUri: 'https://file+.vscode-resource.example/dist/webview/anatomy.js', styleUri: 'https://file+.vscode-resource.example/dist/webview/anatomy.css' });
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;|&quot;/g, "'");
    assert.ok(csp, html);
    assert.match(csp, /^default-src 'none';/);
    assert.match(csp, new RegExp(`script-src 'nonce-${nonce}'`));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.deepEqual(scripts, [` nonce="${nonce}" src="https://file+.vscode-resource.example/dist/webview/anatomy.js"`], 'one script, by nonce, and no inline code');
    assert.doesNotMatch(html.replace(/https:\/\/file\+\.vscode-resource\.example/g, ''), /https?:/, 'no other origin');
  });

  it('takes from the webview only indexes and a session id, never a path', () => {
    assert.deepEqual(parseViewMessage({ type: 'open', part: 3, entry: null }), { type: 'open', part: 3, entry: null });
    assert.deepEqual(parseViewMessage({ type: 'open', part: 3 }), { type: 'open', part: 3, entry: null });
    assert.deepEqual(parseViewMessage({ type: 'open', part: 1, entry: 4, path: '/etc/passwd' }), { type: 'open', part: 1, entry: 4 });
    assert.deepEqual(parseViewMessage({ type: 'pick', sessionId: 's2' }), { type: 'pick', sessionId: 's2' });
    assert.deepEqual(parseViewMessage({ type: 'ready' }), { type: 'ready' });
    for (const bad of [null, 'open', [], { type: 'open', part: -1 }, { type: 'open', part: 1.5 }, { type: 'open', part: '2' }, { type: 'open', part: 1, entry: 'x' }, { type: 'pick', sessionId: '' }, { type: 'pick' }, { type: 'run', command: 'x' }]) {
      assert.equal(parseViewMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  it('draws only messages with the shape of the extension’s', () => {
    const show = { type: 'show', map: map([part()]), session: null, chosen: 'newest', choices: [], select: null };
    assert.equal(parseHostMessage(show), show);
    assert.deepEqual(parseHostMessage({ type: 'error', message: 'no' }), { type: 'error', message: 'no' });
    for (const bad of [{ ...show, chosen: 'x' }, { ...show, map: {} }, { ...show, select: -1 }, { type: 'show' }, { type: 'error' }, 7]) assert.equal(parseHostMessage(bad), undefined, JSON.stringify(bad));
  });

  it('names a block to a screen reader by kind, file, tokens, bytes, share, tier and stale reason', () => {
    const reason = { source: 'soul', path: '/h/SOUL.md', change: 'changed' as const, detail: 'persona text edited' };
    assert.equal(partAriaLabel(part({ stale: [reason] }), true), 'Identity, SOUL.md, 512 tokens, 2.0 KB, 12.3% of the prompt, stable tier, stale: SOUL.md changed: persona text edited');
    assert.equal(partAriaLabel(part({ kind: 'guidance', label: "Hermes' own text", origin: 'hermes', path: null }), false), "Guidance, Hermes' own text, about 512 tokens, 2.0 KB, 12.3% of the prompt, stable tier");
  });

  it('tells when a refresh becomes free: at the expiry while the cache is warm, now once it expired', () => {
    const warm = cacheTimeline(session(), 1_000_100);
    const row = (t: typeof warm, term: string) => t.rows.find((r) => r.term === term)?.value;
    assert.equal(row(warm, 'Cache lifetime (TTL)'), '5 min');
    assert.equal(row(warm, 'Cache expires'), formatClock(1_000_300));
    assert.equal(row(warm, 'Refresh is free'), `from ${formatClock(1_000_300)} (but for the prompt change)`);
    assert.equal(row(warm, 'Refresh now'), '$0.12');
    assert.equal(row(warm, 'Once expired'), '$0.01');
    assert.equal(warm.changesAt, 1_000_300);
    assert.deepEqual({ ...warm.lifetime, elapsed: Math.round(warm.lifetime!.elapsed * 1000) }, { from: 1_000_000, to: 1_000_300, elapsed: 333 });
    // The same row read after the expiry, before the server said so: the view's clock decides.
    const expired = cacheTimeline(session(), 1_000_400);
    assert.equal(row(expired, 'Cache expires'), `expired at ${formatClock(1_000_300)}`);
    assert.equal(row(expired, 'Refresh is free'), 'now: the cache expired (but for the prompt change)');
    assert.equal(row(expired, 'Refresh now'), '$0.01');
    assert.equal(expired.changesAt, undefined);
    assert.equal(row(cacheTimeline(session({ state: 'fresh', refreshCostUsd: 0, refreshCostColdUsd: 0 }), 1_000_100), 'Refresh now'), 'nothing to gain: the stored prompt is current');
  });

  it('says when another Hermes build wrote the prompt, as the session tree does, and nothing otherwise', () => {
    assert.equal(otherBuildLine("Hermes' own text in its prompt differs"), "Built by another Hermes build: Hermes' own text in its prompt differs (not stale)");
    assert.equal(otherBuildLine(null), undefined);
  });

  it("says a profile whose config.yaml turns prompt caching off has no cache to wait for: a refresh costs the prompt change now", () => {
    const off = cacheTimeline(session({ ttlSeconds: 0, cacheWarm: false, cacheExpiresAt: null, refreshCostUsd: 0.02, refreshCostColdUsd: 0.02 }), 1_000_100);
    const row = (term: string) => off.rows.find((r) => r.term === term)?.value;
    assert.match(row('Cache lifetime (TTL)')!, /^none: prompt caching is off/);
    assert.equal(row('Cache expires'), undefined);
    assert.equal(row('Refresh now'), '$0.02: the prompt change only, nothing is cached');
    assert.deepEqual([off.lifetime, off.changesAt], [undefined, undefined]);
  });

  it('says what the tool block is, whose sizes those are, and lists its toolsets on hover; a skill\'s two costs', () => {
    const tools = { tokens: 11_826, bytes: 50_449, count: 29, build: 'v0.20.3-schema26', buildTitle: 'Hermes 0.20.3', by: 'prompt' as const, recorded: false, estimated: 0, toolsets: [{ toolset: 'session_search', tools: 1, tokens: 1_637, bytes: 6_995 }, { toolset: 'file', tools: 4, tokens: 1_594, bytes: 6_704 }] };
    assert.equal(
      toolsCaption(tools, false),
      'Tool schemas, sent before the system prompt by every request: 29 tools, the default list of its surface (state.db names none), ≈ 11,826 tokens · 49.3 KB (sizes of Hermes 0.20.3 as Hermes\' own code measured them, the build that wrote this prompt)',
    );
    assert.match(toolsCaption({ ...tools, recorded: true, estimated: 2, by: 'newest' }, true), /^Tool schemas, sent before the system prompt by every request: 29 tools, 11,826 tokens .*the newest release measured .*; 2 not measured, counted at the average\)$/);
    assert.equal(toolsetsTitle(tools), 'Toolsets by size:\nsession_search: 1 tool, 1,637 tokens, 6.8 KB\nfile: 4 tools, 1,594 tokens, 6.5 KB');
    assert.equal(skillCostText({ name: 'deploy', category: 'ops', path: '/s', line: 1, stale: null, indexBytes: 74, skillMdBytes: 270 }), 'index line 74 B every request; SKILL.md 270 B when loaded');
  });

  it('selects the block of the file a hover names: its own, the skills index for a SKILL.md, the folder it is in', () => {
    const m = map([
      part(),
      part({ kind: 'skills-index', label: 'skills/', origin: 'folder', path: '/h/skills', entries: [{ name: 'deploy', category: 'ops', path: '/h/skills/ops/deploy/SKILL.md', line: 2, stale: null, indexBytes: 60, skillMdBytes: 300 }] }),
      part({ kind: 'memory', label: 'MEMORY.md', path: '/h/memories/MEMORY.md' }),
    ]);
    assert.equal(partOf(m, '/h/memories/MEMORY.md'), 2);
    assert.equal(partOf(m, '/h/skills/ops/deploy/SKILL.md'), 1);
    assert.equal(partOf(m, '/h/skills/ops/DESCRIPTION.md'), 1);
    assert.equal(partOf(m, '/h/skillsets/x.md'), null);
    assert.equal(partOf(m, '/elsewhere/AGENTS.md'), null);
  });
});
