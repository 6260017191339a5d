import * as assert from 'node:assert/strict';
import { isRefreshPending, nextEpoch, parseEpoch, requestedEpoch, sessionEpochKey, stampedEpoch } from '../../../server/hermes/refresh/epochs';

describe('refresh epochs (docs/HERMES-INSTALLS.md §4)', () => {
  const meta = new Map([['prompt_refresh_epoch', '3'], [sessionEpochKey('s1'), '5'], ['db_file_generation', 'ab12']]);

  it('requires the larger of the profile-wide and the per-session epoch', () => {
    assert.equal(requestedEpoch(meta, 's1'), 5);
    assert.equal(requestedEpoch(meta, 's2'), 3);
  });

  it('reads stamps as integers, absent or garbage as 0', () => {
    assert.equal(stampedEpoch({ prompt_refresh_epoch: 4 }), 4);
    assert.equal(stampedEpoch({ prompt_refresh_epoch: '4' }), 4);
    assert.equal(stampedEpoch({}), 0);
    assert.equal(parseEpoch('2.5'), 0);
    assert.equal(parseEpoch('-1'), 0);
  });

  it('is pending until the stamp catches up', () => {
    assert.equal(isRefreshPending(meta, 's2', { prompt_refresh_epoch: 2 }), true);
    assert.equal(isRefreshPending(meta, 's2', { prompt_refresh_epoch: 3 }), false);
  });

  it('picks one more than every epoch recorded, in keys and stamps', () => {
    assert.equal(nextEpoch(meta, [{ prompt_refresh_epoch: 9 }, {}]), 10);
    assert.equal(nextEpoch(meta, []), 6);
    assert.equal(nextEpoch(new Map(), []), 1);
  });
});
