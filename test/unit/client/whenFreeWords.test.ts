// The words of refresh when free in the editor: the tree's countdown and the confirmation's line.
import * as assert from 'node:assert/strict';
import { REFRESH_WHEN_FREE, refreshCountdown, whenFreeDetail } from '../../../client/whenFreeWords';

const NOW_MS = 1_800_000_000_000;
const at = (seconds: number) => NOW_MS / 1000 + seconds;

describe('client: refresh when free, in words', () => {
  it('counts down in seconds under a minute, in minutes (rounded up) under an hour, then hours', () => {
    assert.equal(refreshCountdown(at(45), NOW_MS), 'refresh in 45s');
    assert.equal(refreshCountdown(at(125), NOW_MS), 'refresh in 3m');
    assert.equal(refreshCountdown(at(3 * 3600 + 5 * 60), NOW_MS), 'refresh in 3h 5m');
    assert.equal(refreshCountdown(at(0), NOW_MS), 'refreshing now');
  });

  it('says what the third button does and costs, and until when it waits', () => {
    const plan = {
      profile: 'default',
      scheduled: [{ profile: 'default', sessionId: 'a', at: at(100) }, { profile: 'default', sessionId: 'b', at: at(52 * 60) }],
      writtenNow: [],
      costUsd: 0.034,
      unknownCost: 1,
      dryRun: true,
      message: '',
    };
    assert.equal(
      whenFreeDetail(plan, NOW_MS),
      `${REFRESH_WHEN_FREE}: each session's request waits until its prompt cache expires (the last in 52m), so it adds only the prompt change: ≈ $0.03 in all, + 1 of unknown cost.`,
    );
  });
});
