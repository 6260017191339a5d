// Recording a refresh request (docs/HERMES-INSTALLS.md §4) in real state.db files, checked with a separate read-only
// look into the file afterwards: the keys and values written, what stayed as it was, and the health
// of the file (integrity, journal mode, identity, permissions).
import Database from 'better-sqlite3';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendMessages, holdWriteLock, SimulatedHermes } from '../../../server/demo/hermes';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import { promptHash } from '../../../server/hermes/store/promptHash';
import type { SessionSpec } from '../../../server/demo/hermes/sessions';
import { HermesError } from '../../../server/hermes/errors';
import { PROFILE_EPOCH_KEY, sessionEpochKey } from '../../../server/hermes/refresh/epochs';
import { requestRefresh, type RefreshStrategy } from '../../../server/hermes/refresh/requestRefresh';
import { fileMode, inspect, removeDir, tempDir, type RawRow } from '../demo/support';

const NOW = 1_795_000_000;
const DAY = 86400;
/** SQLite's WAL layout: a 32-byte file header, then each frame's 24-byte header and page. */
const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;

/** Bytes of a file, read while this process holds no SQLite handle on it. */
function bytesOf(file: string): string {
  return fs.existsSync(file) ? promptHash(fs.readFileSync(file).toString('latin1')) : 'absent';
}

function stateMetaOf(file: string): Record<string, string> {
  return inspect(file, (db) => Object.fromEntries((db.prepare('SELECT key, value FROM state_meta ORDER BY key').all() as RawRow[]).map((r) => [String(r.key), String(r.value)])));
}

function sessionRows(file: string): RawRow[] {
  return inspect(file, (db) => db.prepare('SELECT * FROM sessions ORDER BY id').all() as RawRow[]);
}

/** What a user (or Hermes) checks to trust the file after a write. */
function health(file: string) {
  return {
    integrity: inspect(file, (db) => db.pragma('integrity_check', { simple: true })),
    journalMode: inspect(file, (db) => db.pragma('journal_mode', { simple: true })),
    applicationId: inspect(file, (db) => db.pragma('application_id', { simple: true })),
    generation: stateMetaOf(file).db_file_generation,
    mode: fileMode(file),
  };
}

