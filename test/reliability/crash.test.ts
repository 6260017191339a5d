// The refresh process killed (SIGKILL) at random points, 100 times: after every kill the database is
// intact (integrity_check ok, journal mode, application_id and db_file_generation unchanged) and the
// request is all or nothing: the epoch key is absent/unchanged or exactly one above the previous
// largest epoch; a clear-prompt request cleared every prompt or none; nothing else moved.
//
// Kills are made to land inside the write transaction: each profile holds 20,000 sessions (the
// transaction reads every model_config), and half the runs start while a Hermes-like process holds
// the write lock, which is released just before the kill, so the CLI is in its busy wait or has just
// taken the lock. /proc/locks tells whether the CLI held the write lock at the moment of the kill.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HermesProcess } from '../../server/demo/hermes';
import { HomeBuilder } from '../../server/demo/homeBuilder';
import { createRng } from '../../server/demo/prng';
import { HermesError } from '../../server/hermes/errors';
import { parseEpoch, PROFILE_EPOCH_KEY, sessionEpochKey } from '../../server/hermes/refresh/epochs';
import { StateStore } from '../../server/hermes/store/stateStore';
import { insertBulkSessions, restoreBulkPrompts } from './support/bulk';
import { asNextWriter, identityOf, integrityOf, metaOf, type DbIdentity, type Meta } from './support/db';
import { cleanupTempDirs, cliScript, sleep, tempDir } from './support/env';
import { canSeeLocks, writeLockHolders } from './support/locks';

const KILLS = Number(process.env.HERMES_LENS_CRASH_KILLS ?? 100);
const SESSIONS = 20_000;

interface Target {
  readonly name: string;
  readonly db: string;
  readonly journal: 'wal' | 'delete';
  readonly identity: DbIdentity;
  readonly ids: string[];
  readonly lock: HermesProcess;
  /** Unkilled run time of a refresh, ms (calibrated). */
  durationMs: number;
}

interface Digest {
  readonly sessions: number;
  readonly cleared: number;
  readonly configBytes: number;
}

function digestOf(db: import('better-sqlite3').Database): Digest {
  const row = db
    .prepare('SELECT COUNT(*) AS n, SUM(system_prompt_hash IS NULL) AS cleared, SUM(LENGTH(model_config)) AS cfg FROM sessions')
    .get() as { n: number; cleared: number; cfg: number };
  return { sessions: row.n, cleared: row.cleared, configBytes: row.cfg };
}

function maxEpoch(meta: Meta): number {
  let max = 0;
  for (const [key, value] of meta) if (key === PROFILE_EPOCH_KEY || key.startsWith(PROFILE_EPOCH_KEY + ':')) max = Math.max(max, parseEpoch(value));
  // Every bulk session stamped 1 at most (see insertBulkSessions).
  return Math.max(max, 1);
}

function metaDiff(before: Meta, after: Meta): Map<string, string | undefined> {
  const diff = new Map<string, string | undefined>();
  for (const [k, v] of after) if (before.get(k) !== v) diff.set(k, v);
  for (const k of before.keys()) if (!after.has(k)) diff.set(k, undefined);
  return diff;
}

