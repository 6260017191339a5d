import * as assert from 'node:assert/strict';
import { StaleBaseline } from '../../../server/lsp/staleBaseline';

const sets = (entries: Record<string, string[]>) => new Map(Object.entries(entries).map(([p, ids]) => [p, new Set(ids)]));

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
    baseline.settle(sets({ work: [] })); // refreshed, then adopted
    assert.deepEqual(baseline.takeNew(sets({ work: ['x'] })), new Map([['work', ['x']]]));
  });
});
