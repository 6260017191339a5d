// `hermes-lens refresh --when-free` in-process, on a clock the test moves: `--schedule-only` prints
// each request's time and writes nothing; without it the command waits, writes each request when
// its session's cache expires, says so as it goes, and after Ctrl-C writes nothing more.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { writeHermesInstall, WITHOUT_REFRESH } from '../../../server/demo/hermesInstall';
import type { ProfileBuilder } from '../../../server/demo/homeBuilder';
import { sessionEpochKey } from '../../../server/hermes/refresh/epochs';
import { FakeClock } from '../../support/fakeClock';
import { BUILT_SOUL, refreshRequests, whenFreeHome } from '../../support/whenFreeHome';
import { removeDir, tempDir } from '../demo/support';
import { cli, cliWaiting } from './support';

const NOW = 1_800_000_000;
const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');

describe('cli: hermes-lens refresh --when-free', function () {
  this.timeout(30_000);
  let dir: string;
  let root: string;
  let def: ProfileBuilder;
  let clock: FakeClock;
  let warm: string, cold: string, soon: string;

  beforeEach(() => {
    dir = tempDir('hermes-cli-when-free-');
    ({ root, def, warm, cold, soon } = whenFreeHome(dir, NOW, 12));
    clock = new FakeClock(NOW);
  });
  afterEach(() => removeDir(dir));

  const keys = () => [...refreshRequests(def.dbFile).keys()].sort();
  const requested = (...ids: string[]) => ids.map((id) => sessionEpochKey(id)).sort();

  it('--schedule-only prints "<session> <time>" in time order (now for an expired cache) and writes nothing; --json too', async () => {
    const run = cliWaiting(['refresh', '--home', root, '--when-free', '--schedule-only'], clock);
    const { code, stdout } = await run.done;
    assert.equal(code, 0);
    assert.deepEqual(stdout.split('\n'), [`${cold} ${iso(NOW)}`, `${soon} ${iso(NOW + 100)}`, `${warm} ${iso(NOW + 240)}`]);
    const json = JSON.parse((await cliWaiting(['refresh', '--home', root, '--when-free', '--schedule-only', '--json'], clock).done).stdout);
    assert.deepEqual(json, {
      profile: 'default',
      schedule: [
        { sessionId: cold, at: NOW, time: iso(NOW) },
        { sessionId: soon, at: NOW + 100, time: iso(NOW + 100) },
        { sessionId: warm, at: NOW + 240, time: iso(NOW + 240) },
      ],
    });
    assert.deepEqual(keys(), []);
  });

  it('waits, writing each request when its cache expires, one stderr line per write', async () => {
    const run = cliWaiting(['refresh', '--home', root, '--when-free'], clock);
    assert.deepEqual(keys(), requested(cold), 'the expired cache at once');
    clock.advanceTo(NOW + 99);
    assert.deepEqual(keys(), requested(cold));
    clock.advanceTo(NOW + 100);
    assert.deepEqual(keys(), requested(cold, soon));
    clock.advanceTo(NOW + 240);
    const { code, stdout, stderr } = await run.done;
    assert.equal(code, 0, stderr);
    assert.deepEqual(keys(), requested(cold, soon, warm));
    assert.deepEqual(stderr.trim().split('\n'), [
      `${iso(NOW)} requested a refresh of session ${cold} (its prompt cache expired)`,
      `Waiting to refresh 2 sessions when free; the last at ${iso(NOW + 240)}. Ctrl-C stops.`,
      `${iso(NOW + 100)} requested a refresh of session ${soon} (its prompt cache expired)`,
      `${iso(NOW + 240)} requested a refresh of session ${warm} (its prompt cache expired)`,
    ]);
    assert.match(stdout, /^Requested a system prompt refresh for 3 sessions, each when its prompt cache had expired/);
    assert.equal(clock.pending, 0, 'nothing left waiting');
  });

  it('after Ctrl-C writes nothing more, and says what was written', async () => {
    const run = cliWaiting(['refresh', '--home', root, '--when-free', '--json'], clock);
    clock.advanceTo(NOW + 100);
    run.interrupt();
    const { code, stdout, stderr } = await run.done;
    assert.equal(code, 130);
    assert.match(stderr, /Stopped: 2 of 3 requests written; the rest were not recorded\./);
    const out = JSON.parse(stdout);
    assert.deepEqual(out.written.map((w: { sessionId: string }) => w.sessionId), [cold, soon]);
    assert.equal(out.interrupted, true);
    clock.advance(3600);
    assert.deepEqual(keys(), requested(cold, soon));
    assert.equal(clock.pending, 0);
  });

  it('at a terminal, redraws one progress line with the countdown, and clears it when done', async () => {
    const run = cliWaiting(['refresh', '--home', root, '--when-free', '--session', warm], clock, { errTerminal: true });
    assert.ok(run.stderr().endsWith(`\r\x1b[KRefreshing when free: 0 of 1 written · next ${warm} in 4m (Ctrl-C stops)`), JSON.stringify(run.stderr()));
    clock.advance(190);
    assert.ok(run.stderr().endsWith(`\r\x1b[KRefreshing when free: 0 of 1 written · next ${warm} in 50s (Ctrl-C stops)`), JSON.stringify(run.stderr().slice(-120)));
    clock.advanceTo(NOW + 240);
    const { code, stderr } = await run.done;
    assert.equal(code, 0);
    assert.ok(stderr.endsWith('\r\x1b[K'), 'the line cleared');
    assert.deepEqual(keys(), requested(warm));
  });

  it('says when there is nothing to wait for, and refuses --schedule-only alone', async () => {
    def.writeSoul(BUILT_SOUL); // every prompt current again
    const none = await cliWaiting(['refresh', '--home', root, '--when-free'], clock).done;
    assert.equal(none.code, 0);
    assert.equal(none.stderr.trim(), 'No stale session in profile default: nothing to refresh.');
    const alone = cli(['refresh', '--home', root, '--schedule-only']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--schedule-only goes with --when-free/);
  });

  it('with a Hermes build that cannot adopt a request, schedules nothing and says why', async () => {
    const install = writeHermesInstall(path.join(dir, 'hermes-agent'), WITHOUT_REFRESH);
    const refused = await cliWaiting(['refresh', '--home', root, '--when-free', '--hermes-install', install], clock).done;
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Hermes 0\.22\.5 .* cannot adopt a refresh request/);
    assert.deepEqual(keys(), []);
  });
});
