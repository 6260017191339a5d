// The pure parts of the views: formatting, prompt URIs, command arguments, the tree model.
import * as assert from 'node:assert/strict';
import type { ProfileDto, SessionDto } from '../../../shared/protocol';
import { profileFromArg, sessionFromArg } from '../../../client/commands/args';
import { baseName, formatAgo, formatCost, formatUsd, notAdoptedMessage, plural, savedSourceMessage } from '../../../client/format';
import { parsePromptUri, promptUriParts } from '../../../client/promptUri';

import {
  adoptionEstimate,
  profileChildren,
  profileContextValue,
  profileDescription,
  refreshTarget,
  sessionContextValue,
  sessionDescription,
  sessionLabel,
} from '../../../client/sessionsModel';

function session(over: Partial<SessionDto> = {}): SessionDto {
  return {
    profile: 'default',
    id: '20261129_173501_a1b2c3',
    title: 'Fix the build',
    source: 'cli',
    model: 'claude-sonnet-4',
    provider: 'anthropic',
    state: 'fresh',
    reasons: [],
    otherBuild: null,
    tipSessionId: null,
    lastActivityAt: 1_000_000,
    requestedEpoch: 0,
    stampedEpoch: 0,
    unadoptableRequest: false,
    adoption: null,
    systemPromptTokens: 9_000,
    toolTokens: 11_000,
    prefixTokens: 42_000,
    tokensExact: false,
    deltaTokens: 0,
    ttlSeconds: 3600,
    cacheWarm: true,
    cacheExpiresAt: 1_000_300,
    refreshCostUsd: 0.12,
    refreshCostColdUsd: 0.01,
    apiEquivalent: false,
    ...over,
  };
}

function profile(over: Partial<ProfileDto> = {}): ProfileDto {
  return {
    name: 'default',
    home: '/home/u/.hermes',
    dbFile: '/home/u/.hermes/state.db',
    active: true,
    unavailable: null,
    storedPromptSessions: 3,
    requestedEpoch: 0,
    adoption: { adopted: 0, adoptedStampUnread: 0, waiting: 0, notAdopted: 0 },
    sessions: [],
    problems: [],
    totals: { sessions: 0, stale: 0, pending: 0, fresh: 0, staleRefreshCostUsd: 0, unknownCost: 0 },
    stale: 0,
    pending: 0,
    staleRefreshCostUsd: 0,
    unknownCost: 0,
    ...over,
  };
}

describe('client: formatting', () => {
  it('formats money as an estimate', () => {
    assert.equal(formatUsd(0.8412), '$0.84');
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(0.004), '< $0.01');
    assert.equal(formatUsd(null), 'unknown');
    assert.equal(formatCost(0.84), '≈ $0.84');
    assert.equal(formatCost(0.001), '< $0.01');
    assert.equal(formatCost(undefined), 'cost unknown');
  });

  it('pluralizes and tells time from Hermes epoch seconds', () => {
    assert.equal(plural(1, 'session'), '1 session');
    assert.equal(plural(3, 'session'), '3 sessions');
    const now = 1_000_000 * 1000;
    assert.equal(formatAgo(1_000_000 - 30, now), 'just now');
    assert.equal(formatAgo(1_000_000 - 600, now), '10m ago');
    assert.equal(formatAgo(1_000_000 - 7200, now), '2h ago');
    assert.equal(formatAgo(1_000_000 - 3 * 86400, now), '3d ago');
    assert.equal(formatAgo(null, now), 'no activity');
  });

  it('words the save notification like the issue', () => {
    const text = savedSourceMessage({ uri: 'file:///work/proj/AGENTS.md', profile: 'work', newlyStale: 3, staleRefreshCostUsd: 0.84 });
    assert.equal(text, 'Saving AGENTS.md made 3 sessions stale in profile work (≈ $0.84 to refresh now).');
    assert.match(savedSourceMessage({ uri: 'file:///a/SOUL.md', profile: 'p', newlyStale: 1, staleRefreshCostUsd: 0.5 }), /made 1 session stale/);
    assert.equal(baseName('file:///c%3A/dir/My%20File.md'), 'My File.md');
    assert.equal(baseName('/plain/path/SOUL.md'), 'SOUL.md');
  });
});

