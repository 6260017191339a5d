import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { adoptRefresh, appendMessages, HermesProcess, holdWriteLock, SimulatedHermes, startSession, withSimulatedHermes } from '../../../server/demo/hermes';
import { HomeBuilder } from '../../../server/demo/homeBuilder';
import { promptHash } from '../../../server/hermes/store/promptHash';
import { HermesError } from '../../../server/hermes/errors';
import { PROFILE_EPOCH_KEY, sessionEpochKey } from '../../../server/hermes/refresh/epochs';
import { openConnection } from '../../../server/hermes/store/connection';
import { StateStore } from '../../../server/hermes/store/stateStore';
import { inspect, removeDir, tempDir, type RawRow } from './support';

describe('demo: the simulated Hermes', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  function homeWith(layout: 'v30' | 'v24') {
    const home = HomeBuilder.create(path.join(dir, 'home'), { seed: 3, defaultLayout: layout });
    const p = home.profile();
    p.writeSoul('You are Kit.');
    p.addSkill({ category: 'ops', name: 'triage', description: 'Sort incoming work' });
    return { home, p };
  }

  for (const layout of ['v30', 'v24'] as const) {
    it(`adoptRefresh rebuilds from today's files, stores it (${layout}) and stamps the requested epoch, keeping other keys`, () => {
      const { p } = homeWith(layout);
      const modelConfig = { max_iterations: 30, reasoning_config: { effort: 'high' }, base_url: 'https://api.example', prompt_refresh_epoch: 1 };
      const id = p.addSession({ source: 'cli', model: 'claude-opus-4-5', startedAt: 1_790_000_000, messages: 4, promptFromCurrentFiles: true, modelConfig });
      const before = p.session(id)!.prompt!;
      p.writeSoul('You are Kit, now with a new persona line.');
      p.setStateMeta(PROFILE_EPOCH_KEY, '3').setStateMeta(sessionEpochKey(id), '5');

      const result = adoptRefresh(p.dbFile, id, p.dir, p.config(), { builtAt: 1_790_000_500 });
      assert.equal(result.epoch, 5);
      assert.ok(result.prompt.startsWith('You are Kit, now with a new persona line.\n\n'));
      assert.notEqual(result.prompt, before);

      const store = StateStore.openReadOnly(p.dbFile);
      try {
        assert.equal(store.storedPrompt(id), result.prompt);
        assert.deepEqual(store.session(id)!.modelConfig, { model: 'claude-opus-4-5', provider: 'anthropic', ...modelConfig, prompt_refresh_epoch: 5 });
      } finally {
        store.close();
      }
      inspect(p.dbFile, (db) => {
        if (layout === 'v30') {
          const row = db.prepare('SELECT system_prompt, system_prompt_hash FROM sessions WHERE id = ?').get(id) as RawRow;
          assert.deepEqual(row, { system_prompt: null, system_prompt_hash: promptHash(result.prompt) });
          // The old row stays: other sessions may still share it.
          assert.equal((db.prepare('SELECT COUNT(*) AS n FROM system_prompts').get() as RawRow).n, 2);
        } else {
          assert.equal((db.prepare('SELECT system_prompt FROM sessions WHERE id = ?').get(id) as RawRow).system_prompt, result.prompt);
        }
        assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      });
    });
  }

  it('adoptRefresh without any request adds no stamp', () => {
    const { p } = homeWith('v30');
    const id = p.addSession({ source: 'cli', model: 'gpt-5.1', startedAt: 1_790_000_000, promptFromCurrentFiles: true });
    assert.equal(adoptRefresh(p.dbFile, id, p.dir).epoch, 0);
    inspect(p.dbFile, (db) => {
      const config = JSON.parse(String((db.prepare('SELECT model_config FROM sessions WHERE id = ?').get(id) as RawRow).model_config));
      assert.equal(config.prompt_refresh_epoch, undefined);
    });
  });

  it('appendMessages extends the transcript, the counters and last_activity_at', () => {
    const { p } = homeWith('v30');
    const id = p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: 1_790_000_000, lastActivityAt: 1_790_000_600, messages: 6, promptFromCurrentFiles: true });
    const read = () =>
      inspect(p.dbFile, (db) => db.prepare('SELECT message_count, input_tokens, cache_read_tokens, api_call_count, last_activity_at FROM sessions WHERE id = ?').get(id) as RawRow);
    const before = read();
    const ids = appendMessages(p.dbFile, id, 4, { now: 1_790_001_000, seed: 1 });
    assert.equal(ids.length, 4);
    const after = read();
    assert.equal(after.message_count, Number(before.message_count) + 4);
    assert.equal(after.last_activity_at, 1_790_001_000);
    assert.ok(Number(after.cache_read_tokens) > Number(before.cache_read_tokens), 'the warm cache is read');
    inspect(p.dbFile, (db) => {
      const usage = db.prepare('SELECT api_call_count, last_seen FROM session_model_usage WHERE session_id = ?').get(id) as RawRow;
      assert.deepEqual(usage, { api_call_count: after.api_call_count, last_seen: 1_790_001_000 });
    });
  });

  it('startSession builds the prompt from current files and stamps the epoch already requested', () => {
    const { p } = homeWith('v24');
    p.setStateMeta(PROFILE_EPOCH_KEY, '4');
    const id = startSession(p.dbFile, p.dir, { source: 'discord', model: 'gemini-2.5-pro', startedAt: 1_790_000_000, messages: 2 });
    assert.match(id, /^[0-9a-f]{8}$/);
    const store = StateStore.openReadOnly(p.dbFile);
    try {
      assert.equal(store.session(id)!.modelConfig.prompt_refresh_epoch, 4);
      assert.ok(store.storedPrompt(id)!.includes('Platform: discord'));
    } finally {
      store.close();
    }
  });

  it('holdWriteLock holds a real BEGIN IMMEDIATE lock from another process until released', async function () {
    this.timeout(20000);
    const { p } = homeWith('v30');
    const hold = await holdWriteLock(p.dbFile, 15000);
    try {
      const other = openConnection(p.dbFile, { readonly: false, busyTimeoutMs: 100 });
      try {
        assert.throws(() => other.exec('BEGIN IMMEDIATE'), (e: { code?: string }) => String(e.code).startsWith('SQLITE_BUSY'));
        // WAL readers are not blocked by a writer.
        assert.ok(other.prepare('SELECT COUNT(*) AS n FROM sessions').get());
      } finally {
        other.close();
      }
      const store = StateStore.openForWrite(p.dbFile);
      try {
        assert.throws(
          () => store.writeTransaction((tx) => tx.setStateMeta(PROFILE_EPOCH_KEY, '9'), { attempts: 2, minJitterMs: 1, maxJitterMs: 2 }),
          (e: unknown) => e instanceof HermesError && e.code === 'db-locked',
        );
      } finally {
        store.close();
      }
    } finally {
      await hold.release();
    }
    assert.ok(lockIsFree(p.dbFile), 'the lock is free again');
    inspect(p.dbFile, (db) => assert.equal(db.prepare('SELECT value FROM state_meta WHERE key = ?').get(PROFILE_EPOCH_KEY), undefined));
  });

  it('holdWriteLock lets go by itself after the given time', async function () {
    this.timeout(20000);
    const { p } = homeWith('v30');
    const hold = await holdWriteLock(p.dbFile, 300);
    const started = Date.now();
    await hold.done;
    assert.ok(Date.now() - started < 5000);
    assert.ok(lockIsFree(p.dbFile), 'the lock is free again');
  });
  for (const layout of ['v30', 'v24'] as const) {
    it(`replacePrompt stores another prompt the way the layout does (${layout})`, () => {
      const { p } = homeWith(layout);
      const id = p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: 1_790_000_000, promptFromCurrentFiles: true });
      const replaced = `${p.session(id)!.prompt!}\n\nModel switched.`;
      withSimulatedHermes(p.dbFile, (hermes) => {
        hermes.replacePrompt(id, replaced);
        assert.equal(hermes.storedPrompt(id), replaced);
      });
      inspect(p.dbFile, (db) => {
        const row = db.prepare(layout === 'v30' ? 'SELECT system_prompt, system_prompt_hash AS hash FROM sessions WHERE id = ?' : 'SELECT system_prompt FROM sessions WHERE id = ?').get(id) as RawRow;
        assert.deepEqual(row, layout === 'v30' ? { system_prompt: null, hash: promptHash(replaced) } : { system_prompt: replaced });
      });
    });
  }

  it('appendMessages takes given messages too, raising the counters by them', () => {
    const { p } = homeWith('v30');
    const id = p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: 1_790_000_000, messages: 2, promptFromCurrentFiles: true });
    const count = () => inspect(p.dbFile, (db) => Number((db.prepare('SELECT message_count AS n FROM sessions WHERE id = ?').get(id) as RawRow).n));
    const before = count();
    const [rowId] = appendMessages(p.dbFile, id, [{ role: 'assistant', content: 'marker-1 done.', tokenCount: 7 }], { now: 1_790_000_900 });
    assert.equal(count(), before + 1);
    inspect(p.dbFile, (db) => assert.deepEqual(db.prepare('SELECT content, token_count, finish_reason FROM messages WHERE id = ?').get(rowId), { content: 'marker-1 done.', token_count: 7, finish_reason: 'stop' }));
  });

  it('a write waits for the lock another Hermes process holds, retries, and counts the busy attempts', async function () {
    this.timeout(20000);
    const { p } = homeWith('v30');
    const hold = await holdWriteLock(p.dbFile, 1500);
    const hermes = SimulatedHermes.open(p.dbFile);
    try {
      hermes.setStateMeta('written_after_the_lock', '1');
      assert.ok(hermes.busyAttempts >= 1, 'the first attempt found the lock taken');
    } finally {
      hermes.close();
      await hold.done;
    }
    inspect(p.dbFile, (db) => assert.equal((db.prepare("SELECT value FROM state_meta WHERE key = 'written_after_the_lock'").get() as RawRow).value, '1'));
  });

  it('a Hermes process takes and lets go of the lock on command, and keeps its connection (and the WAL) open', async function () {
    this.timeout(20000);
    const { p } = homeWith('v30');
    p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: 1_790_000_000, messages: 2 });
    const hermes = await HermesProcess.start(p.dbFile);
    try {
      await hermes.lock();
      assert.equal(lockIsFree(p.dbFile), false, 'held');
      await hermes.unlock();
      assert.equal(lockIsFree(p.dbFile), true, 'let go');
      await hermes.write("UPDATE sessions SET title = 'written by the process'");
      assert.ok(fs.statSync(`${p.dbFile}-wal`).size > 0, 'the commit is still in the WAL while Hermes runs');
      inspect(p.dbFile, (db) => assert.equal((db.prepare('SELECT title FROM sessions').get() as RawRow).title, 'written by the process'));
    } finally {
      await hermes.stop();
    }
  });

  it('a Hermes process killed in the middle of a write leaves its change uncommitted', async function () {
    this.timeout(20000);
    const { p } = homeWith('v30');
    p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: 1_790_000_000, messages: 2 });
    const hermes = await HermesProcess.start(p.dbFile);
    await hermes.lock({ sql: "UPDATE sessions SET title = 'half written'" });
    await hermes.kill();
    inspect(p.dbFile, (db) => assert.equal((db.prepare('SELECT title FROM sessions').get() as RawRow).title, null));
  });
});

/** Whether another connection can take the write lock of `file` now (it lets go at once). */
function lockIsFree(file: string): boolean {
  const other = openConnection(file, { readonly: false, busyTimeoutMs: 100 });
  try {
    other.exec('BEGIN IMMEDIATE');
    other.exec('ROLLBACK');
    return true;
  } catch (error) {
    if (!String((error as { code?: string }).code).startsWith('SQLITE_BUSY')) throw error;
    return false;
  } finally {
    other.close();
  }
}
