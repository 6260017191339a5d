// The client side of `hermes/sessionListChanged`: applying deltas (sessions whole, patches of the
// fields that changed in columns, ids that went) must rebuild exactly the list the server holds,
// whatever sessions came, changed and went in between; a delta that does not fit the list held
// (another revision, a patch for a session not held) must not be applied: the client then fetches
// the full list, once.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ProfileDto, SessionDto, SessionListChange, SessionListDelta, SessionListResult } from '../../../shared/protocol';
import { applySessionListChange, SessionListFollower } from '../../../shared/sessionListChanges';
import { columnsOf, type SessionPatch } from '../../support/sessionPatches';

function session(profile: string, id: string, version: number): SessionDto {
  return {
    profile,
    id,
    title: `session ${id} v${version}`,
    source: 'cli',
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    state: version % 3 === 0 ? 'fresh' : 'stale',
    reasons: version % 3 === 0 ? [] : [{ source: 'soul', path: '/h/SOUL.md', change: 'changed', detail: `edit ${version % 2}` }],
    otherBuild: version % 5 === 0 ? `its guidance differs (${version})` : null,
    tipSessionId: null,
    lastActivityAt: 1_795_000_000 + version,
    requestedEpoch: 0,
    stampedEpoch: 0,
    unadoptableRequest: false,
    adoption: null,
    systemPromptTokens: 1000 + version,
    toolTokens: 500,
    prefixTokens: 2000 + version,
    tokensExact: true,
    deltaTokens: version,
    ttlSeconds: 300,
    cacheWarm: version % 2 === 0,
    cacheExpiresAt: null,
    refreshCostUsd: version % 4 === 0 ? null : version / 100,
    refreshCostColdUsd: version % 4 === 0 ? null : version / 10,
    apiEquivalent: false,
  };
}

/** SessionDto's fields in their order. */
const FIELDS = Object.keys(session('default', 'a', 1));

/** Patches in the columns a delta carries, for a client holding the sessions `ids` (in that order, the removed ones out). */
const columns = (ids: string[], ...patches: SessionPatch[]) => columnsOf(patches, FIELDS, ids.map((id) => ({ id })));

function summary(name: string, stale: number) {
  const totals = { sessions: stale, stale, pending: 0, fresh: 0, staleRefreshCostUsd: stale / 10, unknownCost: 0 };
  return {
    name,
    home: `/h/${name}`,
    dbFile: `/h/${name}/state.db`,
    active: name === 'default',
    unavailable: null,
    storedPromptSessions: stale,
    requestedEpoch: 0,
    adoption: { adopted: 0, adoptedStampUnread: 0, waiting: 0, notAdopted: 0 },
    problems: [],
    totals,
    stale,
    pending: 0,
    staleRefreshCostUsd: totals.staleRefreshCostUsd,
    unknownCost: 0,
  };
}

function fullList(revision: number, profiles: Array<{ name: string; sessions: SessionDto[] }>): SessionListResult {
  return { revision, home: '/h', problem: null, profiles: profiles.map((p) => ({ ...summary(p.name, p.sessions.length), sessions: p.sessions })) };
}

/**
 * What the server sends for a session the client holds: nothing when no field's JSON differs, the
 * session whole when a field became null, else a patch of the id and the fields that differ.
 */
function updateOf(held: SessionDto, now: SessionDto): { whole: SessionDto } | { patch: SessionPatch } | undefined {
  const fields = (Object.keys(now) as Array<keyof SessionDto>).filter((f) => JSON.stringify(held[f]) !== JSON.stringify(now[f]));
  if (fields.length === 0) return undefined;
  if (fields.some((f) => now[f] === null)) return { whole: now };
  return { patch: { id: now.id, ...Object.fromEntries(fields.map((f) => [f, now[f]])) } };
}

/** A list compared as a user sees it: profiles in order, sessions by id (their order carries no meaning). */
function normalized(list: SessionListResult | undefined) {
  return list && { ...list, profiles: list.profiles.map((p: ProfileDto) => ({ ...p, sessions: [...p.sessions].sort((a, b) => a.id.localeCompare(b.id)) })) };
}

