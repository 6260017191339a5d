// `hermes/sessionListChanged` over stdio carries only what changed: the full list once at the
// start (and after a settings change), then deltas. The list a client builds from them must be the
// one the server answers `hermes/sessionList` with at the same revision.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DemoManifest } from '../../server/demo/demoHome';
import { appendMessages } from '../../server/demo/hermes';
import { SessionListRequest, type SessionDto, type SessionListDelta, type SessionListResult } from '../../shared/protocol';
import { isDelta } from '../../shared/sessionListChanges';
import type { TestLspClient } from '../support/lspClient';
import { patchesOf, type SessionPatch } from '../support/sessionPatches';
import { demoServerPerTest } from './support/demoServer';

const SESSION_LIST = 'hermes/sessionListChanged';

/** Sessions by id per profile (their order in the list carries no meaning). */
function byId(list: SessionListResult): Record<string, unknown> {
  return Object.fromEntries(list.profiles.map((p) => [p.name, { ...p, sessions: Object.fromEntries(p.sessions.map((s) => [s.id, s])) }]));
}

/** The patches of a profile in a delta the client received, each naming its session. */
function patchesIn(client: TestLspClient, delta: SessionListDelta, profile: string): SessionPatch[] {
  const base = client.listBeforeDelta.get(delta.revision)!;
  return patchesOf(delta.profiles.find((p) => p.name === profile)!, base.profiles.find((p) => p.name === profile)!.sessions);
}

/** `profile/id` of each session the deltas sent whole (`changed`) or as a patch (`patched`). */
function sentIds(client: TestLspClient, deltas: SessionListDelta[], kind: 'changed' | 'patched'): string[] {
  return deltas.flatMap((d) => d.profiles.flatMap((p) => (kind === 'changed' ? p.changed : patchesIn(client, d, p.name)).map((s) => `${p.name}/${s.id}`)));
}

function sessionIn(list: SessionListResult, profile: string, id: string): SessionDto {
  return list.profiles.find((p) => p.name === profile)!.sessions.find((s) => s.id === id)!;
}

/** The fields of a session whose JSON differs between two lists. */
function differingFields(before: SessionListResult, after: SessionListResult, profile: string, id: string): string[] {
  const was = sessionIn(before, profile, id);
  const now = sessionIn(after, profile, id);
  return (Object.keys(now) as Array<keyof SessionDto>).filter((f) => JSON.stringify(was[f]) !== JSON.stringify(now[f]));
}

