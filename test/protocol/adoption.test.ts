// A refresh the language server watches land, over stdio on the demo home, against three simulated
// Hermes builds: one that adopts with the documented names, one that stamps another model_config
// key (the lens learns it and uses it for the next request), and one that ignores the request and
// takes a turn (flagged after that turn: not pending for ever). The server says each in the session
// list, the status item, the hover and its output, which never holds prompt text.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeHermesInstall, WITH_REFRESH } from '../../server/demo/hermesInstall';
import { takeTurn, type RefreshBehaviour } from '../../server/demo/hermes';
import { DEFAULT_REFRESH_KEYS } from '../../server/hermes/refresh/epochs';
import { NOT_ADOPTED } from '../../shared/adoptionWords';
import { RefreshRequest, type SessionDto, type SessionListResult, type StatusParams } from '../../shared/protocol';
import { demoServerPerTest } from './support/demoServer';

const LIST = 'hermes/sessionListChanged';
const STATUS = 'hermes/status';

describe('language server over stdio: watching a refresh request land', function () {
  this.timeout(60_000);
  const fixture = demoServerPerTest('hl-protocol-adoption-');
  const sessionIn = (list: SessionListResult, id: string): SessionDto | undefined => list.profiles.find((p) => p.name === 'default')?.sessions.find((s) => s.id === id);
  const turn = (id: string, behaviour: RefreshBehaviour) => takeTurn(path.join(fixture.demo.root, 'state.db'), id, fixture.demo.root, { behaviour, now: Date.now() / 1000, seed: 7 });

  beforeEach(() => {
    writeHermesInstall(path.join(fixture.demo.root, 'hermes-agent'), WITH_REFRESH);
  });

  async function refreshOne(id: string) {
    const result = await fixture.client.connection.sendRequest(RefreshRequest, { profile: 'default', sessionIds: [id] });
    assert.deepEqual(result.adoption, { adopted: 0, adoptedStampUnread: 0, waiting: 1, notAdopted: 0 });
    assert.match(result.message, /The lens watches each: 1 waiting for a turn\.$/);
    return result;
  }

  it('the documented names: pending until its turn, then adopted, with the estimate beside what Hermes recorded', async () => {
    const { client, demo } = fixture;
    await client.initialize({ isTrusted: true });
    const id = demo.labels['atlas-tui']!;
    const first = await client.waitFor<SessionListResult>(LIST);
    const predicted = sessionIn(first, id)!;
    assert.equal(predicted.state, 'stale');

    const since = client.mark();
    await refreshOne(id);
    const pending = await client.waitFor<SessionListResult>(LIST, (l) => sessionIn(l, id)?.adoption?.state === 'pending', { since });
    assert.equal(sessionIn(pending, id)!.state, 'pending');
    assert.deepEqual(sessionIn(pending, id)!.adoption!.predicted, { costUsd: predicted.refreshCostUsd, prefixTokens: predicted.prefixTokens, cacheWarm: predicted.cacheWarm });

    const adopted = turn(id, { keys: DEFAULT_REFRESH_KEYS });
    assert.ok(adopted.adopted && adopted.adopted.epoch > 0);
    const after = await client.waitFor<SessionListResult>(LIST, (l) => sessionIn(l, id)?.adoption?.state === 'adopted', { since });
    const s = sessionIn(after, id)!;
    assert.equal(s.state, 'fresh');
    assert.equal(s.adoption!.stampKey, 'prompt_refresh_epoch');
    assert.ok(s.adoption!.turn && s.adoption!.turn.messagesAfter > s.adoption!.turn.messagesBefore, JSON.stringify(s.adoption));
    // The rebuilt prompt missed the cache: Hermes recorded the prefix written again.
    assert.ok(s.adoption!.recorded && s.adoption!.recorded.cacheWriteTokens > 0, JSON.stringify(s.adoption!.recorded));
    const status = await client.waitFor<StatusParams>(STATUS, (p) => p.adoption.adopted >= 1, { since });
    assert.match(status.detail, /^Refresh requests: 1 adopted\b/m);
  });

  it("the code lens on SOUL.md counts down as its sessions adopt: one adopted is no longer pending there", async () => {
    const { client, demo } = fixture;
    await client.initialize({ isTrusted: true });
    await client.waitFor<SessionListResult>(LIST);
    const soul = path.join(demo.root, 'SOUL.md');
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const title = async () => (await client.codeLens(uri))?.map((l) => l.command?.title).join(' | ') ?? '';
    const since = client.mark();
    await fixture.client.connection.sendRequest(RefreshRequest, { profile: 'default', onlyStale: true });
    const pending = await client.waitFor<SessionListResult>(LIST, (l) => !l.profiles.find((p) => p.name === 'default')!.sessions.some((s) => s.state === 'stale'), { since });
    const waiting = pending.profiles.find((p) => p.name === 'default')!.sessions.filter((s) => s.state === 'pending');
    const before = /^(\d+) of (\d+) sessions pending refresh/.exec(await title());
    assert.ok(before, await title());

    const adopting = client.mark();
    const id = waiting.find((s) => s.reasons.length === 0 && s.adoption?.state === 'pending')?.id ?? waiting[0]!.id;
    turn(id, { keys: DEFAULT_REFRESH_KEYS });
    await client.waitFor<SessionListResult>(LIST, (l) => sessionIn(l, id)?.adoption?.state === 'adopted', { since: adopting });
    await client.waitFor('workspace/codeLens/refresh', () => true, { since: adopting });
    assert.match(await title(), new RegExp(`^${Number(before[1]) - 1} of ${before[2]} sessions pending refresh`));
  });

  it('another stamp key: adopted with a stamp the lens did not read, the key learned and used for the next request', async () => {
    const { client, demo } = fixture;
    const other = { keys: { ...DEFAULT_REFRESH_KEYS, stampKey: 'prompt_epoch_seen' } };
    await client.initialize({ isTrusted: true });
    await client.waitFor<SessionListResult>(LIST);
    const id = demo.labels['atlas-tui']!;
    const since = client.mark();
    await refreshOne(id);
    turn(id, other);
    const learned = await client.waitFor<SessionListResult>(LIST, (l) => sessionIn(l, id)?.adoption?.state === 'adopted-stamp-unread', { since });
    assert.equal(sessionIn(learned, id)!.adoption!.stampKey, 'prompt_epoch_seen');
    assert.notEqual(sessionIn(learned, id)!.state, 'pending', 'no longer waiting for a stamp that never comes');
    const status = await client.waitFor<StatusParams>(STATUS, (p) => p.hermes.protocol.stampKey === 'prompt_epoch_seen', { since });
    assert.deepEqual([status.hermes.protocol.stampKeyFrom, status.hermes.protocol.learned?.sessionId], ['learned', id]);

    // The next request is judged under the learned key: adopted, not "stamp unread".
    const second = demo.labels['beacon-cron']!;
    const next = client.mark();
    const result = await refreshOne(second);
    turn(second, other);
    const adopted = await client.waitFor<SessionListResult>(LIST, (l) => sessionIn(l, second)?.adoption?.state === 'adopted', { since: next });
    assert.deepEqual([sessionIn(adopted, second)!.adoption!.epoch, sessionIn(adopted, second)!.adoption!.stampKey], [result.epoch, 'prompt_epoch_seen']);
  });

  it('a build that ignores the request: flagged after its first turn, in the list, the status, the hover (with the offer to clear); never pending for ever', async () => {
    const { client, demo } = fixture;
    await client.initialize({ isTrusted: true, hoverCommandLinks: true });
    await client.waitFor<SessionListResult>(LIST);
    const id = demo.labels['atlas-tui']!;
    const since = client.mark();
    await refreshOne(id);
    await client.waitFor<SessionListResult>(LIST, (l) => sessionIn(l, id)?.state === 'pending', { since });
    turn(id, 'ignores');
    const flagged = await client.waitFor<SessionListResult>(LIST, (l) => sessionIn(l, id)?.adoption?.state === 'not-adopted', { since });
    const s = sessionIn(flagged, id)!;
    assert.equal(s.state, 'stale', 'judged by its prompt again');
    assert.equal(s.adoption!.summary, NOT_ADOPTED);
    const status = await client.waitFor<StatusParams>(STATUS, (p) => p.adoption.notAdopted === 1, { since });
    assert.match(status.text, / · 1 not adopted$/);
    assert.equal(status.severity, 'warning');
    assert.ok(status.detail.includes(`One session ${NOT_ADOPTED}.`), status.detail);

    const soul = path.join(demo.root, 'SOUL.md');
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const hover = await client.hover(uri, 0, 0);
    const text = (hover!.contents as { value: string }).value;
    assert.ok(text.includes(`**One session ${NOT_ADOPTED}**`), text);
    assert.ok(text.includes('command:hermesLens.clearSessionPrompt?'), text);
    assert.match(text, /it also fires the on_session_start hooks, and an agent a running gateway holds in memory does not see it until the gateway restarts/);

    // Its output said what happened, by session id, and no prompt or instruction text went to it.
    const logged = client.notifications.filter((n) => n.method === 'window/logMessage').map((n) => String(n.params.message));
    assert.ok(logged.some((line) => line.includes(`session ${id} ${NOT_ADOPTED}`)), logged.join('\n'));
    const output = [...logged, client.stderr].join('\n');
    for (const file of [soul, path.join(demo.root, 'memories', 'MEMORY.md')]) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim().length > 20)) assert.ok(!output.includes(line.trim()), `the output holds a line of ${file}`);
    }
  });
});
