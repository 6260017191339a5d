// Refresh when free, on a real Hermes home and a clock the test moves: each stale session's
// request lands in state.db at the moment its prompt cache expires, not before; a session active
// again waits for its new expiry; one that became current, was refreshed by other means or ended
// gets none; a restarted scheduler resumes from the file it kept, and ignores a damaged one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendMessages, hermesWrite } from '../../../server/demo/hermes';
import type { ProfileBuilder } from '../../../server/demo/homeBuilder';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { sessionEpochKey } from '../../../server/hermes/refresh/epochs';
import { RefreshScheduler, type ScheduleEvent } from '../../../server/hermes/refresh/refreshScheduler';
import { requestRefresh } from '../../../server/hermes/refresh/requestRefresh';
import { scheduleFiles, type ScheduleFiles } from '../../../server/hermes/refresh/scheduleFiles';
import { FakeClock } from '../../support/fakeClock';
import { BUILT_SOUL, refreshRequests, whenFreeHome } from '../../support/whenFreeHome';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_800_000_000;
// The default `prompt_caching.cache_ttl` (5m) for these sessions' model.
const TTL = 300;

describe('refresh: when free, on a clock the test moves', function () {
  this.timeout(30_000);
  let dir: string;
  let root: string;
  let def: ProfileBuilder;
  let clock: FakeClock;
  let events: ScheduleEvent[];
  let warm: string, cold: string, soon: string;

  beforeEach(() => {
    dir = tempDir('hermes-when-free-');
    ({ root, def, warm, cold, soon } = whenFreeHome(dir, NOW, 8));
    clock = new FakeClock(NOW);
    events = [];
  });
  afterEach(() => removeDir(dir));

  // Every request written, by any scheduler of the test, in order.
  let writes: string[];
  beforeEach(() => (writes = []));

  function scheduler(files?: ScheduleFiles, changed?: () => void): RefreshScheduler {
    const profile = selectProfile(readHome({ root, origin: 'argument' }), 'default');
    return new RefreshScheduler({
      clock,
      files,
      // As the CLI does it: the profile read again at each look.
      sessions: () => new Map(analyzeProfile(profile, { now: clock.now() }).report.sessions.map((s) => [s.id, s])),
      write: (dbFile, sessionIds) => {
        writes.push(...sessionIds);
        void requestRefresh({ dbFile, profileName: 'default', sessionIds });
      },
      onEvent: (event) => events.push(event),
      onChange: changed,
    });
  }
  const requested = (id: string) => refreshRequests(def.dbFile).has(sessionEpochKey(id));

  it('records each request when its cache expires, and at once for a cache already expired', () => {
    const s = scheduler();
    const plan = s.add(def.dbFile, [warm, cold, soon]);
    assert.deepEqual(plan.dueNow, [cold]);
    assert.ok(requested(cold), 'the expired cache: written now');
    assert.deepEqual(s.list().map((e) => [e.sessionId, e.dueAt]), [[soon, NOW - 200 + TTL], [warm, NOW - 60 + TTL]]);
    clock.advance(99);
    assert.ok(!requested(soon), 'not while its cache is warm');
    clock.advance(1);
    assert.ok(requested(soon), 'at its expiry');
    assert.ok(!requested(warm));
    clock.advanceTo(NOW + 240);
    assert.ok(requested(warm));
    assert.deepEqual(s.list(), []);
    assert.equal(clock.pending, 0, 'no timer left');
  });

  it('leaves a session active again alone, and records its request when its new cache expires', () => {
    const s = scheduler();
    s.add(def.dbFile, [warm]);
    clock.advanceTo(NOW + 200);
    appendMessages(def.dbFile, warm, 2, { now: NOW + 200, seed: 1 });
    clock.advanceTo(NOW + 240);
    assert.ok(!requested(warm), 'warm again at its first expiry');
    assert.deepEqual(s.list().map((e) => e.dueAt), [NOW + 200 + TTL]);
    clock.advanceTo(NOW + 200 + TTL);
    assert.ok(requested(warm));
  });

  it('drops the request of a session refreshed by other means, or ended', () => {
    const s = scheduler();
    s.add(def.dbFile, [warm, soon]);
    // Another client (or `hermes sessions refresh-prompts`) refreshes soon; Hermes ends warm.
    requestRefresh({ dbFile: def.dbFile, profileName: 'default', sessionIds: [soon] });
    const soonEpoch = refreshRequests(def.dbFile).get(sessionEpochKey(soon));
    hermesWrite(def.dbFile, (db) => db.prepare('UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ?').run(NOW + 10, 'cli_close', warm));
    s.reconcile();
    assert.deepEqual(cancelled().sort(), [[warm, 'ended'], [soon, 'refreshed']].sort());
    clock.advance(3600);
    assert.ok(!requested(warm));
    assert.equal(refreshRequests(def.dbFile).get(sessionEpochKey(soon)), soonEpoch, 'no second request');
  });

  it('drops the request of a session current again (the edit undone)', () => {
    const s = scheduler();
    s.add(def.dbFile, [warm]);
    def.writeSoul(BUILT_SOUL);
    s.reconcile();
    assert.deepEqual(cancelled(), [[warm, 'fresh']]);
    clock.advance(3600);
    assert.ok(!requested(warm));
    assert.equal(clock.pending, 0);
  });

  it('resumes after a restart from the file it kept (ids, the database and times only, mode 0600)', () => {
    const cacheDir = path.join(dir, 'lens-cache');
    const files = scheduleFiles({ HERMES_LENS_TOKEN_CACHE: cacheDir });
    const first = scheduler(files);
    first.add(def.dbFile, [warm, soon]);
    first.dispose();
    const [file] = keptFiles(cacheDir);
    assert.ok(file, 'a schedule file');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { format: 1, db: def.dbFile, entries: [[soon, NOW + 100], [warm, NOW + 240]] });

    // Down past soon's expiry: the next run writes it as it starts, and warm at its time.
    clock.advanceTo(NOW + 150);
    assert.ok(!requested(soon), 'nothing runs while no scheduler does');
    const second = scheduler(files);
    second.resume(def.dbFile);
    assert.ok(requested(soon));
    assert.deepEqual(second.list().map((e) => e.sessionId), [warm]);
    clock.advanceTo(NOW + 240);
    assert.ok(requested(warm));
    assert.deepEqual(keptFiles(cacheDir), [], 'nothing left to keep');
  });

  it('drops what the user cancels, writes nothing for it, and keeps the rest (on disk too)', () => {
    const cacheDir = path.join(dir, 'lens-cache');
    const files = scheduleFiles({ HERMES_LENS_TOKEN_CACHE: cacheDir });
    const s = scheduler(files);
    s.add(def.dbFile, [warm, soon]);
    const dropped = s.cancel((e) => e.sessionId === soon);
    assert.deepEqual(dropped.map((e) => [e.sessionId, e.dueAt]), [[soon, NOW + 100]]);
    assert.deepEqual(events.filter((e) => e.kind === 'cancelled'), [{ kind: 'cancelled', dbFile: def.dbFile, sessionId: soon, why: 'asked' }]);
    assert.deepEqual(JSON.parse(fs.readFileSync(keptFiles(cacheDir)[0]!, 'utf8')).entries, [[warm, NOW + 240]]);
    clock.advanceTo(NOW + 240);
    assert.ok(!requested(soon), 'the cancelled request is never written');
    assert.ok(requested(warm), 'the other is, at its time');
    assert.deepEqual(s.cancel(() => true), [], 'nothing left to cancel');
  });

  it('ignores a damaged schedule file with a message, and writes nothing from it', () => {
    const cacheDir = path.join(dir, 'lens-cache');
    const files = scheduleFiles({ HERMES_LENS_TOKEN_CACHE: cacheDir });
    const first = scheduler(files);
    first.add(def.dbFile, [warm]);
    first.dispose();
    const [file] = keptFiles(cacheDir);
    fs.writeFileSync(file!, '{"format":1,"db":');
    const resumed = scheduler(files);
    resumed.resume(def.dbFile);
    const problem = events.find((e) => e.kind === 'problem');
    assert.ok(problem?.kind === 'problem' && problem.message.includes(file!) && /damaged; it was ignored/.test(problem.message), JSON.stringify(problem));
    assert.deepEqual(resumed.list(), []);
    clock.advance(3600);
    assert.ok(!requested(warm));
  });

  it('shares one schedule between two editor windows: what one cancels the other never writes, and a request due in both is written once', () => {
    const files = scheduleFiles({ HERMES_LENS_TOKEN_CACHE: path.join(dir, 'lens-cache') });
    const first = scheduler(files);
    const second = scheduler(files);
    second.resume(def.dbFile);
    first.add(def.dbFile, [warm]);
    second.add(def.dbFile, [soon]);
    // Each window's addition kept the other's.
    assert.deepEqual(scheduler(files).list().length, 0, 'a scheduler lists only what it follows');
    const third = scheduler(files);
    third.resume(def.dbFile);
    assert.deepEqual(third.list().map((e) => e.sessionId), [soon, warm]);
    third.dispose();

    // The first window takes up the second's entry (as its folder watch has it do), and cancels it.
    first.takeUp();
    assert.deepEqual(first.list().map((e) => e.sessionId), [soon, warm]);
    assert.deepEqual(first.cancel((e) => e.sessionId === soon).map((e) => e.sessionId), [soon]);
    clock.advanceTo(NOW + 240);
    assert.ok(!requested(soon), 'cancelled in one window: the other, whose timer still ran, wrote nothing');
    assert.deepEqual(writes, [warm], 'due in both windows, written once');
    assert.deepEqual(first.list(), []);
    assert.deepEqual(second.list(), []);
  });

  it('writes a due request only if it is still kept when taken: another window may take it between the look and the write', () => {
    const files = scheduleFiles({ HERMES_LENS_TOKEN_CACHE: path.join(dir, 'lens-cache') })!;
    let between: (() => void) | undefined;
    // The first window's changes, with the other window's turn just before each.
    const interleaved: ScheduleFiles = {
      load: (dbFile) => files.load(dbFile),
      update: (dbFile, change) => {
        const other = between;
        between = undefined;
        other?.();
        return files.update(dbFile, change);
      },
      watch: (changed) => files.watch(changed),
    };
    const first = scheduler(interleaved);
    const second = scheduler(files);
    first.add(def.dbFile, [warm]);
    second.resume(def.dbFile);
    clock.advanceTo(NOW + 239);
    assert.deepEqual(writes, []);
    // Both look at warm once its cache has expired; the second takes it while the first is deciding.
    between = () => second.reconcile();
    clock.advanceTo(NOW + 240);
    assert.deepEqual(writes, [warm]);
  });

  it('holds the schedule in memory when the cache folder cannot keep it, says so once, and still writes each request at its time', () => {
    const cacheDir = path.join(dir, 'lens-cache');
    fs.writeFileSync(cacheDir, 'a file where the cache folder should be');
    const s = scheduler(scheduleFiles({ HERMES_LENS_TOKEN_CACHE: cacheDir }));
    s.add(def.dbFile, [warm, soon]);
    s.cancel((e) => e.sessionId === soon);
    s.reconcile();
    const problems = events.filter((e) => e.kind === 'problem');
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.match(problems[0]!.kind === 'problem' ? problems[0]!.message : '', /could not be kept on disk .*; it holds while this process runs/);
    assert.deepEqual(s.list().map((e) => e.sessionId), [warm]);
    clock.advanceTo(NOW + 240);
    assert.deepEqual(writes, [warm]);
  });

  it('tells another window of the schedule when it takes it up', () => {
    const files = scheduleFiles({ HERMES_LENS_TOKEN_CACHE: path.join(dir, 'lens-cache') });
    let told = 0;
    const watching = scheduler(files, () => told++);
    watching.resume(def.dbFile);
    scheduler(files).add(def.dbFile, [warm]);
    watching.takeUp();
    assert.equal(told, 1);
    assert.deepEqual(watching.list().map((e) => [e.sessionId, e.dueAt]), [[warm, NOW + 240]]);
    watching.takeUp();
    assert.equal(told, 1, 'nothing new: nothing told');
  });

  function cancelled(): Array<[string, string]> {
    return events.flatMap((e) => (e.kind === 'cancelled' ? [[e.sessionId, e.why] as [string, string]] : []));
  }
});

function keptFiles(cacheDir: string): string[] {
  const folder = path.join(cacheDir, 'refresh-schedule-v1');
  return fs.existsSync(folder) ? fs.readdirSync(folder).map((f) => path.join(folder, f)) : [];
}