describe('language server: the session list notification carries only what changed', function () {
  this.timeout(60_000);
  const fixture = demoServerPerTest('hl-delta-');
  let demo: DemoManifest;
  let client: TestLspClient;
  beforeEach(() => ({ demo, client } = fixture));

  /** The full list the server answers now, and the list the client built at that revision. */
  async function freshAndApplied(): Promise<{ fresh: SessionListResult; applied: SessionListResult }> {
    const fresh = await client.connection.sendRequest(SessionListRequest, {});
    const applied = await client.waitFor<SessionListResult>(SESSION_LIST, (l) => l.revision === fresh.revision);
    return { fresh, applied };
  }

  it('sends the full list first, then for a Hermes write to one session a delta holding the fields of that session that changed', async () => {
    await client.initialize({ isTrusted: true });
    const first = await client.waitFor<SessionListResult>(SESSION_LIST);
    assert.ok(!isDelta(client.sessionListChanges[0]!), 'the first change is the full list');
    const atStart = await freshAndApplied();
    assert.equal(atStart.fresh.revision, first.revision, 'nothing changed since');
    assert.deepEqual(byId(atStart.fresh), byId(first));

    const target = demo.labels['telegram-gpt']!;
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const now = Math.floor(Date.now() / 1000) + 0.25;
    const since = client.mark();
    const sentBefore = client.sessionListChanges.length;
    appendMessages(def.dbFile, target, 2, { now, seed: 7 });
    const written = (l: SessionListResult) => l.profiles.find((p) => p.name === 'default')!.sessions.some((s) => s.id === target && s.lastActivityAt === now);
    const updated = await client.waitFor<SessionListResult>(SESSION_LIST, written, { since });

    const sent = client.sessionListChanges.slice(sentBefore).filter((c) => c.revision <= updated.revision);
    assert.ok(sent.every(isDelta), 'only deltas after the start');
    const deltas = sent as SessionListDelta[];
    assert.deepEqual(sentIds(client, deltas, 'patched'), [`default/${target}`]);
    assert.deepEqual(sentIds(client, deltas, 'changed'), []);
    assert.deepEqual(deltas.flatMap((d) => d.profiles.flatMap((p) => p.removed)), []);
    // (Should the watcher report the write in two steps, each delta patches what changed since the last.)
    const patch = Object.assign({}, ...deltas.map((d) => patchesIn(client, d, 'default').find((s) => s.id === target))) as SessionPatch;
    assert.deepEqual(Object.keys(patch).sort(), ['id', ...differingFields(first, updated, 'default', target)].sort(), 'the fields that changed, and only those');
    assert.equal(patch.lastActivityAt, now);
    assert.equal(sessionIn(updated, 'default', target).cacheWarm, true, 'the write warmed its prompt cache');
    assert.ok(!('title' in patch) && !('model' in patch) && !('reasons' in patch), 'what the write did not change is not sent');

    const { fresh, applied } = await freshAndApplied();
    assert.deepEqual(byId(applied), byId(fresh));
  });

  it('sends a save of SOUL.md as a delta of the sessions it made stale, and the summaries with it', async () => {
    await client.initialize({ isTrusted: true });
    const first = await client.waitFor<SessionListResult>(SESSION_LIST);
    const work = demo.profiles.find((p) => p.name === 'work')!;
    const soul = path.join(work.dir, 'SOUL.md');
    const text = fs.readFileSync(soul, 'utf8') + '\nAlways answer in French.\n';
    const uri = await client.open(soul, text);
    fs.writeFileSync(soul, text);
    const since = client.mark();
    const sentBefore = client.sessionListChanges.length;
    await client.save(uri);
    const staleWork = (l: SessionListResult) => l.profiles.find((p) => p.name === 'work')!.stale;
    const after = await client.waitFor<SessionListResult>(SESSION_LIST, (l) => staleWork(l) > staleWork(first), { since });

    const deltas = client.sessionListChanges.slice(sentBefore).filter((c) => c.revision <= after.revision);
    assert.ok(deltas.every(isDelta), 'only deltas after the start');
    const ids = new Set([...sentIds(client, deltas as SessionListDelta[], 'patched'), ...sentIds(client, deltas as SessionListDelta[], 'changed')]);
    const newlyStale = after.profiles.find((p) => p.name === 'work')!.sessions.filter((s) => s.state === 'stale');
    assert.ok(newlyStale.length > 0);
    for (const s of newlyStale) assert.ok(ids.has(`work/${s.id}`), `${s.id} is in the delta`);
    assert.ok(![...ids].some((id) => id.startsWith('default/')), "profile default's sessions do not read work's SOUL.md");
    const patches = (deltas as SessionListDelta[]).flatMap((d) => patchesIn(client, d, 'work'));
    assert.ok(patches.length > 0, 'sessions the client holds go out as patches');
    assert.ok(patches.every((p) => !('title' in p) && !('model' in p)), 'what a save cannot change is not sent');
    // Whole sessions are those a patch cannot describe: a field became null (a patch holds none).
    for (const whole of (deltas as SessionListDelta[]).flatMap((d) => d.profiles.find((p) => p.name === 'work')!.changed)) {
      const was = sessionIn(first, 'work', whole.id);
      if (!was) continue; // a session new to the list
      assert.ok((Object.keys(whole) as Array<keyof SessionDto>).some((f) => whole[f] === null && was[f] !== null), `${whole.id} goes whole`);
    }

    const { fresh, applied } = await freshAndApplied();
    assert.deepEqual(byId(applied), byId(fresh));
  });

  it('sends the full list again after a settings change', async () => {
    await client.initialize({ isTrusted: true });
    await client.waitFor(SESSION_LIST);
    const since = client.mark();
    const sentBefore = client.sessionListChanges.length;
    await client.changeSettings({ home: demo.root, profiles: ['work'] });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST, () => true, { since });
    assert.deepEqual(list.profiles.map((p) => p.name), ['work']);
    assert.ok(!isDelta(client.sessionListChanges[sentBefore]!), 'a full list');
    const { fresh, applied } = await freshAndApplied();
    assert.deepEqual(byId(applied), byId(fresh));
  });
});