describe('session list changes (shared/sessionListChanges.ts)', () => {
  const base = fullList(4, [
    { name: 'default', sessions: [session('default', 'a', 1), session('default', 'b', 1), session('default', 'c', 1)] },
    { name: 'work', sessions: [session('work', 'w', 1)] },
  ]);

  function delta(over: Partial<SessionListDelta> = {}): SessionListDelta {
    return {
      revision: 5,
      base: 4,
      home: '/h',
      problem: null,
      profiles: [
        { ...summary('default', 3), changed: [session('default', 'd', 1)], patched: columns(['b', 'c'], { id: 'b', title: 'session b v2', deltaTokens: 9 }), removed: ['a'] },
        { ...summary('work', 1), changed: [], patched: [], removed: [] },
      ],
      ...over,
    };
  }

  it('applies a delta: patches merged into the sessions held, whole ones added, removed ones gone, summaries taken', () => {
    const next = applySessionListChange(base, delta())!;
    assert.equal(next.revision, 5);
    const def = next.profiles[0]!;
    assert.deepEqual(def.sessions.map((s) => `${s.id}:${s.title}`).sort(), ['b:session b v2', 'c:session c v1', 'd:session d v1']);
    const held = base.profiles[0]!.sessions[1]!;
    assert.deepEqual(def.sessions.find((s) => s.id === 'b'), { ...held, title: 'session b v2', deltaTokens: 9 }, 'b patched: the fields sent, the rest as held');
    assert.deepEqual(def.sessions.find((s) => s.id === 'd'), session('default', 'd', 1));
    assert.equal(def.stale, 3);
    assert.equal(def.sessions.find((s) => s.id === 'c'), base.profiles[0]!.sessions[2], 'an unchanged session is the same object');
    assert.equal(next.profiles[1]!.sessions, base.profiles[1]!.sessions, 'a profile without changes keeps its session array');
    assert.deepEqual(base.profiles[0]!.sessions.map((s) => s.id), ['a', 'b', 'c'], 'the list held is not modified');
  });

  it('applies columns: each session of a group gets its values, in a new object; sessions not patched stay the same objects', () => {
    const [def, work] = delta().profiles;
    const patched = columns(
      ['a', 'b', 'c'],
      { id: 'a', deltaTokens: 11, refreshCostUsd: 0.11, refreshCostColdUsd: 1.1 },
      { id: 'c', deltaTokens: 33, refreshCostUsd: 0.33, refreshCostColdUsd: 3.3 },
      { id: 'b', deltaTokens: 22 },
    );
    assert.deepEqual(patched.map((g) => [g.fields, g.at]), [[['deltaTokens', 'refreshCostUsd', 'refreshCostColdUsd'], [0, 1, 2, 1]], [['deltaTokens'], [1, 1]]]);
    const next = applySessionListChange(base, delta({ profiles: [{ ...def!, changed: [], patched, removed: [] }, work!] }))!;
    const [a, b, c] = base.profiles[0]!.sessions;
    const byId = new Map(next.profiles[0]!.sessions.map((s) => [s.id, s]));
    assert.deepEqual(byId.get('a'), { ...a!, deltaTokens: 11, refreshCostUsd: 0.11, refreshCostColdUsd: 1.1 });
    assert.deepEqual(byId.get('b'), { ...b!, deltaTokens: 22 });
    assert.deepEqual(byId.get('c'), { ...c!, deltaTokens: 33, refreshCostUsd: 0.33, refreshCostColdUsd: 3.3 });
    for (const held of [a, b, c]) assert.notEqual(byId.get(held!.id), held, `${held!.id}: a new object`);
    assert.equal(base.profiles[0]!.sessions[0]!.deltaTokens, 1, 'the session held is not modified');
    assert.equal(next.profiles[1]!.sessions[0], base.profiles[1]!.sessions[0]);
  });

  it('takes a full list as it is, whatever the list held', () => {
    const full = fullList(1, [{ name: 'other', sessions: [] }]);
    assert.equal(applySessionListChange(base, full), full);
    assert.equal(applySessionListChange(undefined, full), full);
  });

  it('refuses a delta for another revision, another set of profiles, or with no list held', () => {
    assert.equal(applySessionListChange(base, delta({ base: 3 })), undefined);
    assert.equal(applySessionListChange(undefined, delta()), undefined);
    assert.equal(applySessionListChange(base, delta({ profiles: delta().profiles.slice(0, 1) })), undefined);
    assert.equal(applySessionListChange(base, delta({ profiles: [...delta().profiles].reverse() })), undefined);
  });

  it('takes a whole session for one held in its place: how a field that became null arrives', () => {
    const [def, work] = delta().profiles;
    const unknownCost = { ...session('default', 'c', 1), refreshCostUsd: null };
    const next = applySessionListChange(base, delta({ profiles: [{ ...def!, changed: [unknownCost] }, work!] }))!;
    assert.deepEqual(next.profiles[0]!.sessions.filter((s) => s.id === 'c'), [unknownCost]);
  });

  it('refuses a delta with a patch for a position the list held does not have', () => {
    const [def, work] = delta().profiles;
    const pastTheEnd = delta({ profiles: [def!, { ...work!, patched: [{ fields: ['title'], at: [1, 1], values: [['x']] }] }] });
    assert.equal(applySessionListChange(base, pastTheEnd), undefined, 'work holds one session: there is no position 1');
    const runPastTheEnd = delta({ profiles: [def!, { ...work!, patched: [{ fields: ['title'], at: [0, 2], values: [['x', 'y']] }] }] });
    assert.equal(applySessionListChange(base, runPastTheEnd), undefined);
    const removedThenPatched = delta({ profiles: [{ ...def!, patched: [{ fields: ['title'], at: [2, 1], values: [['x']] }] }, work!] });
    assert.equal(applySessionListChange(base, removedThenPatched), undefined, 'a is removed by the same delta: b and c are at 0 and 1');
    const shortColumn = delta({ profiles: [def!, { ...work!, patched: [{ fields: ['title', 'deltaTokens'], at: [0, 1], values: [['x'], []] }] }] });
    assert.equal(applySessionListChange(base, shortColumn), undefined, 'a value per session and field');
  });

  it('property: applying every delta in turn gives the final full list', () => {
    // Each step: per profile, sessions of a small id pool added, changed or removed, and the
    // summary with it. The delta and the next full list are made from the same step.
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const profileNames = ['default', 'work'];
    const step = fc.array(fc.record({ upsert: fc.subarray(ids), remove: fc.subarray(ids) }), { minLength: 2, maxLength: 2 });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const state = profileNames.map(() => new Map<string, SessionDto>());
        let version = 0;
        const snapshot = (revision: number) => fullList(revision, profileNames.map((name, i) => ({ name, sessions: [...state[i]!.values()] })));
        let held: SessionListResult | undefined = snapshot(1);
        for (const [n, perProfile] of steps.entries()) {
          const profiles = perProfile.map((ops, i) => {
            const sessions = state[i]!;
            const removed = ops.remove.filter((id) => sessions.has(id) && !ops.upsert.includes(id));
            // Patches name sessions by their place in the client's list, the removed ones out.
            const clientList = held!.profiles[i]!.sessions.filter((s) => !removed.includes(s.id));
            for (const id of removed) sessions.delete(id);
            const changed: SessionDto[] = [];
            const patched: SessionPatch[] = [];
            for (const id of ops.upsert) {
              const now = session(profileNames[i]!, id, ++version);
              const held = sessions.get(id);
              const update = held ? updateOf(held, now) : { whole: now };
              if (update && 'whole' in update) changed.push(update.whole);
              else if (update) patched.push(update.patch);
              sessions.set(id, now);
            }
            return { ...summary(profileNames[i]!, sessions.size), changed, patched: columnsOf(patched, FIELDS, clientList), removed };
          });
          const change: SessionListChange = { revision: n + 2, base: n + 1, home: '/h', problem: null, profiles };
          held = applySessionListChange(held, change);
          assert.ok(held, `delta ${n + 2} applies`);
        }
        assert.deepEqual(normalized(held), normalized(snapshot(steps.length + 1)));
      }),
      { numRuns: 300 },
    );
  });

  it('follower: a delta that misses fetches the full list once, however many miss before it comes', async () => {
    let fetches = 0;
    let deliver: () => void = () => undefined;
    const follower: SessionListFollower = new SessionListFollower(() => {
      fetches += 1;
      return new Promise<void>((resolve) => {
        deliver = () => {
          follower.replace(fullList(9, [{ name: 'default', sessions: [] }]));
          resolve();
        };
      });
    });
    assert.equal(follower.receive(base), base);
    assert.ok(follower.receive(delta()), 'the delta on the list held applies');
    assert.equal(follower.receive(delta({ revision: 7, base: 6 })), undefined, 'revision 6 never came');
    assert.equal(follower.receive(delta({ revision: 8, base: 7 })), undefined);
    assert.equal(fetches, 1, 'one request for the full list');
    deliver();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(follower.list?.revision, 9);
    assert.equal(follower.receive(delta({ revision: 10, base: 8 })), undefined, 'a later gap fetches again');
    assert.equal(fetches, 2);
  });

  it('follower: a patch for a session not held fetches the full list once, and the list held stays as it was', async () => {
    let fetches = 0;
    let fetched: Promise<void> | undefined;
    const full = fullList(6, [{ name: 'default', sessions: [session('default', 'z', 1)] }, { name: 'work', sessions: [] }]);
    const follower: SessionListFollower = new SessionListFollower(() => {
      fetches += 1;
      // The answer comes after the changes sent before it, as the server's does.
      return (fetched = Promise.resolve().then(() => follower.replace(full)));
    });
    follower.receive(base);
    const [def, work] = delta().profiles;
    const missing = delta({ profiles: [{ ...def!, patched: columns(['b', 'c'], { id: 'nobody', deltaTokens: 7 }) }, work!] });
    assert.equal(follower.receive(missing), undefined);
    assert.equal(follower.receive({ ...missing, revision: 6, base: 5 }), undefined, 'the next delta does not apply either');
    assert.equal(fetches, 1, 'one request for the full list');
    assert.equal(follower.list, base, 'the list held is not half-applied');
    await fetched;
    assert.equal(follower.list, full);
  });
});
