// `hermes/sessionListChanged` over stdio carries only what changed: the full list once at the
// start (and after a settings change), then deltas. The list a client builds from them must be the
// one the server answers `hermes/sessionList` with at the same revision.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DemoManifest } from '../../server/demo/demoHome';
import { appendMessages } from '../../server/demo/hermesWriter';
import { SessionListRequest, type SessionListDelta, type SessionListResult } from '../../shared/protocol';
import { isDelta } from '../../shared/sessionListChanges';
import type { TestLspClient } from '../support/lspClient';
import { demoServerPerTest } from './support/demoServer';

const SESSION_LIST = 'hermes/sessionListChanged';

/** Sessions by id per profile (their order in the list carries no meaning). */
function byId(list: SessionListResult): Record<string, unknown> {
  return Object.fromEntries(list.profiles.map((p) => [p.name, { ...p, sessions: Object.fromEntries(p.sessions.map((s) => [s.id, s])) }]));
}

function changedIds(deltas: SessionListDelta[]): string[] {
  return deltas.flatMap((d) => d.profiles.flatMap((p) => p.changed.map((s) => `${p.name}/${s.id}`)));
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

  it('sends the full list first, then for a Hermes write to one session a delta holding that session only', async () => {
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
    assert.deepEqual(changedIds(deltas), [`default/${target}`]);
    assert.deepEqual(deltas.flatMap((d) => d.profiles.flatMap((p) => p.removed)), []);
    const carried = deltas.at(-1)!.profiles.find((p) => p.name === 'default')!.changed[0]!;
    assert.equal(carried.cacheWarm, true, 'the write warmed its prompt cache');

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
    const ids = new Set(changedIds(deltas as SessionListDelta[]));
    const newlyStale = after.profiles.find((p) => p.name === 'work')!.sessions.filter((s) => s.state === 'stale');
    assert.ok(newlyStale.length > 0);
    for (const s of newlyStale) assert.ok(ids.has(`work/${s.id}`), `${s.id} is in the delta`);
    assert.ok(![...ids].some((id) => id.startsWith('default/')), "profile default's sessions do not read work's SOUL.md");

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
