import * as assert from 'node:assert/strict';
import type { SessionRecord } from '../../../server/hermes/model';
import { compactionTip } from '../../../server/hermes/refresh/compactionTip';

function session(id: string, extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id, source: 'cli', model: 'm', modelConfig: {}, promptKey: undefined, parentSessionId: undefined,
    startedAt: 0, endedAt: undefined, endReason: undefined, messageCount: 0, cwd: undefined,
    billingProvider: undefined, billingMode: undefined, title: undefined, lastActivityAt: 0, toolNames: [],
    inputTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined,
    ...extra,
  };
}

describe('compactionTip (docs/HERMES-INSTALLS.md §4)', () => {
  it('follows compression children to the open session, skipping branches, delegations, resets and tool children', () => {
    const root = session('a', { endedAt: 10, endReason: 'compression' });
    const mid = session('b', { parentSessionId: 'a', endedAt: 20, endReason: 'compression', startedAt: 10 });
    const branch = session('b2', { parentSessionId: 'a', modelConfig: { _branched_from: 'a' }, lastActivityAt: 99 });
    const tool = session('b3', { parentSessionId: 'a', source: 'tool', lastActivityAt: 99 });
    const tip = session('c', { parentSessionId: 'b', startedAt: 20, lastActivityAt: 30 });
    const reset = session('c2', { parentSessionId: 'b', modelConfig: { _reset_from: 'b' }, lastActivityAt: 99 });
    const delegate = session('c3', { parentSessionId: 'b', modelConfig: { _delegate_from: 'b' }, lastActivityAt: 99 });
    assert.equal(compactionTip(root, [root, mid, branch, tool, tip, reset, delegate]).id, 'c');
  });

  it('prefers an open child, then recent activity, then started_at, then id', () => {
    const root = session('r', { endedAt: 1, endReason: 'compression' });
    const endedRecent = session('x', { parentSessionId: 'r', endedAt: 5, lastActivityAt: 100 });
    const openOld = session('y', { parentSessionId: 'r', lastActivityAt: 50 });
    assert.equal(compactionTip(root, [root, endedRecent, openOld]).id, 'y');
    const openNew = session('z', { parentSessionId: 'r', lastActivityAt: 60 });
    assert.equal(compactionTip(root, [root, endedRecent, openOld, openNew]).id, 'z');
    const tieA = session('t1', { parentSessionId: 'r', lastActivityAt: 60, startedAt: 7 });
    assert.equal(compactionTip(root, [root, openNew, tieA]).id, 't1');
    const tieB = session('t2', { parentSessionId: 'r', lastActivityAt: 60, startedAt: 7 });
    assert.equal(compactionTip(root, [root, tieA, tieB]).id, 't2');
  });

  it('stays on a session not ended by compression, and survives cycles', () => {
    const plain = session('p', { endedAt: 3, endReason: 'user_exit' });
    const child = session('q', { parentSessionId: 'p' });
    assert.equal(compactionTip(plain, [plain, child]).id, 'p');
    const a = session('a', { parentSessionId: 'b', endedAt: 1, endReason: 'compression' });
    const b = session('b', { parentSessionId: 'a', endedAt: 2, endReason: 'compression' });
    assert.ok(['a', 'b'].includes(compactionTip(a, [a, b]).id));
  });

  it('stops after 1,000 steps on a very long chain', () => {
    const chain = Array.from({ length: 1500 }, (_, i) =>
      session(`s${i}`, { parentSessionId: i ? `s${i - 1}` : undefined, endedAt: i, endReason: 'compression' }));
    assert.equal(compactionTip(chain[0]!, chain).id, 's1000');
  });
});
