// The refresh confirmation's words (client/refreshConfirmation.ts): the count, the warm/cold split,
// what the refresh does and which Hermes build reads it; and, where that build cannot adopt a
// request, the offer of the older way with its two drawbacks.
import * as assert from 'node:assert/strict';
import { CLEAR_BUTTON, olderWayOffer, refreshConfirmation, REFRESH_BUTTON } from '../../../client/refreshConfirmation';
import type { HermesBuildDto, RefreshPreviewDto } from '../../../shared/protocol';

const PROTOCOL: HermesBuildDto['protocol'] = {
  found: 'cli-text',
  where: '/home/u/.hermes/hermes-agent/hermes_cli/main.py',
  requestKey: 'prompt_refresh_epoch',
  sessionKeyPrefix: 'prompt_refresh_epoch:',
  stampKey: 'prompt_refresh_epoch',
  keysFrom: 'default',
  requestKeyFrom: 'default',
  stampKeyFrom: 'default',
  learned: null,
  notes: [],
  summary: 'Refresh protocol: its CLI offers `hermes sessions refresh-prompts`.',
};
const BUILD: HermesBuildDto = { version: '0.23.0', path: '/home/u/.hermes/hermes-agent', refresh: true, problem: null, summary: 'Hermes 0.23.0 (/home/u/.hermes/hermes-agent) adopts refresh requests.', protocol: PROTOCOL };

function preview(over: Partial<RefreshPreviewDto> = {}): RefreshPreviewDto {
  return {
    profile: 'default',
    scope: 'profile',
    sessions: 3,
    warm: 2,
    cold: 1,
    warmCostUsd: 0.31,
    coldCostUsd: 0.02,
    unknownCost: 0,
    apiEquivalent: false,
    alsoRebuiltFresh: 4,
    effect: "Records Hermes' profile-wide refresh request. Each session rebuilds its system prompt at the start of its next turn; history and session ids are kept. The 4 fresh sessions rebuild the same prompt and keep their cache: no cost, not counted above.",
    hermes: BUILD,
    requestBlocked: null,
    ...over,
  };
}

describe('client: the refresh confirmation', () => {
  it('counts and prices the stale sessions, says what the request does and which build reads it', () => {
    const c = refreshConfirmation({ profile: 'default', onlyStale: true, strategy: 'epoch' }, preview(), { allStale: true });
    assert.equal(c.title, 'Refresh 3 stale sessions in profile default?');
    assert.equal(c.button, REFRESH_BUTTON);
    assert.deepEqual(c.detail.split('\n'), [
      '2 sessions with a warm cache: ≈ $0.31 extra now (the next turn re-writes the cached conversation).',
      '1 session with an expired cache: ≈ $0.02 (the next turn misses the cache anyway).',
      '',
      preview().effect,
      BUILD.summary,
      'Turn off hermesLens.confirmRefresh to skip this question.',
    ]);
  });

  it('names one session by its label, and clearing by its button', () => {
    const c = refreshConfirmation({ profile: 'work', sessionIds: ['abc'], strategy: 'clear-prompt' }, preview({ scope: 'session', sessions: 1 }), { sessionLabel: 'Ticket triage', allStale: true });
    assert.equal(c.title, 'Clear the stored prompt of session "Ticket triage" in profile work?');
    assert.equal(c.button, CLEAR_BUTTON);
  });

  it('offers the older way where the build cannot adopt a request: why, its cost, and its drawbacks', () => {
    const blocked = 'Hermes 0.22.5 (/opt/hermes) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after v0.22.5, so a request would never be read.';
    const effect = 'Clears the stored prompt of each session, the older way for Hermes builds without refresh-prompts: each rebuilds it on its next turn, but it also fires the on_session_start hooks, and an agent a running gateway holds in memory does not see it until the gateway restarts.';
    const c = olderWayOffer({ profile: 'default', onlyStale: true, strategy: 'epoch' }, blocked, preview({ scope: 'session', alsoRebuiltFresh: 0, effect }), { allStale: true });
    assert.equal(c.title, 'Clear the stored prompt of 3 stale sessions in profile default instead?');
    assert.equal(c.button, CLEAR_BUTTON);
    const lines = c.detail.split('\n');
    assert.equal(lines[0], blocked);
    assert.ok(lines.includes('2 sessions with a warm cache: ≈ $0.31 extra now (the next turn re-writes the cached conversation).'));
    assert.equal(lines.at(-1), effect);
  });
});