describe('client: prompt document URIs', () => {
  it('round-trips profile, session and view', () => {
    for (const view of ['stored', 'before', 'after'] as const) {
      const ref = { profile: 'work', sessionId: '20261129_173501_a1b2c3', view };
      assert.deepEqual(parsePromptUri(promptUriParts(ref)), ref);
    }
    const odd = { profile: 'a b', sessionId: 'x/y?z', view: 'stored' as const };
    assert.deepEqual(parsePromptUri(promptUriParts(odd)), odd);
  });

  it('names the document with the language extension', () => {
    assert.equal(promptUriParts({ profile: 'default', sessionId: 'abc', view: 'stored' }).path, '/default/abc.hermes-prompt');
    assert.equal(parsePromptUri({ path: '/default/abc.md', query: '' }), undefined);
    assert.equal(parsePromptUri({ path: '/abc.hermes-prompt', query: '' }), undefined);
  });
});

describe('client: command arguments', () => {
  const s = session();
  it('reads a profile from tree nodes, strings, refs and URIs', () => {
    assert.equal(profileFromArg({ kind: 'profile', profile: profile({ name: 'work' }) }), 'work');
    assert.equal(profileFromArg('work'), 'work');
    assert.equal(profileFromArg({ profile: 'work', sessionIds: ['x'] }), 'work');
    assert.equal(profileFromArg({ scheme: 'hermes-prompt', path: '/work/abc.hermes-prompt', query: '' }), 'work');
    assert.equal(profileFromArg(undefined), undefined);
    assert.equal(profileFromArg(''), undefined);
  });

  it('reads a session from tree nodes, SessionRefs, SessionDtos and URIs', () => {
    const expected = { profile: 'default', sessionId: s.id };
    assert.deepEqual(sessionFromArg({ kind: 'session', profile: 'default', session: s }), expected);
    assert.deepEqual(sessionFromArg({ profile: 'default', sessionId: s.id }), expected);
    assert.deepEqual(sessionFromArg(s), expected);
    assert.deepEqual(sessionFromArg({ scheme: 'hermes-prompt', path: `/default/${s.id}.hermes-prompt`, query: 'before' }), expected);
    assert.equal(sessionFromArg({ scheme: 'file', path: '/x' }), undefined);
    assert.equal(sessionFromArg('default'), undefined);
  });
});

