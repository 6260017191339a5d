// Refresh when free as the language server runs it (hermes/refreshWhenFree): what the editor's
// request schedules and says, what the client is told, and that an untrusted workspace schedules,
// resumes and writes nothing. Time is a clock the test moves.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProfileBuilder } from '../../../server/demo/homeBuilder';
import { sessionEpochKey } from '../../../server/hermes/refresh/epochs';
import { requestRefresh } from '../../../server/hermes/refresh/requestRefresh';
import { scheduleFiles } from '../../../server/hermes/refresh/scheduleFiles';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { Log } from '../../../server/lsp/log';
import { RefreshService, UNTRUSTED_REFRESH_MESSAGE } from '../../../server/workspace/refreshService';
import { WhenFreeService } from '../../../server/workspace/whenFreeService';
import type { ScheduledRefreshDto } from '../../../shared/protocol';
import { FakeClock } from '../../support/fakeClock';
import { refreshRequests, whenFreeHome } from '../../support/whenFreeHome';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_800_000_000;

describe('workspace: refresh when free in the language server', function () {
  this.timeout(30_000);
  let dir: string;
  let def: ProfileBuilder;
  let root: string;
  let clock: FakeClock;
  let trusted: boolean;
  let told: ScheduledRefreshDto[][];
  let warm: string, cold: string, soon: string, fresh: string;

  beforeEach(() => {
    dir = tempDir('hermes-when-free-lsp-');
    ({ root, def, warm, cold, soon } = whenFreeHome(dir, NOW, 9));
    // Built after the edit: current.
    fresh = def.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 600, lastActivityAt: NOW - 30, messages: 4, promptFromCurrentFiles: true });
    clock = new FakeClock(NOW);
    trusted = true;
    told = [];
  });
  // Each test's services and models: their folder watches and timers end with the test.
  const made: Array<{ dispose(): void }> = [];
  afterEach(() => {
    for (const m of made.splice(0)) m.dispose();
    removeDir(dir);
  });

  function service(): { whenFree: WhenFreeService; model: HermesModel } {
    const model = new HermesModel(() => clock.now());
    model.configure({ home: root, profiles: [] });
    const refresh = new RefreshService(model, () => trusted, () => 'epoch');
    const quiet = new Log({ console: { info() {}, warn() {}, error() {}, log() {} } } as never);
    const whenFree = new WhenFreeService(model, refresh, () => trusted, quiet, { scheduleChanged: (entries) => told.push(entries), sessionsChanged() {} }, clock, scheduleFiles({ HERMES_LENS_TOKEN_CACHE: path.join(dir, 'cache') }));
    whenFree.start();
    made.push(whenFree, model);
    return { whenFree, model };
  }
  const requested = (id: string) => refreshRequests(def.dbFile).has(sessionEpochKey(id));

  it('schedules the profile’s stale sessions for when each cache expires, says when, and tells the client', () => {
    const { whenFree } = service();
    const result = whenFree.request({ profile: 'default' });
    assert.deepEqual(result.writtenNow, [cold]);
    assert.ok(requested(cold));
    assert.deepEqual(result.scheduled, [{ profile: 'default', sessionId: soon, at: NOW + 100 }, { profile: 'default', sessionId: warm, at: NOW + 240 }]);
    assert.ok(!result.scheduled.some((e) => e.sessionId === fresh), 'a fresh session has nothing to wait for');
    assert.equal(result.message, "Scheduled 2 refresh requests in profile default for when each session's prompt cache expires (the first in 2m, the last in 4m). 1 session whose cache had expired was refreshed now.");
    assert.deepEqual(told.at(-1), result.scheduled);
    clock.advanceTo(NOW + 240);
    assert.ok(requested(soon) && requested(warm));
    assert.deepEqual(told.at(-1), []);
  });

  it('settles an entry on re-evaluation: a session refreshed by other means loses it', () => {
    const { whenFree, model } = service();
    whenFree.request({ profile: 'default', sessionIds: [warm] });
    requestRefresh({ dbFile: def.dbFile, profileName: 'default', sessionIds: [warm] });
    model.databaseChanged([def.dir]);
    whenFree.reconcile();
    assert.deepEqual(whenFree.entries(), []);
  });

  it('plans without writing on a dry run, the confirmation’s figures', () => {
    const { whenFree } = service();
    const plan = whenFree.request({ profile: 'default', dryRun: true });
    assert.deepEqual(plan.scheduled.map((e) => e.sessionId), [soon, warm]);
    assert.deepEqual(plan.writtenNow, []);
    assert.match(plan.message, /^Would schedule 2 refresh requests .* 1 session whose cache had expired would be refreshed now\.$/);
    assert.ok(plan.costUsd > 0);
    assert.ok(!requested(cold));
    assert.deepEqual(whenFree.entries(), []);
  });

  it('in Restricted Mode schedules nothing, resumes nothing and writes nothing', () => {
    const before = service().whenFree;
    before.request({ profile: 'default', sessionIds: [warm] });
    before.dispose(); // the server stops; it starts again in Restricted Mode
    const kept = fs.readdirSync(path.join(dir, 'cache', 'refresh-schedule-v1'));
    trusted = false;
    const { whenFree } = service();
    assert.deepEqual(whenFree.entries(), [], 'the kept schedule is not taken up');
    assert.throws(() => whenFree.request({ profile: 'default' }), new RegExp(UNTRUSTED_REFRESH_MESSAGE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    clock.advance(3600);
    assert.ok(!requested(warm) && !requested(cold));
    assert.deepEqual(fs.readdirSync(path.join(dir, 'cache', 'refresh-schedule-v1')), kept, 'and left on disk for a trusted run');
  });
});