describe('engine: recording a refresh request', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-refresh-')));
  afterEach(() => removeDir(dir));

  function makeProfile(options: { layout?: 'v30' | 'v24'; journalMode?: 'wal' | 'delete' } = {}) {
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 41, defaultLayout: options.layout ?? 'v30', journalMode: options.journalMode });
    const p = home.profile();
    p.writeSoul('You are Kit.\n');
    p.addSkill({ category: 'devops', name: 'deploy', description: 'Deploy a service' });
    return { home, p };
  }

  function addSession(p: ProfileBuilder, spec: Partial<SessionSpec> = {}): string {
    return p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - DAY, lastActivityAt: NOW - 600, messages: 4, promptFromCurrentFiles: true, ...spec });
  }

  /** A compacted conversation: the parent ended by compression, the tip, and a newer branch that is not the tip. */
  function chain(p: ProfileBuilder) {
    const parent = addSession(p, { startedAt: NOW - 3 * DAY, lastActivityAt: NOW - 2 * DAY, endedAt: NOW - 2 * DAY, endReason: 'compression' });
    const tip = addSession(p, { startedAt: NOW - 2 * DAY, lastActivityAt: NOW - 900, parentSessionId: parent });
    const branch = addSession(p, { startedAt: NOW - 2 * DAY + 60, lastActivityAt: NOW - 60, parentSessionId: parent, modelConfig: { _branched_from: parent } });
    return { parent, tip, branch };
  }

  it('profile-wide: prompt_refresh_epoch = 1 + the largest epoch recorded anywhere (keys and stamps)', () => {
    const { p } = makeProfile();
    const a = addSession(p);
    addSession(p, { modelConfig: { prompt_refresh_epoch: 6 } });
    addSession(p, { modelConfig: { prompt_refresh_epoch: 'garbage' } });
    p.setStateMeta(PROFILE_EPOCH_KEY, '2').setStateMeta(sessionEpochKey(a), '4').setStateMeta('fts_last_rowid', '99');
    const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default' });
    assert.equal(result.epoch, 7);
    assert.equal(result.scope, 'profile');
    const meta = stateMetaOf(p.dbFile);
    assert.equal(meta[PROFILE_EPOCH_KEY], '7');
    assert.equal(meta[sessionEpochKey(a)], '4', 'per-session keys are left as they were');
    assert.equal(meta.fts_last_rowid, '99');
  });

  it('profile-wide, with per-session keys above every stamp: the new epoch exceeds them too', () => {
    const { p } = makeProfile();
    const a = addSession(p, { modelConfig: { prompt_refresh_epoch: 1 } });
    p.setStateMeta(sessionEpochKey(a), '11');
    assert.equal(requestRefresh({ dbFile: p.dbFile, profileName: 'default' }).epoch, 12);
  });

  describe('while Hermes commits between the lens reading the stamps and taking the lock', () => {
    // The lock holder writes as Hermes does in that moment: the lens reads every stamp while the
    // holder's transaction is open (not yet visible), then waits for the lock and gets it only
    // after the holder's commit.
    async function refreshDuring(p: ProfileBuilder, hermesSql: string) {
      const hold = await holdWriteLock(p.dbFile, 700, { sql: hermesSql });
      const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default' });
      await hold.done;
      return result;
    }
    const stamp = (id: string, epoch: number) => `UPDATE sessions SET model_config = json_set(COALESCE(model_config, '{}'), '$.prompt_refresh_epoch', ${epoch}) WHERE id = '${id}';`;

    it("Hermes' own refresh raised the epoch and a session took it: the request is one above both", async () => {
      const { p } = makeProfile();
      addSession(p, { modelConfig: { prompt_refresh_epoch: 3 } });
      const b = addSession(p);
      p.setStateMeta(PROFILE_EPOCH_KEY, '3');
      const result = await refreshDuring(p, `UPDATE state_meta SET value = '9' WHERE key = '${PROFILE_EPOCH_KEY}'; ${stamp(b, 9)}`);
      assert.equal(result.epoch, 10);
      assert.equal(stateMetaOf(p.dbFile)[PROFILE_EPOCH_KEY], '10');
    });

    it('a session took its own requested epoch and that key was removed: the request still exceeds its stamp', async () => {
      const { p } = makeProfile();
      const b = addSession(p);
      p.setStateMeta(PROFILE_EPOCH_KEY, '2').setStateMeta(sessionEpochKey(b), '4');
      const result = await refreshDuring(p, `${stamp(b, 4)} DELETE FROM state_meta WHERE key = '${sessionEpochKey(b)}';`);
      assert.equal(result.epoch, 5, 'the stamp 4 was read from nowhere the lens could see under the lock but the earlier state_meta');
    });

    it('a session Hermes started meanwhile with a stamp above every key: the request exceeds it', async () => {
      const { p } = makeProfile();
      addSession(p, { modelConfig: { prompt_refresh_epoch: 1 } });
      p.setStateMeta(PROFILE_EPOCH_KEY, '1');
      const insert = `INSERT INTO sessions (id, source, started_at, model_config) VALUES ('started-meanwhile', 'cli', ${NOW}, '{"prompt_refresh_epoch": 7}');`;
      assert.equal((await refreshDuring(p, insert)).epoch, 8);
    });
  });

  describe("the WAL after the request's commit", () => {
    /** A WAL profile with one session, and Hermes running: it holds its connection (and has read through it), so the WAL outlives each commit. */
    function withRunningHermes(look: (p: ProfileBuilder, id: string, framesInWalFile: () => number) => void, fixtureSql?: string) {
      const { p } = makeProfile({ journalMode: 'wal' });
      const id = addSession(p);
      // Before Hermes runs: closing the last connection copies the WAL into the file and removes it.
      if (fixtureSql) alterFixture(p.dbFile, fixtureSql);
      const pageSize = Number(inspect(p.dbFile, (db) => db.pragma('page_size', { simple: true })));
      const framesInWalFile = () => (fs.statSync(`${p.dbFile}-wal`).size - WAL_HEADER_BYTES) / (WAL_FRAME_HEADER_BYTES + pageSize);
      const hermes = SimulatedHermes.open(p.dbFile);
      try {
        hermes.db.prepare('SELECT COUNT(*) FROM sessions').get();
        look(p, id, framesInWalFile);
      } finally {
        hermes.close();
      }
    }
    /** What stat() says of the database file itself (a checkpoint writes it; a commit in WAL mode does not). */
    const mainFile = (p: ProfileBuilder) => {
      const stat = fs.statSync(p.dbFile);
      return { size: stat.size, mtimeMs: stat.mtimeMs };
    };

    it("leaves nothing for Hermes to checkpoint: Hermes' next turn starts the WAL over", () =>
      withRunningHermes((p, id, framesInWalFile) => {
        for (let turn = 0; turn < 20; turn++) appendMessages(p.dbFile, id, 4, { now: NOW + turn, seed: turn });
        const turnsFrames = framesInWalFile();
        assert.ok(turnsFrames >= 20, `twenty turns are in the WAL (${turnsFrames} frames)`);

        requestRefresh({ dbFile: p.dbFile, profileName: 'default', sessionIds: [id] });
        const afterRefresh = framesInWalFile();
        appendMessages(p.dbFile, id, 4, { now: NOW + 60, seed: 99 });
        assert.equal(framesInWalFile(), afterRefresh, "Hermes' next turn is written over the WAL's start: the file does not grow");
        const probe = new Database(p.dbFile, { fileMustExist: true });
        try {
          const left = probe.pragma('wal_checkpoint(PASSIVE)') as RawRow[];
          assert.ok(Number(left[0]?.log) < turnsFrames / 4, `the WAL holds that one turn (${String(left[0]?.log)} frames), not the ${turnsFrames} before it`);
        } finally {
          probe.close();
        }
        assert.equal(stateMetaOf(p.dbFile)[sessionEpochKey(id)], '1');
      }));

    it("copies its own frames however many: after a clear-prompt of 20,000 sessions Hermes' next turn starts the WAL over", () => {
      const bulk = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
        INSERT INTO sessions (id, source, started_at, ended_at, title, system_prompt_hash)
        SELECT printf('bulk-%05d', i), 'cli', ${NOW} - i, ${NOW} - i + 60, printf('%.350c', 'x'), (SELECT system_prompt_hash FROM sessions LIMIT 1) FROM n`;
      withRunningHermes((p, id, framesInWalFile) => {
        const before = mainFile(p);
        const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default', strategy: 'clear-prompt' });
        assert.equal(result.storedPromptSessions, 20001);
        assert.ok(framesInWalFile() > 2000, `the request wrote a long WAL (${framesInWalFile()} frames)`);
        assert.notDeepEqual(mainFile(p), before, 'the lens copied its frames into state.db');
        const afterRefresh = framesInWalFile();
        appendMessages(p.dbFile, id, 4, { now: NOW + 60, seed: 5 });
        assert.equal(framesInWalFile(), afterRefresh, "Hermes' next turn is written over the WAL's start: it does not grow");
      }, bulk);
    });

    it("leaves a WAL a reader let grow to Hermes' next commit: the request does not copy it", () =>
      withRunningHermes((p, id, framesInWalFile) => {
        // A reader's snapshot keeps Hermes' checkpoints from copying what was written after it.
        const reader = new Database(p.dbFile, { readonly: true, fileMustExist: true });
        reader.exec('BEGIN');
        reader.prepare('SELECT COUNT(*) FROM messages').get();
        for (let turn = 0; turn < 200 && framesInWalFile() <= 2500; turn++) appendMessages(p.dbFile, id, 200, { now: NOW + turn, seed: turn });
        reader.exec('COMMIT');
        reader.close();
        assert.ok(framesInWalFile() > 2500, `the WAL grew long (${framesInWalFile()} frames)`);

        const before = mainFile(p);
        const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default', sessionIds: [id] });
        assert.equal(result.epoch, 1);
        assert.deepEqual(mainFile(p), before, 'the request only appended to the WAL: nothing was copied into state.db');
        appendMessages(p.dbFile, id, 4, { now: NOW + 600, seed: 7 });
        assert.notDeepEqual(mainFile(p), before, "Hermes' next commit checkpoints it, as it would without the lens");
        assert.equal(stateMetaOf(p.dbFile)[sessionEpochKey(id)], '1');
      }));
  });

  it('profile-wide on a fresh profile records epoch 1 and changes no session row', () => {
    const { p } = makeProfile();
    addSession(p);
    addSession(p, { promptFromCurrentFiles: false });
    const before = sessionRows(p.dbFile);
    const metaBefore = stateMetaOf(p.dbFile);
    const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default' });
    assert.equal(result.epoch, 1);
    assert.deepEqual(sessionRows(p.dbFile), before);
    assert.deepEqual(stateMetaOf(p.dbFile), { ...metaBefore, [PROFILE_EPOCH_KEY]: '1' });
  });

  it('storedPromptSessions counts the sessions holding a stored prompt (by hash, inline, ended), Hermes-style first line exact', () => {
    const { p } = makeProfile();
    for (let i = 0; i < 3; i++) addSession(p, { promptText: 'Shared prompt.', promptFromCurrentFiles: false });
    addSession(p, { promptText: 'An unmigrated inline prompt.', promptFromCurrentFiles: false, layout: 'v24' });
    addSession(p, { endedAt: NOW - 3600, endReason: 'cli_close' });
    addSession(p, { promptFromCurrentFiles: false });
    addSession(p, { promptFromCurrentFiles: false });
    const expected = inspect(p.dbFile, (db) =>
      Number((db.prepare(`SELECT COUNT(*) AS n FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash
        WHERE COALESCE(sp.prompt, s.system_prompt, '') <> ''`).get() as RawRow).n),
    );
    assert.equal(expected, 5);
    const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default' });
    assert.equal(result.storedPromptSessions, expected);
    assert.equal(result.lines[0], `Requested a system prompt refresh for every session in this profile (${expected} session(s) with a stored prompt).`);
    assert.ok(result.lines[1] && result.lines[1].length > 0, 'and the line after it');
  });

  it('named sessions: storedPromptSessions counts those of them holding a prompt (by hash, inline), each once', () => {
    const { p } = makeProfile();
    const byHash = addSession(p, { promptText: 'Shared prompt.', promptFromCurrentFiles: false });
    const inline = addSession(p, { promptText: 'An unmigrated inline prompt.', promptFromCurrentFiles: false, layout: 'v24' });
    const none = addSession(p, { promptFromCurrentFiles: false });
    addSession(p, { promptText: 'Shared prompt.', promptFromCurrentFiles: false }); // not named
    const { parent, tip } = chain(p); // the parent is redirected to its tip: named twice, counted once
    for (const strategy of ['epoch', 'clear-prompt'] as const) {
      const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default', sessionIds: [byHash, inline, none, parent, tip], strategy, dryRun: true });
      assert.equal(result.storedPromptSessions, 3, strategy);
      assert.equal(result.lines[0], `Would request a system prompt refresh for 5 sessions (3 session(s) with a stored prompt).`);
    }
    const written = requestRefresh({ dbFile: p.dbFile, profileName: 'default', sessionIds: [byHash, none, parent] });
    assert.equal(written.storedPromptSessions, 2);
  });

  it('--session on the ended parent of a compaction chain targets the tip: key prompt_refresh_epoch:<tip>', () => {
    const { p } = makeProfile();
    const { parent, tip, branch } = chain(p);
    const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default', sessionIds: [parent] });
    assert.equal(result.scope, 'session');
    assert.deepEqual(result.sessionIds, [tip]);
    assert.equal(result.redirected.get(parent), tip);
    assert.equal(result.storedPromptSessions, 1);
    assert.ok(result.lines[0]!.includes(`session ${tip}`), result.lines[0]);
    const meta = stateMetaOf(p.dbFile);
    assert.equal(meta[sessionEpochKey(tip)], String(result.epoch));
    assert.equal(meta[sessionEpochKey(parent)], undefined);
    assert.equal(meta[sessionEpochKey(branch)], undefined);
    assert.equal(meta[PROFILE_EPOCH_KEY], undefined, 'a session request leaves the profile-wide key alone');
  });

  it('--session on a live session records that session\'s key only', () => {
    const { p } = makeProfile();
    const a = addSession(p);
    addSession(p);
    const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default', sessionIds: [a] });
    assert.deepEqual(result.sessionIds, [a]);
    assert.equal(result.redirected.size, 0);
    const keys = Object.keys(stateMetaOf(p.dbFile)).filter((k) => k.startsWith(PROFILE_EPOCH_KEY));
    assert.deepEqual(keys, [sessionEpochKey(a)]);
  });

  it('--session with an id that does not exist: a clear error naming it, nothing written', () => {
    const { p } = makeProfile();
    addSession(p);
    const before = bytesOf(p.dbFile);
    assert.throws(
      () => requestRefresh({ dbFile: p.dbFile, profileName: 'default', sessionIds: ['20260101_000000_abcdef'] }),
      (e: unknown) => e instanceof HermesError && e.code === 'session-missing' && e.message.includes('20260101_000000_abcdef'),
    );
    assert.equal(bytesOf(p.dbFile), before);
  });

  for (const strategy of ['epoch', 'clear-prompt'] as const) {
    it(`a dry run (${strategy}) reports what it would do and writes nothing: the file is byte for byte the same`, () => {
      const { p } = makeProfile();
      addSession(p);
      const { parent } = chain(p);
      p.setStateMeta(PROFILE_EPOCH_KEY, '3');
      const before = { db: bytesOf(p.dbFile), wal: bytesOf(`${p.dbFile}-wal`), mtime: fs.statSync(p.dbFile).mtimeMs };
      const profileWide = requestRefresh({ dbFile: p.dbFile, profileName: 'default', dryRun: true, strategy });
      const oneSession = requestRefresh({ dbFile: p.dbFile, profileName: 'default', dryRun: true, strategy, sessionIds: [parent] });
      assert.equal(profileWide.dryRun, true);
      assert.match(profileWide.lines[0]!, /^Would request a system prompt refresh for every session in this profile \(4 session\(s\) with a stored prompt\)\.$/);
      if (strategy === 'epoch') assert.equal(profileWide.epoch, 4);
      assert.equal(oneSession.redirected.size, 1);
      assert.equal(bytesOf(p.dbFile), before.db);
      assert.equal(fs.statSync(p.dbFile).mtimeMs, before.mtime);
      const wal = bytesOf(`${p.dbFile}-wal`);
      assert.ok(wal === before.wal || wal === promptHash(''), 'no content written to the WAL');
    });
  }

  for (const layout of ['v30', 'v24'] as const) {
    it(`clear-prompt (${layout}) NULLs both prompt columns of the target only`, () => {
      const { p } = makeProfile({ layout });
      const target = addSession(p);
      const other = addSession(p);
      const before = sessionRows(p.dbFile);
      const result = requestRefresh({ dbFile: p.dbFile, profileName: 'default', sessionIds: [target], strategy: 'clear-prompt' });
      assert.equal(result.epoch, undefined);
      assert.equal(result.storedPromptSessions, 1);
      assert.match(result.lines[1]!, /on_session_start/);
      const after = sessionRows(p.dbFile);
      const row = (rows: RawRow[], id: string) => rows.find((r) => r.id === id)!;
      assert.equal(row(after, target).system_prompt, null);
      if (layout === 'v30') assert.equal(row(after, target).system_prompt_hash, null);
      assert.deepEqual(row(after, other), row(before, other), 'the other session is untouched');
      const { system_prompt: _a, system_prompt_hash: _b, ...restAfter } = row(after, target);
      const { system_prompt: _c, system_prompt_hash: _d, ...restBefore } = row(before, target);
      assert.deepEqual(restAfter, restBefore, 'only the two prompt columns change');
      if (layout === 'v30') {
        assert.equal(inspect(p.dbFile, (db) => (db.prepare('SELECT COUNT(*) AS n FROM system_prompts').get() as RawRow).n), 1, 'the shared prompt row stays for the others');
      }
      assert.equal(stateMetaOf(p.dbFile)[PROFILE_EPOCH_KEY], undefined, 'no epoch is recorded');
    });
  }

  const writes: Array<{ name: string; strategy: RefreshStrategy; session: boolean }> = [
    { name: 'profile-wide epoch', strategy: 'epoch', session: false },
    { name: 'session epoch', strategy: 'epoch', session: true },
    { name: 'clear-prompt', strategy: 'clear-prompt', session: true },
  ];
  for (const journalMode of ['wal', 'delete'] as const) {
    for (const w of writes) {
      it(`after a ${w.name} refresh (${journalMode} journal): integrity ok, journal mode, application_id, generation and 0600 kept`, () => {
        const { p } = makeProfile({ journalMode });
        const id = addSession(p);
        addSession(p);
        const before = health(p.dbFile);
        assert.deepEqual([before.integrity, before.journalMode, before.mode], ['ok', journalMode, 0o600]);
        assert.ok(Number(before.applicationId) > 0 && /^[0-9a-f]{32}$/.test(before.generation!));
        requestRefresh({ dbFile: p.dbFile, profileName: 'default', strategy: w.strategy, ...(w.session ? { sessionIds: [id] } : {}) });
        assert.deepEqual(health(p.dbFile), before);
        for (const sidecar of ['-wal', '-shm', '-journal']) {
          const file = p.dbFile + sidecar;
          if (fs.existsSync(file)) assert.equal(fileMode(file), 0o600, file);
        }
      });
    }
  }

  it('a state.db without state_meta: a clear error (naming the file and the way out), the file untouched', () => {
    const { p } = makeProfile();
    addSession(p);
    alterFixture(p.dbFile, 'DROP TABLE state_meta');
    const before = bytesOf(p.dbFile);
    assert.throws(
      () => requestRefresh({ dbFile: p.dbFile, profileName: 'default' }),
      (e: unknown) => e instanceof HermesError && e.code === 'db-no-state-meta' && e.message.includes(p.dbFile) && /state_meta/.test(e.message) && /clear-prompt/.test(e.message),
    );
    assert.equal(bytesOf(p.dbFile), before);
  });
});

/** Fixture surgery on a test's own file (an older Hermes build without the table). */
function alterFixture(file: string, sql: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}
