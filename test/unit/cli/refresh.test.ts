// `hermes-lens refresh`, run in-process on real Hermes homes: what it prints, what it records, and how
// it behaves when Hermes holds the write lock (another process, a real BEGIN IMMEDIATE).
import Database from 'better-sqlite3';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { holdWriteLock } from '../../../server/demo/hermes';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import { promptHash } from '../../../server/hermes/store/promptHash';
import type { SessionSpec } from '../../../server/demo/hermes/sessions';
import { PROFILE_EPOCH_KEY, sessionEpochKey } from '../../../server/hermes/refresh/epochs';
import { inspect, removeDir, tempDir, type RawRow } from '../demo/support';
import { cli, NOW, type Run } from './support';

const DAY = 86400;

function stateMeta(file: string): Record<string, string> {
  return inspect(file, (db) => Object.fromEntries((db.prepare('SELECT key, value FROM state_meta').all() as RawRow[]).map((r) => [String(r.key), String(r.value)])));
}

/** Bytes of a file, read while this process holds no SQLite handle on it. */
function bytesOf(file: string): string {
  return fs.existsSync(file) ? promptHash(fs.readFileSync(file).toString('latin1')) : 'absent';
}

function oneLine(text: string): void {
  assert.equal(text.trim().split('\n').length, 1, `expected one line: ${text}`);
}