describe('reliability: the refresh process killed at random points', function () {
  this.timeout(600_000);
  let root: string;
  let targets: Target[] = [];

  before(async function () {
    this.timeout(120_000);
    root = path.join(tempDir('hermes-crash-'), 'home');
    const home = HomeBuilder.create(root, { seed: 21 });
    home.addProfile('legacy', { journalMode: 'delete' });
    for (const [name, journal] of [['default', 'wal'], ['legacy', 'delete']] as const) {
      const p = home.profile(name);
      const ids = insertBulkSessions(p.dbFile, SESSIONS);
      const identity = asNextWriter(p.dbFile, identityOf);
      assert.equal(identity.journalMode, journal);
      targets.push({ name, db: p.dbFile, journal, identity, ids, lock: await HermesProcess.start(p.dbFile), durationMs: 0 });
    }
    // Calibrate: how long an unkilled refresh takes here (it also proves the command works).
    for (const t of targets) {
      const times: number[] = [];
      for (let k = 0; k < 3; k++) {
        const started = Date.now();
        const r = await run(['refresh', '--home', root, '-p', t.name, '--json']);
        assert.equal(r.code, 0, r.stderr);
        times.push(Date.now() - started);
      }
      t.durationMs = times.sort((a, b) => a - b)[1]!;
    }
  });

  after(async () => {
    await Promise.all(targets.map((t) => t.lock.stop()));
    targets = [];
    cleanupTempDirs();
  });

  function run(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [cliScript(), ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it(`keeps the database intact and each request all or nothing (${KILLS} kills)`, async () => {
    const rng = createRng(Number(process.env.HERMES_LENS_CRASH_SEED ?? 4242));
    const tally = { applied: 0, notApplied: 0, finished: 0, inWriteLock: 0, journalLeft: 0, lensSawHotJournal: 0, withLock: 0 };
    const started = Date.now();
    for (let i = 0; i < KILLS; i++) {
      const t = targets[i % targets.length]!;
      const before = asNextWriter(t.db, (db) => ({ meta: metaOf(db), digest: digestOf(db) }));
      const roll = rng.next();
      const kind = roll < 0.6 ? 'profile' : roll < 0.8 ? 'session' : 'clear';
      const sessionId = rng.pick(t.ids);
      const argv = ['refresh', '--home', root, '-p', t.name, '--json'];
      if (kind === 'session') argv.push('--session', sessionId);
      if (kind === 'clear') argv.push('--strategy', 'clear-prompt');
      const withLock = rng.chance(0.5);
      if (withLock) {
        tally.withLock++;
        await t.lock.lock();
      }
      const child = spawn(process.execPath, [cliScript(), ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (c) => (stdout += c));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
      if (withLock) {
        // Start-up, then the CLI waits in BEGIN IMMEDIATE; release, and kill while it takes the lock.
        await sleep(Math.round(t.durationMs * 0.8) + rng.int(0, 150));
        await t.lock.unlock();
        await sleep(rng.int(0, 120));
      } else {
        await sleep(rng.int(Math.round(t.durationMs * 0.3), Math.round(t.durationMs * 1.3)));
      }
      if (child.pid !== undefined && writeLockHolders(t.db).has(child.pid)) tally.inWriteLock++;
      child.kill('SIGKILL');
      const outcome = await exited;
      if (outcome.code === 0) tally.finished++;
      else assert.equal(outcome.signal, 'SIGKILL', `run ${i}: the CLI failed on its own (exit ${outcome.code})`);

      // What the lens sees right after the crash, before anyone recovers the file.
      // A journal left behind is hot only if its header was complete; the lens then says so clearly.
      const journalLeft = fs.existsSync(t.db + '-journal') && fs.statSync(t.db + '-journal').size > 0;
      if (journalLeft) tally.journalLeft++;
      try {
        StateStore.openReadOnly(t.db).close();
      } catch (error) {
        assert.ok(journalLeft, `run ${i}: the lens cannot read the database: ${String(error)}`);
        assert.ok(error instanceof HermesError, String(error));
        assert.match(error.message, /unfinished write/);
        assert.ok(error.message.includes(t.db));
        tally.lensSawHotJournal++;
      }

      // Hermes' next open recovers the file; then it must be exactly before or exactly after.
      const after = asNextWriter(t.db, (db) => ({ integrity: integrityOf(db), identity: identityOf(db), meta: metaOf(db), digest: digestOf(db) }));
      assert.equal(after.integrity, 'ok', `run ${i}`);
      StateStore.openReadOnly(t.db).close(); // recovered: the lens reads it again
      assert.deepEqual(after.identity, t.identity, `run ${i}: the file's identity changed`);
      const diff = metaDiff(before.meta, after.meta);
      const next = String(maxEpoch(before.meta) + 1);
      if (kind === 'clear') {
        assert.equal(diff.size, 0, `run ${i}: a clear-prompt request touched state_meta`);
        assert.equal(after.digest.configBytes, before.digest.configBytes);
        assert.ok(after.digest.cleared === before.digest.cleared || after.digest.cleared === after.digest.sessions, `run ${i}: ${after.digest.cleared} of ${after.digest.sessions} prompts cleared: not all or nothing`);
      } else {
        assert.deepEqual(after.digest, before.digest, `run ${i}: an epoch request changed sessions`);
        const key = kind === 'profile' ? PROFILE_EPOCH_KEY : sessionEpochKey(sessionId);
        if (diff.size > 0) assert.deepEqual([...diff], [[key, next]], `run ${i}: partial or wrong state_meta change`);
      }
      const applied = diff.size > 0 || after.digest.cleared !== before.digest.cleared;
      if (applied) tally.applied++;
      else tally.notApplied++;
      if (outcome.code === 0) {
        assert.ok(applied, `run ${i}: the CLI reported success but nothing was recorded`);
        if (kind !== 'clear') assert.equal(String(JSON.parse(stdout).epoch), next);
      }
      if (kind === 'clear' && after.digest.cleared > 0) restoreBulkPrompts(t.db);
    }
    // eslint-disable-next-line no-console
    const calibrated = targets.map((t) => `${t.name} ${t.durationMs} ms`).join(', ');
    console.log(`      crash loop: ${KILLS} kills in ${((Date.now() - started) / 1000).toFixed(1)} s (an unkilled refresh: ${calibrated}): ${JSON.stringify(tally)}`);
    assert.equal(tally.applied + tally.notApplied, KILLS);
    if (canSeeLocks()) assert.ok(tally.inWriteLock > 0, 'no kill landed inside a write transaction; the test did not test what it claims');
  });
});
