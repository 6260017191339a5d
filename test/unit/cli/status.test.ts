// `hermes-lens status`, run in-process on real Hermes homes: the JSON contract, which sessions are
// listed and in which order, profile selection, and the errors a user can hit.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import type { SessionSpec } from '../../../server/demo/hermes/sessions';
import { PROFILE_EPOCH_KEY } from '../../../server/hermes/refresh/epochs';
import { removeDir, tempDir } from '../demo/support';
import { cli, NOW } from './support';

const MIN = 60;
const HOUR = 3600;

function json(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const run = cli([...argv, '--json'], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

describe('cli: hermes-lens status', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-cli-status-')));
  afterEach(() => removeDir(dir));

  function addSession(p: ProfileBuilder, spec: Partial<SessionSpec>): string {
    return p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 5 * HOUR, messages: 6, promptFromCurrentFiles: true, ...spec });
  }

  /** default (active) with a stale, a fresh and an ended session; `work` with one session. */
  function makeHome() {
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 51 });
    const def = home.profile();
    def.writeSoul('You are Kit.\n');
    const skill = def.addSkill({ category: 'devops', name: 'deploy', description: 'Deploy a service' });
    const work = home.addProfile('work', { layout: 'v24' });
    work.writeSoul('You are Kit at work.\n');
    const stale = addSession(def, { title: 'Stale one', lastActivityAt: NOW - 2 * MIN });
    const ended = addSession(def, { title: 'Ended one', lastActivityAt: NOW - 1 * MIN, endedAt: NOW - 1 * MIN, endReason: 'cli_close' });
    def.editSkill(skill, { description: 'Deploy a service, canary first' });
    const fresh = addSession(def, { title: 'Fresh one', source: 'telegram', model: 'gpt-5.1', lastActivityAt: NOW - 30 * MIN });
    const none = addSession(def, { title: 'No prompt yet', lastActivityAt: NOW - 2 * HOUR, promptFromCurrentFiles: false });
    const workSession = addSession(work, { title: 'Work one', lastActivityAt: NOW - 10 * MIN });
    return { home, def, work, skill, ids: { stale, ended, fresh, none, workSession } };
  }

  it('--json carries the documented shape: profiles[] {name, home, storedPromptSessions, requestedEpoch, sessions[]}', () => {
    const { home, def, skill, ids } = makeHome();
    def.setStateMeta(PROFILE_EPOCH_KEY, '0');
    const out = json(['status', '--home', home.root]);
    assert.ok(Array.isArray(out.profiles));
    assert.equal(out.profiles.length, 1);
    const profile = out.profiles[0];
    assert.equal(profile.name, 'default');
    assert.equal(profile.home, def.dir);
    assert.equal(profile.storedPromptSessions, 3, 'stale, fresh and the ended one hold a prompt');
    assert.equal(profile.requestedEpoch, 0);
    assert.ok(Array.isArray(profile.sessions));

    const byId = new Map<string, Record<string, unknown>>(profile.sessions.map((s: Record<string, unknown>) => [s.id, s]));
    const stale = byId.get(ids.stale)!;
    const expectType = (s: Record<string, unknown>, key: string, type: string) => assert.equal(typeof s[key], type, `${key} of ${s.id}`);
    for (const s of profile.sessions as Array<Record<string, unknown>>) {
      for (const key of ['id', 'title', 'source', 'model', 'state']) expectType(s, key, 'string');
      expectType(s, 'prefixTokens', 'number');
      expectType(s, 'cacheWarm', 'boolean');
      assert.ok(typeof s.refreshCostUsd === 'number' || s.refreshCostUsd === null, `refreshCostUsd of ${s.id}`);
      assert.ok(Array.isArray(s.reasons));
    }
    assert.deepEqual(
      { id: stale.id, title: stale.title, source: stale.source, model: stale.model, state: stale.state },
      { id: ids.stale, title: 'Stale one', source: 'cli', model: 'claude-sonnet-4-5', state: 'stale' },
    );
    assert.deepEqual(stale.reasons, [{ source: 'skill', path: skill, change: 'changed', detail: (stale.reasons as Array<{ detail: string }>)[0]!.detail }]);
    assert.deepEqual(Object.keys((stale.reasons as object[])[0]!).sort(), ['change', 'detail', 'path', 'source']);
    assert.match((stale.reasons as Array<{ detail: string }>)[0]!.detail, /deploy/);
    assert.ok((stale.prefixTokens as number) > 0);
    assert.equal(stale.cacheWarm, true);
    assert.ok((stale.refreshCostUsd as number) > 0);
    assert.equal(byId.get(ids.fresh)!.state, 'fresh');
    assert.equal(byId.get(ids.fresh)!.refreshCostUsd, 0);
    assert.equal(byId.get(ids.none)!.state, 'no-prompt');
  });

  it('requestedEpoch reflects state_meta', () => {
    const { home, def } = makeHome();
    def.setStateMeta(PROFILE_EPOCH_KEY, '5');
    assert.equal(json(['status', '--home', home.root]).profiles[0].requestedEpoch, 5);
  });

  it('lists live sessions only; --all adds the ended ones', () => {
    const { home, ids } = makeHome();
    const live = json(['status', '--home', home.root]).profiles[0].sessions.map((s: { id: string }) => s.id);
    assert.ok(!live.includes(ids.ended));
    assert.deepEqual(new Set(live), new Set([ids.stale, ids.fresh, ids.none]));
    const all = json(['status', '--home', home.root, '--all']).profiles[0].sessions;
    const ended = all.find((s: { id: string }) => s.id === ids.ended);
    assert.equal(ended?.state, 'ended');
    const text = cli(['status', '--home', home.root]);
    assert.ok(!text.stdout.includes(ids.ended));
    assert.ok(cli(['status', '--home', home.root, '--all']).stdout.includes(ids.ended));
  });

  it('orders sessions by newest activity first, in JSON and in the table', () => {
    const { home, ids } = makeHome();
    const order = [ids.ended, ids.stale, ids.fresh, ids.none];
    const listed = json(['status', '--home', home.root, '--all']).profiles[0].sessions.map((s: { id: string }) => s.id);
    assert.deepEqual(listed, order);
    const text = cli(['status', '--home', home.root, '--all']).stdout;
    const positions = order.map((id) => text.indexOf(id));
    assert.ok(positions.every((p, i) => p > 0 && (i === 0 || p > positions[i - 1]!)), JSON.stringify(positions));
  });

  it('shows the active profile by default, -p NAME picks one, --all-profiles shows every profile', () => {
    const { home, work, ids } = makeHome();
    assert.deepEqual(json(['status', '--home', home.root]).profiles.map((p: { name: string }) => p.name), ['default']);
    home.setActiveProfile('work');
    const active = json(['status', '--home', home.root]).profiles;
    assert.deepEqual(active.map((p: { name: string }) => p.name), ['work']);
    assert.equal(active[0].home, work.dir);
    assert.deepEqual(active[0].sessions.map((s: { id: string }) => s.id), [ids.workSession]);
    assert.deepEqual(json(['status', '--home', home.root, '-p', 'default']).profiles.map((p: { name: string }) => p.name), ['default']);
    assert.deepEqual(json(['status', '--home', home.root, '--all-profiles']).profiles.map((p: { name: string }) => p.name), ['default', 'work']);
  });

  it('the table shows each profile with its stored-prompt count, rows with state, reasons and cost, and totals', () => {
    const { home, skill, ids } = makeHome();
    const { code, stdout } = cli(['status', '--home', home.root, '--all-profiles']);
    assert.equal(code, 0);
    assert.match(stdout, /Profile default \(active\)/);
    assert.match(stdout, /Profile work/);
    assert.match(stdout, /3 session\(s\) with a stored prompt/);
    const lines = stdout.split('\n');
    const staleRow = lines.findIndex((l) => l.includes(ids.stale));
    assert.match(lines[staleRow]!, /^\s*stale\s/);
    assert.match(lines[staleRow]!, /\$\d/);
    assert.ok(lines[staleRow + 1]!.includes('skill changed') && lines[staleRow + 1]!.includes(skill), lines[staleRow + 1]);
    assert.match(lines.find((l) => l.includes(ids.fresh))!, /^\s*fresh\s.*\$0\s*$/);
    assert.match(stdout, /Totals: 3 session\(s\) · 1 stale .* · 0 pending · 1 fresh/);
  });

  it('HERMES_HOME is used without --home, also when it points at a named profile', () => {
    const { home, work } = makeHome();
    assert.equal(json(['status'], { HERMES_HOME: home.root }).profiles[0].name, 'default');
    const fromProfile = json(['status', '--all-profiles'], { HERMES_HOME: work.dir });
    assert.deepEqual(fromProfile.profiles.map((p: { name: string }) => p.name), ['default', 'work']);
  });

  it('a profile with database.backend: postgres gets a clear message, not a crash, and the others still show', () => {
    const { home, work } = makeHome();
    work.writeConfig({ database: { backend: 'postgres' } });
    const out = json(['status', '--home', home.root, '--all-profiles']);
    const pg = out.profiles.find((p: { name: string }) => p.name === 'work');
    assert.match(pg.unavailable, /postgres/i);
    assert.ok(pg.unavailable.includes(path.join(work.dir, 'config.yaml')));
    assert.deepEqual(pg.sessions, []);
    assert.ok(out.profiles.find((p: { name: string }) => p.name === 'default').sessions.length > 0);
    const text = cli(['status', '--home', home.root, '-p', 'work']);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /postgres/i);
  });

  it('a missing home: exit 1 with one line naming the path', () => {
    const missing = path.join(dir, 'no-such-home');
    const run = cli(['status', '--home', missing]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.ok(run.stderr.includes(missing), run.stderr);
  });

  it('an unknown profile: exit 1 with one line listing the profiles that exist', () => {
    const { home } = makeHome();
    const run = cli(['status', '--home', home.root, '-p', 'nosuch']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr.trim().split('\n').length, 1);
    assert.match(run.stderr, /nosuch/);
    assert.match(run.stderr, /default, work/);
  });

  it('a profile whose state.db is not a database: the profile says so, exit 0', () => {
    const { home, work } = makeHome();
    fs.writeFileSync(work.dbFile, 'this is not sqlite '.repeat(100));
    const out = json(['status', '--home', home.root, '-p', 'work']);
    assert.ok(out.profiles[0].unavailable.includes(work.dbFile), out.profiles[0].unavailable);
  });
});
