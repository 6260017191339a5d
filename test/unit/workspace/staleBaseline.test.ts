import * as assert from 'node:assert/strict';
import { StaleBaseline } from '../../../server/workspace/staleBaseline';

/** Each profile's sessions: the ids given stale, `fresh` ones fresh. */
const sets = (entries: Record<string, string[]>, fresh: Record<string, string[]> = {}) =>
  new Map(Object.entries(entries).map(([p, ids]) => [p, [...ids.map((id) => ({ id, state: 'stale' })), ...(fresh[p] ?? []).map((id) => ({ id, state: 'fresh' }))]]));

describe('StaleBaseline: what a save made stale', () => {
  it('counts sessions that became stale since the last save, even after other re-evaluations', () => {
    const baseline = new StaleBaseline();
    baseline.reset(sets({ default: ['a'] }));
    baseline.settle(sets({ default: ['a', 'b', 'c'] })); // the watcher saw the write first
    assert.deepEqual(baseline.takeNew(sets({ default: ['a', 'b', 'c'] })), new Map([['default', ['b', 'c']]]));
    assert.deepEqual(baseline.takeNew(sets({ default: ['a', 'b', 'c'] })), new Map());
  });

  it('counts a session again when it was refreshed and went stale once more', () => {
    const baseline = new StaleBaseline();
    baseline.reset(sets({ work: ['x'] }));
    baseline.settle(sets({ work: [] }, { work: ['x'] })); // refreshed, then adopted
    assert.deepEqual(baseline.takeNew(sets({ work: ['x'] })), new Map([['work', ['x']]]));
  });

  it('forgets a stale session that left the list, and counts it again should it come back stale', () => {
    const baseline = new StaleBaseline();
    baseline.reset(sets({ work: ['x', 'y'] }));
    baseline.settle(sets({ work: ['y'] })); // x ended: no longer listed
    assert.deepEqual(baseline.takeNew(sets({ work: ['y'] })), new Map());
    assert.deepEqual(baseline.takeNew(sets({ work: ['x', 'y'] })), new Map([['work', ['x']]]));
  });

  it('counts the sessions of a profile it has not seen before', () => {
    const baseline = new StaleBaseline();
    baseline.reset(sets({ default: ['a'] }));
    assert.deepEqual(baseline.takeNew(sets({ default: ['a'], work: ['w'] }, { work: ['v'] })), new Map([['work', ['w']]]));
  });
});
