// The deltas the language server sends (server/workspace/sessionListRevisions.ts) on a real model of the
// demo home: after a save, the sessions it touched go out as patches of the fields that changed,
// in columns per set of fields (whole when a field became null); a new session goes out whole, an
// ended one as its id; applied as clients apply them (shared/sessionListChanges.ts), each delta
// gives the full list the server answers.
import Database from 'better-sqlite3';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { appendMessages, startSession } from '../../../server/demo/hermes';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { SessionListRevisions } from '../../../server/workspace/sessionListRevisions';
import type { ProfileDeltaDto, SessionDto, SessionListDelta, SessionListResult } from '../../../shared/protocol';
import { applySessionListChange, isDelta } from '../../../shared/sessionListChanges';
import { patchesOf, positionsOf } from '../../support/sessionPatches';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_795_000_000;

/** Sessions by id per profile (their order carries no meaning), as JSON-RPC would carry them. */
function byId(list: SessionListResult) {
  return JSON.parse(JSON.stringify(list.profiles.map((p) => ({ ...p, sessions: Object.fromEntries(p.sessions.map((s) => [s.id, s])) }))));
}

describe('workspace: session list deltas (SessionListRevisions)', function () {
  this.timeout(60000);
  let dir: string;
  let demo: DemoManifest;
  let model: HermesModel;
  let revisions: SessionListRevisions;
  let held: SessionListResult;
  beforeEach(() => {
    dir = tempDir('hermes-revisions-');
    demo = generateDemoHome(dir, { now: NOW, writeManifest: false });
    model = new HermesModel(() => NOW);
    model.configure({ home: demo.root, profiles: [] });
    revisions = new SessionListRevisions(model);
    const first = revisions.nextChange();
    assert.ok(!isDelta(first), 'the first change is the full list');
    held = first;
  });
  afterEach(() => {
    model.dispose();
    removeDir(dir);
  });

  /** The list the last delta applied to. */
  let base: SessionListResult;

  /** The next delta, applied to the list held; it must give the server's full list. */
  function nextDelta(): SessionListDelta {
    base = held;
    const change = revisions.nextChange();
    assert.ok(isDelta(change), 'a delta');
    const applied = applySessionListChange(held, change);
    assert.ok(applied, 'the delta applies to the list held');
    assert.deepEqual(byId(applied), byId(revisions.fullList()));
    held = applied;
    return change;
  }

  const profileOf = (delta: SessionListDelta, name: string): ProfileDeltaDto => delta.profiles.find((p) => p.name === name)!;
  /** The patches of a profile in the last delta, each naming its session (from the list it applied to). */
  const patchesIn = (delta: ProfileDeltaDto) => patchesOf(delta, base.profiles.find((p) => p.name === delta.name)!.sessions);
  const sessionOf = (list: SessionListResult, profile: string, id: string): SessionDto => list.profiles.find((p) => p.name === profile)!.sessions.find((s) => s.id === id)!;

  it('sends a save of SOUL.md as patches of the fields that changed, of the sessions it touched only', () => {
    const before = held;
    const work = demo.profiles.find((p) => p.name === 'work')!;
    const soul = path.join(work.dir, 'SOUL.md');
    fs.appendFileSync(soul, '\nAlways answer in French.\n');
    model.sourcesChanged([soul]);
    const delta = nextDelta();

    const patched = patchesIn(profileOf(delta, 'work'));
    assert.ok(patched.length > 0, 'the save made sessions stale');
    assert.deepEqual(profileOf(delta, 'work').changed, []);
    assert.deepEqual(profileOf(delta, 'default').patched, [], "default's sessions do not read work's SOUL.md");
    const groups = profileOf(delta, 'work').patched;
    assert.equal(new Set(groups.map((g) => g.fields.join())).size, groups.length, 'one group per set of fields');
    for (const g of groups) assert.deepEqual(g.values.map((column) => column.length), g.fields.map(() => positionsOf(g.at).length), `${g.fields.join()}: a value per session and field`);
    for (const patch of patched) {
      const was = sessionOf(before, 'work', patch.id);
      const now = sessionOf(held, 'work', patch.id);
      const differing = (Object.keys(now) as Array<keyof SessionDto>).filter((f) => JSON.stringify(was[f]) !== JSON.stringify(now[f]));
      assert.deepEqual(Object.keys(patch).sort(), ['id', ...differing].sort(), `${patch.id} carries the fields that changed, and only those`);
      assert.ok(!('title' in patch) && !('model' in patch), 'what a save cannot change is not sent');
    }
    assert.ok(patched.some((p) => p.state === 'stale' && p.reasons!.some((r) => r.path === soul)), 'a session made stale says why');

    // Another save: the sessions stay stale, only what refreshing them costs changes.
    fs.appendFileSync(soul, '\nKeep answers short.\n');
    model.sourcesChanged([soul]);
    const again = profileOf(nextDelta(), 'work');
    assert.ok(again.patched.length > 0);
    for (const group of again.patched) assert.ok(!group.fields.includes('state') && !group.fields.includes('reasons'), group.fields.join(', '));
    const all = patchesIn(again).map((p) => p.id);
    assert.equal(new Set(all).size, all.length, 'a session in one group at most');
    const runs = again.patched.reduce((n, g) => n + g.at.length / 2, 0);
    assert.ok(runs < all.length / 2, `${all.length} sessions in a row need few runs (${runs})`);
  });

  it('sends a session whose refresh cost became unknown whole: a patch holds no null', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const id = startSession(def.dbFile, def.dir, { source: 'cli', model: 'my-local-llama', provider: 'custom', startedAt: NOW - 60, lastActivityAt: NOW - 10, messages: 2 });
    model.databaseChanged([def.dir]);
    nextDelta();
    assert.equal(sessionOf(held, 'default', id).refreshCostUsd, 0, 'fresh: refreshing it changes nothing, so costs nothing');

    const soul = path.join(def.dir, 'SOUL.md');
    fs.appendFileSync(soul, '\nAlways answer in French.\n');
    model.sourcesChanged([soul]);
    const delta = profileOf(nextDelta(), 'default');
    assert.equal(sessionOf(held, 'default', id).refreshCostUsd, null, 'stale, for a model without prices');
    assert.deepEqual(delta.changed.map((s) => s.id), [id]);
    assert.ok(delta.patched.length > 0, 'the other sessions the save touched');
    for (const patch of patchesIn(delta)) assert.ok(Object.values(patch).every((v) => v !== null), patch.id);
  });

  it('a Hermes write that moves the least recent session to the top of the list patches that session only', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const order = () => model.profiles().find((a) => a.report.name === 'default')!.report.sessions.map((s) => s.id);
    const before = order();
    const last = before[before.length - 1]!;
    appendMessages(def.dbFile, last, 2, { now: NOW, seed: 3 });
    model.databaseChanged([def.dir]);
    const delta = profileOf(nextDelta(), 'default');
    assert.equal(order()[0], last, 'the list order changed');
    assert.deepEqual(patchesIn(delta).map((p) => p.id), [last]);
    assert.deepEqual([delta.changed, delta.removed], [[], []]);

    // Another write, to the session now second to last in the client's list: found again where the client holds it.
    const other = before[before.length - 2]!;
    appendMessages(def.dbFile, other, 1, { now: NOW + 1, seed: 4 });
    model.databaseChanged([def.dir]);
    assert.deepEqual(patchesIn(profileOf(nextDelta(), 'default')).map((p) => p.id), [other]);

    // The client keeps its order (the session stays last in its list): a save now patches every
    // session where the client holds it, which nextDelta checks against the server's full list.
    const soul = path.join(def.dir, 'SOUL.md');
    fs.appendFileSync(soul, '\nKeep answers short.\n');
    model.sourcesChanged([soul]);
    const saved = profileOf(nextDelta(), 'default');
    assert.ok(patchesIn(saved).some((p) => p.id === last));
    assert.equal(held.profiles.find((p) => p.name === 'default')!.sessions.at(-1)!.id, last, 'still where the client had it');
  });

  it('names patched sessions by their place once the sessions that left are out', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const sessions = held.profiles.find((p) => p.name === 'default')!.sessions;
    const leaving = sessions[0]!.id;
    const db = new Database(def.dbFile);
    try {
      db.prepare("UPDATE sessions SET ended_at = ?, end_reason = 'user_exit' WHERE id = ?").run(NOW - 5, leaving);
    } finally {
      db.close();
    }
    const soul = path.join(def.dir, 'SOUL.md');
    fs.appendFileSync(soul, '\nKeep answers short.\n');
    model.sourcesChanged([soul]);
    const delta = profileOf(nextDelta(), 'default');
    assert.deepEqual(delta.removed, [leaving]);
    assert.ok(delta.patched.length > 0, 'the save patched the others');
    assert.ok(delta.patched.every((g) => positionsOf(g.at).every((p) => p < sessions.length - 1)), 'positions count without the session that left');
  });

  it('sends a new session whole, an ended one as its id, and nothing for sessions unchanged', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const id = startSession(def.dbFile, def.dir, { source: 'cli', model: 'gpt-5.1', provider: 'openai', startedAt: NOW - 60, lastActivityAt: NOW - 10, messages: 2 });
    model.databaseChanged([def.dir]);
    const added = profileOf(nextDelta(), 'default');
    assert.deepEqual(added.changed.map((s) => s.id), [id]);
    assert.deepEqual(sessionOf(held, 'default', id), added.changed[0], 'whole, as in the full list');
    assert.deepEqual([added.patched, added.removed], [[], []]);

    const db = new Database(def.dbFile);
    try {
      db.prepare("UPDATE sessions SET ended_at = ?, end_reason = 'user_exit' WHERE id = ?").run(NOW - 5, id);
    } finally {
      db.close();
    }
    // Ended without a message: the full scan that follows a burst of writes finds it.
    model.databaseChanged([def.dir]);
    model.verifyDatabases([def.dir]);
    const ended = profileOf(nextDelta(), 'default');
    assert.deepEqual([ended.changed, ended.patched, ended.removed], [[], [], [id]]);

    model.databaseChanged([def.dir]);
    for (const p of nextDelta().profiles) assert.deepEqual([p.changed, p.patched, p.removed], [[], [], []], `${p.name}: nothing changed`);
  });

  it('answers the full list in the order the next delta counts in: a client that fetched it patches the right sessions', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    // A new session goes to the end of the client's list, though the report lists it first.
    const id = startSession(def.dbFile, def.dir, { source: 'cli', model: 'gpt-5.1', provider: 'openai', startedAt: NOW - 30, lastActivityAt: NOW - 20, messages: 2 });
    model.databaseChanged([def.dir]);
    nextDelta();
    const fetched = revisions.fullList();
    const ids = (list: SessionListResult) => list.profiles.map((p) => p.sessions.map((s) => s.id));
    assert.deepEqual(ids(fetched), ids(held), 'the order the client holds');
    assert.equal(fetched.profiles.find((p) => p.name === 'default')!.sessions.at(-1)!.id, id);

    // The next delta names sessions by their place: applied to the fetched list, it changes the same ones.
    const written = held.profiles.find((p) => p.name === 'default')!.sessions[3]!.id;
    appendMessages(def.dbFile, written, 2, { now: NOW, seed: 5 });
    model.databaseChanged([def.dir]);
    const change = revisions.nextChange();
    assert.deepEqual(patchesOf(profileOf(change as SessionListDelta, 'default'), fetched.profiles.find((p) => p.name === 'default')!.sessions).map((p) => p.id), [written]);
    assert.deepEqual(byId(applySessionListChange(fetched, change)!), byId(revisions.fullList()));
  });
});