describe('cli: hermes-lens refresh', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-cli-refresh-')));
  afterEach(() => removeDir(dir));

  function addSession(p: ProfileBuilder, spec: Partial<SessionSpec> = {}): string {
    return p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - DAY, lastActivityAt: NOW - 600, messages: 4, promptFromCurrentFiles: true, ...spec });
  }

  function makeHome() {
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 61 });
    const def = home.profile();
    def.writeSoul('You are Kit.\n');
    const work = home.addProfile('work', { layout: 'v24' });
    const a = addSession(def);
    const b = addSession(def);
    addSession(def, { promptFromCurrentFiles: false });
    const parent = addSession(def, { startedAt: NOW - 3 * DAY, lastActivityAt: NOW - 2 * DAY, endedAt: NOW - 2 * DAY, endReason: 'compression' });
    const tip = addSession(def, { startedAt: NOW - 2 * DAY, lastActivityAt: NOW - 300, parentSessionId: parent });
    const w = addSession(work);
    return { home, def, work, ids: { a, b, parent, tip, w } };
  }

  it('profile-wide: prints Hermes\' two lines, the first exact, and records prompt_refresh_epoch', () => {
    const { home, def } = makeHome();
    const run = cli(['refresh', '--home', home.root]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.equal(lines[0], 'Requested a system prompt refresh for every session in this profile (4 session(s) with a stored prompt).');
    assert.equal(lines.length, 4);
    assert.match(lines[1]!, /next turn/);
    assert.equal(lines[2], 'The lens watches each session it concerns: 3 waiting for a turn. "hermes-lens status" tells how each took it up.', 'the live ones (the compacted parent takes no turn)');
    // No Hermes installation in this home: the request is the default, and the user is told why.
    assert.match(lines[3]!, /^No Hermes installation found for this home \(a remote gateway\?\)/);
    assert.equal(stateMeta(def.dbFile)[PROFILE_EPOCH_KEY], '1');
  });

  it('--json: {profile, scope, sessionId, epoch, storedPromptSessions, strategy}', () => {
    const { home, def } = makeHome();
    def.setStateMeta(PROFILE_EPOCH_KEY, '3');
    const run = cli(['refresh', '--home', home.root, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(
      { profile: out.profile, scope: out.scope, sessionId: out.sessionId, epoch: out.epoch, storedPromptSessions: out.storedPromptSessions, strategy: out.strategy },
      { profile: 'default', scope: 'profile', sessionId: null, epoch: 4, storedPromptSessions: 4, strategy: 'epoch' },
    );
    assert.equal(stateMeta(def.dbFile)[PROFILE_EPOCH_KEY], '4');
  });

  it('--session on a compacted parent targets the tip, says so, and records prompt_refresh_epoch:<tip>', () => {
    const { home, def, ids } = makeHome();
    const run = cli(['refresh', '--home', home.root, '--session', ids.parent]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.equal(lines[0], `Session ${ids.parent} was compacted; its conversation continues in ${ids.tip}.`);
    assert.equal(lines[1], `Requested a system prompt refresh for session ${ids.tip} (1 session(s) with a stored prompt).`);
    const meta = stateMeta(def.dbFile);
    assert.equal(meta[sessionEpochKey(ids.tip)], '1');
    assert.equal(meta[sessionEpochKey(ids.parent)], undefined);
    assert.equal(meta[PROFILE_EPOCH_KEY], undefined);
  });

  it('--session --json names the tip as sessionId, scope session', () => {
    const { home, ids } = makeHome();
    const out = JSON.parse(cli(['refresh', '--home', home.root, '--session', ids.parent, '--json']).stdout);
    assert.equal(out.scope, 'session');
    assert.equal(out.sessionId, ids.tip);
    assert.equal(out.epoch, 1);
    assert.equal(out.storedPromptSessions, 1);
  });

  it('-p work records in the work profile\'s state.db only', () => {
    const { home, def, work } = makeHome();
    const defBefore = bytesOf(def.dbFile);
    const run = cli(['refresh', '--home', home.root, '-p', 'work', '--json']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).profile, 'work');
    assert.equal(stateMeta(work.dbFile)[PROFILE_EPOCH_KEY], '1');
    assert.equal(bytesOf(def.dbFile), defBefore);
  });

  it('--dry-run prints "Would request…" and leaves the file byte for byte as it was', () => {
    const { home, def } = makeHome();
    const before = bytesOf(def.dbFile);
    const run = cli(['refresh', '--home', home.root, '--dry-run']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Would request a system prompt refresh for every session in this profile \(4 session\(s\) with a stored prompt\)\./);
    assert.equal(bytesOf(def.dbFile), before);
    assert.equal(stateMeta(def.dbFile)[PROFILE_EPOCH_KEY], undefined);
  });

  it('--strategy clear-prompt --session NULLs that session\'s prompt only and says on_session_start fires', () => {
    const { home, def, ids } = makeHome();
    const run = cli(['refresh', '--home', home.root, '--session', ids.a, '--strategy', 'clear-prompt', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.equal(out.strategy, 'clear-prompt');
    assert.equal(out.epoch, null);
    inspect(def.dbFile, (db) => {
      const row = (id: string) => db.prepare('SELECT system_prompt, system_prompt_hash FROM sessions WHERE id = ?').get(id) as RawRow;
      assert.deepEqual(row(ids.a), { system_prompt: null, system_prompt_hash: null });
      assert.notEqual(row(ids.b).system_prompt_hash, null);
    });
    assert.match(cli(['refresh', '--home', home.root, '--session', ids.b, '--strategy', 'clear-prompt']).stdout, /on_session_start/);
  });

  it('a postgres-backed profile: refresh refuses with exit 1 and one line, its state.db untouched', () => {
    const { home, work } = makeHome();
    work.writeConfig({ database: { backend: 'postgres' } });
    const before = bytesOf(work.dbFile);
    const run = cli(['refresh', '--home', home.root, '-p', 'work']);
    assert.equal(run.code, 1);
    oneLine(run.stderr);
    assert.match(run.stderr, /postgres/);
    assert.ok(run.stderr.includes(path.join(work.dir, 'config.yaml')));
    assert.equal(bytesOf(work.dbFile), before);
  });

  it('a missing home: exit 1, one line naming the path', () => {
    const missing = path.join(dir, 'nowhere', '.hermes');
    const run = cli(['refresh', '--home', missing]);
    assert.equal(run.code, 1);
    oneLine(run.stderr);
    assert.ok(run.stderr.includes(missing), run.stderr);
    assert.ok(!fs.existsSync(missing), 'nothing is created');
  });

  it('a state.db without state_meta: exit 1, one line naming the file, nothing changed', () => {
    const { home, def } = makeHome();
    const db = new Database(def.dbFile);
    db.exec('DROP TABLE state_meta');
    db.close();
    const before = bytesOf(def.dbFile);
    const run = cli(['refresh', '--home', home.root]);
    assert.equal(run.code, 1);
    oneLine(run.stderr);
    assert.ok(run.stderr.includes(def.dbFile));
    assert.match(run.stderr, /state_meta/);
    assert.equal(bytesOf(def.dbFile), before);
  });

  it('an unknown --session: exit 1, one line naming it', () => {
    const { home, def } = makeHome();
    const before = bytesOf(def.dbFile);
    const run = cli(['refresh', '--home', home.root, '--session', 'deadbeef']);
    assert.equal(run.code, 1);
    oneLine(run.stderr);
    assert.match(run.stderr, /deadbeef/);
    assert.equal(bytesOf(def.dbFile), before);
  });

  describe('while another process holds Hermes\' write lock', () => {
    it('held for 2 s: the refresh waits for it and succeeds', async function () {
      this.timeout(20000);
      const { home, def } = makeHome();
      const hold = await holdWriteLock(def.dbFile, 2000);
      const started = Date.now();
      const run = cli(['refresh', '--home', home.root, '--json']);
      // The holder let go by itself (that is how the refresh got through): wait for it to exit.
      await hold.done;
      const waited = Date.now() - started;
      assert.equal(run.code, 0, run.stderr);
      assert.ok(waited >= 1000, `the refresh waited for the lock (${waited} ms)`);
      assert.equal(JSON.parse(run.stdout).epoch, 1);
      assert.equal(stateMeta(def.dbFile)[PROFILE_EPOCH_KEY], '1');
      assert.equal(inspect(def.dbFile, (db) => db.pragma('integrity_check', { simple: true })), 'ok');
    });

    it('status and a dry run still answer at once: reads never wait for the writer', async function () {
      this.timeout(20000);
      const { home, def } = makeHome();
      const hold = await holdWriteLock(def.dbFile, 15000);
      let status: Run;
      let dry: Run;
      const started = Date.now();
      try {
        status = cli(['status', '--home', home.root, '--json']);
        dry = cli(['refresh', '--home', home.root, '--dry-run', '--json']);
      } finally {
        await hold.release();
      }
      assert.equal(status.code, 0, status.stderr);
      assert.equal(JSON.parse(status.stdout).profiles[0].sessions.length, 4);
      assert.equal(dry.code, 0, dry.stderr);
      assert.equal(JSON.parse(dry.stdout).epoch, 1);
      assert.ok(Date.now() - started < 5000, 'no busy wait');
      assert.equal(stateMeta(def.dbFile)[PROFILE_EPOCH_KEY], undefined);
    });

    it('held past the whole retry budget: exit 1, one line saying it stayed locked and nothing was written', async function () {
      this.timeout(20000);
      const { home, def } = makeHome();
      const before = { db: bytesOf(def.dbFile), meta: stateMeta(def.dbFile) };
      const hold = await holdWriteLock(def.dbFile, 12000);
      let run: Run;
      const started = Date.now();
      try {
        run = cli(['refresh', '--home', home.root]);
      } finally {
        // The holder commits an empty transaction: whatever is in the file now is the lens' doing.
        await hold.release();
      }
      const waited = Date.now() - started;
      assert.equal(run.code, 1);
      assert.equal(run.stdout, '');
      oneLine(run.stderr);
      assert.match(run.stderr, /stayed locked/);
      assert.match(run.stderr, /nothing (was|has been) written/i);
      assert.ok(run.stderr.includes(def.dbFile));
      assert.ok(waited >= 3000 && waited < 12000, `gave up after its retries, before the holder let go (${waited} ms)`);
      assert.deepEqual(stateMeta(def.dbFile), before.meta);
      assert.equal(stateMeta(def.dbFile)[PROFILE_EPOCH_KEY], undefined);
      assert.equal(bytesOf(def.dbFile), before.db);
    });
  });
});
