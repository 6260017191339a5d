// `hermes-lens refresh` then `hermes-lens status`, in-process on a real home, against the simulated
// Hermes: status follows each session the request concerns from what the lens keeps in its cache
// folder, and says how each took it up (adopted, with the estimate beside what Hermes recorded;
// learned under another stamp key, which the next request uses; not adopted, with the older way
// and its command). Nothing but the request is written to state.db.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { writeHermesInstall, WITH_REFRESH } from '../../../server/demo/hermesInstall';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import { takeTurn, type RefreshBehaviour } from '../../../server/demo/hermes';
import { DEFAULT_REFRESH_KEYS } from '../../../server/hermes/refresh/epochs';
import { NOT_ADOPTED } from '../../../shared/adoptionWords';
import { removeDir, tempDir } from '../demo/support';
import { cli, NOW } from './support';

describe('cli: status follows the refresh requests it recorded', function () {
  this.timeout(30000);
  let dir: string;
  let home: HomeBuilder;
  let def: ProfileBuilder;
  const ids = { a: '', b: '' };
  beforeEach(() => {
    dir = tempDir('hermes-cli-adoption-');
    home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 91 });
    def = home.profile();
    def.writeSoul('You are Kit.\n');
    const spec = { source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 600, messages: 4, promptFromCurrentFiles: true };
    ids.a = def.addSession(spec);
    ids.b = def.addSession(spec);
    def.writeSoul('You are Kit. Answer briefly.\n');
    writeHermesInstall(path.join(home.root, 'hermes-agent'), WITH_REFRESH);
  });
  afterEach(() => removeDir(dir));

  const status = () => JSON.parse(cli(['status', '--json', '--home', home.root]).stdout);
  const session = (json: any, id: string) => json.profiles[0].sessions.find((s: { id: string }) => s.id === id);
  const turn = (id: string, behaviour: RefreshBehaviour) => takeTurn(def.dbFile, id, def.dir, { behaviour, now: NOW + 60, seed: 3 });

  it('adopted: after its turn, with the turn that decided it and the estimate beside what Hermes recorded', () => {
    const before = session(status(), ids.a);
    const run = cli(['refresh', '--home', home.root]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes('The lens watches each session it concerns: 2 waiting for a turn.'), run.stdout);
    assert.deepEqual(status().profiles[0].adoption, { adopted: 0, adoptedStampUnread: 0, waiting: 2, notAdopted: 0 });
    turn(ids.a, { keys: DEFAULT_REFRESH_KEYS });
    const json = status();
    assert.deepEqual(json.profiles[0].adoption, { adopted: 1, adoptedStampUnread: 0, waiting: 1, notAdopted: 0 });
    const a = session(json, ids.a).adoption;
    assert.deepEqual([a.state, a.by, a.requestedAt, a.stampKey, a.turn.messagesBefore, a.turn.messagesAfter, a.turn.lastActivityAt], ['adopted', 'lens', NOW, 'prompt_refresh_epoch', 4, 6, NOW + 60]);
    assert.deepEqual(a.predicted, { costUsd: before.refreshCostUsd, prefixTokens: before.prefixTokens, cacheWarm: before.cacheWarm });
    assert.ok(a.recorded.cacheWriteTokens > 0, JSON.stringify(a.recorded));
    const text = cli(['status', '--home', home.root]).stdout;
    assert.ok(text.includes('Refresh requests: 1 adopted · 1 waiting for a turn'), text);
    assert.match(text, /↳ epoch 1: adopted the refresh\n\s+↳ predicted .* Hermes recorded \+[\d.k]+ cache-write, [+-][\d.k]+ cache-read, [+-][\d.k]+ input tokens over that turn/);
  });

  it('another stamp key: learned for the home, and the next request judged under it', () => {
    const other: RefreshBehaviour = { keys: { ...DEFAULT_REFRESH_KEYS, stampKey: 'refresh_rev_seen' } };
    cli(['refresh', '--home', home.root, '--session', ids.a]);
    status();
    turn(ids.a, other);
    const json = status();
    assert.deepEqual([session(json, ids.a).adoption.state, session(json, ids.a).adoption.stampKey], ['adopted-stamp-unread', 'refresh_rev_seen']);
    assert.deepEqual([json.hermes.protocol.stampKey, json.hermes.protocol.stampKeyFrom, json.hermes.protocol.keysFrom], ['refresh_rev_seen', 'learned', 'mixed']);
    assert.match(cli(['status', '--home', home.root]).stdout.split('\n')[1]!, /stamp model_config\.refresh_rev_seen \(learned when session .* took epoch 1 under it\)/);

    const second = JSON.parse(cli(['refresh', '--home', home.root, '--session', ids.b, '--json']).stdout);
    assert.equal(second.epoch, 2);
    assert.deepEqual(second.adoption, { adopted: 0, adoptedStampUnread: 0, waiting: 1, notAdopted: 0 });
    turn(ids.b, other);
    assert.deepEqual([session(status(), ids.b).adoption.state, session(status(), ids.b).state], ['adopted', 'fresh']);
  });

  it('not adopted: a turn on the old prompt is flagged, stale again rather than pending, with the older way and its command', () => {
    cli(['refresh', '--home', home.root, '--session', ids.a]);
    assert.equal(session(status(), ids.a).state, 'pending');
    turn(ids.a, 'ignores');
    const s = session(status(), ids.a);
    assert.deepEqual([s.state, s.adoption.state, s.adoption.summary], ['stale', 'not-adopted', NOT_ADOPTED]);
    const text = cli(['status', '--home', home.root]).stdout;
    assert.ok(text.includes(`↳ epoch 1: ${NOT_ADOPTED}`), text);
    assert.ok(text.includes(`hermes-lens refresh --session ${ids.a} --strategy clear-prompt -p default`), text);
    assert.ok(text.includes('it also fires the on_session_start hooks'), text);
  });
});