describe('client: sessions tree model', () => {
  it('labels and describes sessions', () => {
    assert.equal(sessionLabel(session({ title: null })), '20261129_173501_a1b2c3');
    assert.equal(sessionLabel(session({ title: '  ' })), '20261129_173501_a1b2c3');
    const now = (1_000_000 + 7200) * 1000;
    assert.equal(sessionDescription(session({ state: 'stale' }), now), 'claude-sonnet-4 · 2h ago · ≈ $0.12');
    assert.equal(sessionDescription(session(), now), 'claude-sonnet-4 · 2h ago');
    // Another Hermes build's prompt is said once, and is no stale cost.
    assert.equal(sessionDescription(session({ otherBuild: 'its 1 paragraph of guidance differs' }), now), 'claude-sonnet-4 · 2h ago · other build');
    assert.equal(
      sessionDescription(session({ state: 'stale', unadoptableRequest: true }), now),
      'claude-sonnet-4 · 2h ago · ≈ $0.12 · requested, but this Hermes build cannot adopt it',
    );
  });

  it('gives context values the menus match on', () => {
    assert.equal(sessionContextValue(session({ state: 'stale' })), 'session.stale');
    assert.equal(sessionContextValue(session({ state: 'ended' })), 'session.ended');
    assert.equal(sessionContextValue(session({ state: 'ended', tipSessionId: 'tip' })), 'session.ended.tip');
    assert.equal(profileContextValue(profile({ stale: 2 })), 'profile.stale');
    assert.equal(profileContextValue(profile()), 'profile');
    assert.equal(profileContextValue(profile({ unavailable: 'postgres backend' })), 'profile.unavailable');
  });

  it('says how a session took up its refresh request: in the description, the context value (the clear-prompt offer) and the estimate', () => {
    const now = (1_000_000 + 7200) * 1000;
    const adoption = (state: NonNullable<SessionDto['adoption']>['state'], over: Partial<NonNullable<SessionDto['adoption']>> = {}): NonNullable<SessionDto['adoption']> => ({
      state, epoch: 4, requestedAt: 1_000_000, by: 'lens', turn: null, decidedAt: null, stampKey: null, note: null, predicted: null, recorded: null, summary: '', ...over,
    });
    assert.equal(sessionDescription(session({ state: 'pending', adoption: adoption('pending') }), now), 'claude-sonnet-4 · 2h ago');
    assert.equal(sessionDescription(session({ adoption: adoption('adopted') }), now), 'claude-sonnet-4 · 2h ago · adopted');
    assert.equal(sessionDescription(session({ adoption: adoption('adopted-stamp-unread') }), now), 'claude-sonnet-4 · 2h ago · adopted (stamp unread)');
    assert.equal(sessionDescription(session({ state: 'stale', adoption: adoption('not-adopted') }), now), 'claude-sonnet-4 · 2h ago · ≈ $0.12 · not adopted');
    assert.equal(sessionContextValue(session({ state: 'stale', adoption: adoption('not-adopted') })), 'session.stale.notAdopted');
    assert.equal(sessionContextValue(session({ state: 'fresh', adoption: adoption('adopted') })), 'session.fresh');
    assert.equal(
      adoptionEstimate(adoption('adopted', { predicted: { costUsd: 0.12, prefixTokens: 41_000, cacheWarm: true }, recorded: { cacheWriteTokens: 40_870, cacheReadTokens: 0, inputTokens: -3 } })),
      'Predicted: ≈ $0.12 (≈ 41,000 tokens written to the cache). Hermes recorded for that turn: +40,870 cache-write, +0 cache-read, −3 input tokens.',
    );
    assert.equal(adoptionEstimate(adoption('pending')), undefined);
    assert.equal(notAdoptedMessage(1), 'Hermes: a session took a turn without adopting the refresh; this Hermes build may read another request. Its menu in the Sessions view offers clearing the stored prompt instead.');
  });

  it('refreshes the tip of an ended (compacted) session', () => {
    assert.equal(refreshTarget(session({ state: 'ended', tipSessionId: 'tip' }), 'old'), 'tip');
    assert.equal(refreshTarget(session({ state: 'stale' }), 'x'), 'x');
    assert.equal(refreshTarget(undefined, 'x'), 'x');
  });

  it('describes profiles with stale count and cost', () => {
    assert.equal(profileDescription(profile({ stale: 3, staleRefreshCostUsd: 0.84, sessions: [session()] })), 'active · 3 stale · ≈ $0.84');
    assert.equal(profileDescription(profile({ active: false, sessions: [session()] })), 'no stale sessions');
    assert.equal(profileDescription(profile({ unavailable: 'x' })), 'unavailable');
  });

  it('orders sessions by activity and folds the ended ones', () => {
    const p = profile({
      sessions: [
        session({ id: 'old', lastActivityAt: 10 }),
        session({ id: 'ended', state: 'ended', lastActivityAt: 50 }),
        session({ id: 'new', lastActivityAt: 100 }),
      ],
      problems: ['config.yaml: bad indent'],
    });
    const kids = profileChildren(p);
    assert.deepEqual(
      kids.map((k) => (k.kind === 'session' ? k.session.id : k.kind)),
      ['message', 'new', 'old', 'ended'],
    );
    const group = kids[3]!;
    assert.ok(group.kind === 'ended' && group.sessions.length === 1);
  });
});
