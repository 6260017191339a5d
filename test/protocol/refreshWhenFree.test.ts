// Refresh when free over stdio (bundled dist/server.js): the request schedules the profile's warm
// stale sessions and writes the cold ones, the client hears the schedule, a restarted server takes
// it up again, two servers on one home (two windows) share it; an untrusted workspace is refused.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateDemoHome } from '../../server/demo/demoHome';
import { CancelRefreshWhenFreeRequest, RefreshScheduleChangedNotification, RefreshWhenFreeRequest, SessionListChangedNotification, type ScheduledRefreshDto, type SessionListResult } from '../../shared/protocol';
import { TestLspClient } from '../support/lspClient';
import { refreshRequests } from '../support/whenFreeHome';

describe('language server over stdio: refresh when free', function () {
  this.timeout(60_000);
  let dir: string;
  let cache: string;
  const clients: TestLspClient[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hl-when-free-'));
    // In the run's cache folder (isolatedCache.ts), which goes when the run ends: a killed server's
    // token-count helper may still write there for a moment.
    cache = fs.mkdtempSync(path.join(process.env.HERMES_LENS_TOKEN_CACHE ?? os.tmpdir(), 'when-free-'));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map(stop));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function server(root: string): TestLspClient {
    // Its own cache folder, kept across the restart below.
    const client = new TestLspClient({ home: root }, { ...process.env, HERMES_LENS_TOKEN_CACHE: cache });
    clients.push(client);
    return client;
  }

  it('schedules the warm stale sessions, writes the cold ones, tells the client, and a restarted server resumes', async () => {
    const demo = generateDemoHome(path.join(dir, 'demo'));
    const def = demo.profiles.find((p) => p.name === 'default')!;
    let client = server(demo.root);
    await client.initialize({ isTrusted: true });
    const list = await client.waitFor<SessionListResult>(SessionListChangedNotification.method);
    const stale = list.profiles.find((p) => p.name === 'default')!.sessions.filter((s) => s.state === 'stale');
    const warm = stale.filter((s) => s.cacheWarm).map((s) => s.id).sort();
    const cold = stale.filter((s) => !s.cacheWarm).map((s) => s.id).sort();
    assert.ok(warm.length > 0 && cold.length > 0, 'the demo has stale sessions with warm and with expired caches');

    const since = client.mark();
    const result = await client.connection.sendRequest(RefreshWhenFreeRequest, { profile: 'default' });
    assert.deepEqual(result.scheduled.map((e) => e.sessionId).sort(), warm);
    assert.deepEqual([...result.writtenNow].sort(), cold);
    const requested = refreshRequests(def.dbFile);
    for (const id of cold) assert.ok(requested.has(`prompt_refresh_epoch:${id}`), `${id} written now`);
    for (const id of warm) assert.ok(!requested.has(`prompt_refresh_epoch:${id}`), `${id} waits`);
    const told = await client.waitFor<{ entries: ScheduledRefreshDto[] }>(RefreshScheduleChangedNotification.method, (p) => p.entries.length > 0, { since });
    assert.deepEqual(told.entries, result.scheduled);

    await stop(client);
    client = server(demo.root);
    await client.initialize({ isTrusted: true });
    const resumed = await client.waitFor<{ entries: ScheduledRefreshDto[] }>(RefreshScheduleChangedNotification.method, (p) => p.entries.length > 0);
    assert.deepEqual(resumed.entries, result.scheduled);
  });

  it('cancels a session\'s waiting request, then the rest of the profile: nothing written, the client told, a restart resumes none', async () => {
    const demo = generateDemoHome(path.join(dir, 'demo'));
    const def = demo.profiles.find((p) => p.name === 'default')!;
    let client = server(demo.root);
    await client.initialize({ isTrusted: true });
    await client.waitFor<SessionListResult>(SessionListChangedNotification.method);
    const result = await client.connection.sendRequest(RefreshWhenFreeRequest, { profile: 'default' });
    const waiting = result.scheduled.map((e) => e.sessionId);
    assert.ok(waiting.length > 0, 'requests wait for a cache to expire');
    const before = refreshRequests(def.dbFile);

    const since = client.mark();
    const one = await client.connection.sendRequest(CancelRefreshWhenFreeRequest, { profile: 'default', sessionIds: [waiting[0]!] });
    assert.deepEqual(one.cancelled.map((e) => e.sessionId), [waiting[0]]);
    assert.match(one.message, /Cancelled 1 refresh request/);
    const told = await client.waitFor<{ entries: ScheduledRefreshDto[] }>(RefreshScheduleChangedNotification.method, (p) => p.entries.length === waiting.length - 1, { since });
    assert.ok(!told.entries.some((e) => e.sessionId === waiting[0]));

    const rest = await client.connection.sendRequest(CancelRefreshWhenFreeRequest, {});
    assert.deepEqual(rest.cancelled.map((e) => e.sessionId).sort(), waiting.slice(1).sort());
    await client.waitFor<{ entries: ScheduledRefreshDto[] }>(RefreshScheduleChangedNotification.method, (p) => p.entries.length === 0, { since });
    assert.deepEqual(refreshRequests(def.dbFile), before, 'cancelling writes nothing to state.db');
    assert.match((await client.connection.sendRequest(CancelRefreshWhenFreeRequest, { profile: 'default' })).message, /No refresh when free was waiting in profile default/);
    await assert.rejects(client.connection.sendRequest(CancelRefreshWhenFreeRequest, { profile: 'nobody' }), /No watched profile is named nobody/);

    await stop(client);
    client = server(demo.root);
    await client.initialize({ isTrusted: true });
    const resumed = await client.waitFor<{ entries: ScheduledRefreshDto[] }>(RefreshScheduleChangedNotification.method);
    assert.deepEqual(resumed.entries, [], 'a restarted server resumes nothing cancelled');
  });

  it('shares the schedule between two windows on one home: each shows what the other schedules and cancels', async () => {
    const demo = generateDemoHome(path.join(dir, 'demo'));
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const first = server(demo.root);
    const second = server(demo.root);
    await Promise.all([first.initialize({ isTrusted: true }), second.initialize({ isTrusted: true })]);
    await Promise.all([first, second].map((c) => c.waitFor<SessionListResult>(SessionListChangedNotification.method)));
    const before = refreshRequests(def.dbFile);

    const since = second.mark();
    const result = await first.connection.sendRequest(RefreshWhenFreeRequest, { profile: 'default' });
    assert.ok(result.scheduled.length > 1, 'requests wait for a cache to expire');
    const shown = await second.waitFor<{ entries: ScheduledRefreshDto[] }>(RefreshScheduleChangedNotification.method, (p) => p.entries.length > 0, { since });
    assert.deepEqual(shown.entries, result.scheduled, 'the other window shows what this one scheduled');

    const cancelledSince = first.mark();
    const cancelled = await second.connection.sendRequest(CancelRefreshWhenFreeRequest, { profile: 'default', sessionIds: [result.scheduled[0]!.sessionId] });
    assert.deepEqual(cancelled.cancelled, [result.scheduled[0]], 'a window cancels what the other scheduled');
    const left = await first.waitFor<{ entries: ScheduledRefreshDto[] }>(RefreshScheduleChangedNotification.method, (p) => p.entries.length === result.scheduled.length - 1, { since: cancelledSince });
    assert.deepEqual(left.entries, result.scheduled.slice(1));
    const afterCancel = refreshRequests(def.dbFile);
    // The cold sessions' requests were written at once; the cancel wrote nothing.
    assert.deepEqual([...afterCancel.keys()].filter((k) => !before.has(k)).sort(), result.writtenNow.map((id) => `prompt_refresh_epoch:${id}`).sort());
  });

  it('refuses to schedule in an untrusted workspace', async () => {
    const demo = generateDemoHome(path.join(dir, 'demo'));
    const client = server(demo.root);
    await client.initialize({ isTrusted: false });
    const told = await client.waitFor<{ entries: ScheduledRefreshDto[] }>(RefreshScheduleChangedNotification.method);
    assert.deepEqual(told.entries, []);
    await assert.rejects(client.connection.sendRequest(RefreshWhenFreeRequest, { profile: 'default' }), /Restricted Mode/);
  });
});

/** Kills the server and resolves once its process is gone (nothing of it writes any more). */
function stop(client: TestLspClient): Promise<void> {
  const proc = client.process;
  const gone = proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  client.kill();
  return gone;
}
