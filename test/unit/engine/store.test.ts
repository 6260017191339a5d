// The store reads what Hermes wrote, in every layout it may find, and never changes the file.
import Database from 'better-sqlite3';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HermesProcess } from '../../../server/demo/hermes';
import { HomeBuilder } from '../../../server/demo/homeBuilder';
import { promptHash } from '../../../server/hermes/store/promptHash';
import { runCli } from '../../../server/cli/main';
import { commandEnv } from '../../support/cliNow';
import type { CommandIO } from '../../../server/cli/io';
import { AnalysisCache } from '../../../server/hermes/engine/analysisCache';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { StateStore } from '../../../server/hermes/store/stateStore';
import { inspect, removeDir, tempDir, type RawRow } from '../demo/support';
import { KeptConnection } from '../../../server/hermes/engine/keptConnection';

const NOW = 1_795_000_000;
const PROMPT = [
  'You are Kit, a careful assistant.',
  'Guidance: prefer small, reviewable changes.',
  'Conversation started: Monday, November 30, 2026 (UTC)\nModel: claude-sonnet-4-5\nProvider: anthropic\nPlatform: cli',
].join('\n\n');

function withStore<T>(file: string, look: (store: StateStore) => T): T {
  const store = StateStore.openReadOnly(file);
  try {
    return look(store);
  } finally {
    store.close();
  }
}

/** Writes to a fixture file the way another program would (the test plays Hermes or an old build). */
function rawWrite(file: string, sql: string, ...params: unknown[]): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

function quietIO(): CommandIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => void stdout.push(t), err: (t) => void stderr.push(t), env: commandEnv(), now: () => NOW };
}

interface FileState {
  readonly exists: boolean;
  readonly size?: number;
  readonly mtimeMs?: number;
  readonly sha?: string;
}

/** Size, mtime and content hash of a file; called only while this process holds no SQLite handle on it. */
function fileState(file: string): FileState {
  if (!fs.existsSync(file)) return { exists: false };
  const stat = fs.statSync(file);
  return { exists: true, size: stat.size, mtimeMs: stat.mtimeMs, sha: promptHash(fs.readFileSync(file).toString('latin1')) };
}

describe('engine: the state.db store', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-store-')));
  afterEach(() => removeDir(dir));

  describe('the stored prompt reads the same in every layout', () => {
    it('v30: many sessions share one system_prompts row, and each reads the full text', () => {
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 1, defaultLayout: 'v30' });
      const p = home.profile();
      const ids = [0, 1, 2, 3].map((i) => p.addSession({ source: 'cron', model: 'claude-sonnet-4-5', startedAt: NOW - 3600 + i, promptText: PROMPT }));
      const other = p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 100, promptText: `${PROMPT}\n\nExtra.` });
      inspect(p.dbFile, (db) => {
        assert.deepEqual(db.prepare('SELECT COUNT(*) AS n FROM system_prompts').get(), { n: 2 });
        const rows = db.prepare('SELECT system_prompt, system_prompt_hash FROM sessions').all() as RawRow[];
        assert.ok(rows.every((r) => r.system_prompt === null));
      });
      withStore(p.dbFile, (store) => {
        for (const id of ids) assert.equal(store.storedPrompt(id), PROMPT);
        assert.equal(store.storedPrompt(other), `${PROMPT}\n\nExtra.`);
        const keys = new Set(ids.map((id) => store.session(id)!.promptKey));
        assert.deepEqual([...keys], [`hash:${promptHash(PROMPT)}`]);
        assert.equal(store.countStoredPromptSessions(), 5);
      });
    });

    it('v24: the prompt inline in sessions.system_prompt reads the same text', () => {
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 1, defaultLayout: 'v24' });
      const p = home.profile();
      const id = p.addSession({ source: 'cron', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, promptText: PROMPT });
      inspect(p.dbFile, (db) => {
        assert.equal((db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'system_prompts'").get() as RawRow).n, 0);
        assert.equal((db.prepare('SELECT system_prompt FROM sessions WHERE id = ?').get(id) as RawRow).system_prompt, PROMPT);
      });
      withStore(p.dbFile, (store) => {
        assert.equal(store.schema.version, 24);
        assert.equal(store.storedPrompt(id), PROMPT);
        assert.equal(store.countStoredPromptSessions(), 1);
      });
    });

    it('v30 with a row the v25 migration has not moved yet: the inline text is the stored prompt', () => {
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 1, defaultLayout: 'v30' });
      const p = home.profile();
      const byHash = p.addSession({ source: 'cron', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, promptText: PROMPT });
      const inline = p.addSession({ source: 'cron', model: 'claude-sonnet-4-5', startedAt: NOW - 3000, promptText: PROMPT, layout: 'v24' });
      const none = p.addSession({ source: 'cron', model: 'claude-sonnet-4-5', startedAt: NOW - 2000 });
      inspect(p.dbFile, (db) => {
        assert.deepEqual(db.prepare('SELECT system_prompt, system_prompt_hash FROM sessions WHERE id = ?').get(inline), { system_prompt: PROMPT, system_prompt_hash: null });
      });
      withStore(p.dbFile, (store) => {
        assert.equal(store.storedPrompt(byHash), PROMPT);
        assert.equal(store.storedPrompt(inline), PROMPT);
        assert.equal(store.storedPrompt(none), undefined);
        assert.equal(store.countStoredPromptSessions(), 2);
      });
    });

    it('the three layouts give the same report: state, prompt size and tokens', () => {
      const reports = (['v30', 'v24', 'v30-inline'] as const).map((layout) => {
        // The same path each time: the prompt names the home, and its size must not differ by that.
        removeDir(path.join(dir, 'same'));
        const home = HomeBuilder.create(path.join(dir, 'same'), { seed: 2, defaultLayout: layout === 'v24' ? 'v24' : 'v30' });
        const p = home.profile();
        p.writeSoul('You are Kit.');
        const id = p.addSession({
          source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 60, messages: 4,
          promptFromCurrentFiles: true, ...(layout === 'v30-inline' ? { layout: 'v24' as const } : {}),
        });
        const { report } = analyzeProfile(selectProfile(readHome({ root: home.root, origin: 'argument' })), { now: NOW });
        const s = report.sessions.find((x) => x.id === id)!;
        return { state: s.state, systemPromptTokens: s.systemPromptTokens, stored: report.storedPromptSessions };
      });
      assert.ok(reports[0]!.systemPromptTokens > 0);
      assert.deepEqual(reports[1], reports[0]);
      assert.deepEqual(reports[2], reports[0]);
      assert.equal(reports[0]!.state, 'fresh');
    });

    it('sessions holding the same text share one parse in any layout; a text rewritten in place gets its own; an ended one is let go', () => {
      // Before v25 every session keeps its own copy of the prompt: a heavy profile holds thousands of
      // copies of a few hundred texts, and the lens works once per text, as it does per hash.
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 3, defaultLayout: 'v30' });
      const p = home.profile();
      const add = (text: string, layout?: 'v24') => p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 60, promptText: text, ...(layout ? { layout } : {}) });
      const inlineA = add(PROMPT, 'v24');
      const inlineB = add(PROMPT, 'v24');
      const byHash = add(PROMPT);
      const other = add(`${PROMPT}\nOne more rule.`, 'v24');
      const profile = selectProfile(readHome({ root: home.root, origin: 'argument' }));
      const cache = new AnalysisCache();
      const connection = new KeptConnection();
      try {
        const first = analyzeProfile(profile, { now: NOW, cache, sessions: connection.reading() });
        const parse = first.anatomyOf(inlineA);
        assert.ok(parse);
        assert.equal(first.anatomyOf(inlineB), parse);
        assert.equal(first.anatomyOf(byHash), parse);
        assert.notEqual(first.anatomyOf(other), parse);

        rawWrite(p.dbFile, 'UPDATE sessions SET system_prompt = ? WHERE id = ?', `${PROMPT}\nRewritten.`, inlineB);
        const second = analyzeProfile(profile, { now: NOW, cache, sessions: connection.reading() });
        assert.equal(second.anatomyOf(inlineA), parse);
        assert.equal(second.anatomyOf(inlineB)?.text, `${PROMPT}\nRewritten.`);
        assert.deepEqual(second.report, analyzeProfile(profile, { now: NOW }).report);

        // A session that ended is no longer listed: by the change after, nothing of its prompt is kept.
        rawWrite(p.dbFile, "UPDATE sessions SET ended_at = ?, end_reason = 'cli_close' WHERE id = ?", NOW - 30, other);
        analyzeProfile(profile, { now: NOW, cache, sessions: connection.reading() });
        rawWrite(p.dbFile, 'UPDATE sessions SET title = ? WHERE id = ?', 'Renamed', inlineA);
        const fourth = analyzeProfile(profile, { now: NOW, cache, sessions: connection.reading() });
        assert.equal(cache.anatomyOfKey(`inline:${other}`), undefined);
        assert.equal(fourth.anatomyOf(inlineA), parse);
      } finally {
        connection.close();
      }
    });
  });

  describe('inline copies are known by the hash of their UTF-8 bytes', () => {
    // Not ASCII: a copy read as text would be decoded to two bytes a character and encoded back to hash it.
    const WIDE = `${PROMPT}\n\nRègles : répondre en français — « toujours » vérifier ✓.`;

    /** A twin of a state.db that keeps its text as UTF-16 (SQLite allows it; Hermes never makes one). */
    function utf16Twin(source: string, twin: string): void {
      // SQLite attaches only databases of one encoding: the rows are copied through JavaScript.
      inspect(source, (from) => {
        const db = new Database(twin);
        try {
          db.pragma("encoding = 'UTF-16le'");
          const tables = from.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string; sql: string }>;
          for (const { name, sql } of tables) {
            db.exec(sql);
            for (const row of from.prepare(`SELECT * FROM "${name}"`).raw().iterate() as Iterable<unknown[]>) {
              db.prepare(`INSERT INTO "${name}" VALUES (${row.map(() => '?').join(', ')})`).run(...row);
            }
          }
        } finally {
          db.close();
        }
      });
    }

    it('a one-pass read gives an inline copy the identity of the same text stored by hash, and a UTF-16 database reads the same', () => {
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 4, defaultLayout: 'v30' });
      const p = home.profile();
      const add = (text: string, layout?: 'v24') => p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 60, promptText: text, ...(layout ? { layout } : {}) });
      const inline = add(WIDE, 'v24');
      const byHash = add(WIDE);
      const other = add(`${WIDE}\nÉtape suivante.`, 'v24');
      withStore(p.dbFile, (store) => {
        assert.equal(store.storedPrompt(inline), WIDE);
        assert.equal(store.storedPrompt(byHash), WIDE);
        const bytes = store.inlinePromptBytes(`inline:${inline}`)!;
        assert.equal(Buffer.from(bytes).toString('utf8'), WIDE);
        assert.equal(promptHash(bytes), promptHash(WIDE));
        assert.equal(store.inlinePromptBytes(`hash:${promptHash(WIDE)}`), undefined, 'a key by hash is its own identity: nothing to hash');
      });
      const profile = selectProfile(readHome({ root: home.root, origin: 'argument' }));
      const once = analyzeProfile(profile, { now: NOW });
      assert.ok(once.anatomyOf(inline));
      assert.equal(once.anatomyOf(inline), once.anatomyOf(byHash));
      assert.equal(once.anatomyOf(inline)?.text, WIDE);
      assert.notEqual(once.anatomyOf(other), once.anatomyOf(inline));

      // The same profile files beside it, so only the database differs.
      const profileDir = path.dirname(p.dbFile);
      const twin = path.join(dir, 'utf16', 'state.db');
      fs.cpSync(profileDir, path.dirname(twin), { recursive: true, filter: (from) => !path.basename(from).startsWith('state.db') });
      utf16Twin(p.dbFile, twin);
      withStore(twin, (store) => {
        assert.equal(store.inlinePromptBytes(`inline:${inline}`), undefined, 'UTF-16 bytes are not the UTF-8 ones: the text is read');
        assert.equal(store.storedPrompt(inline), WIDE);
      });
      const sessionsOf = (report: typeof once.report) =>
        report.sessions.map(({ id, state, systemPromptTokens, reasons }) => ({ id, state, systemPromptTokens, reasons: reasons.map((r) => `${r.source}: ${r.change}`) }));
      const fromTwin = analyzeProfile({ ...profile, dir: path.dirname(twin) }, { now: NOW });
      assert.deepEqual(sessionsOf(fromTwin.report), sessionsOf(once.report));
      assert.equal(fromTwin.anatomyOf(inline)?.text, WIDE);
    });
  });

  describe('column encodings', () => {
    it('model_config NULL, invalid JSON or a JSON non-object reads as {}', () => {
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 3 });
      const p = home.profile();
      const ok = p.addSession({ source: 'cli', model: 'gpt-5.1', startedAt: NOW - 400, promptText: PROMPT, modelConfig: { prompt_refresh_epoch: 4 } });
      const values: Array<string | null> = [null, '{not json', '[1, 2, 3]', '"a string"', ''];
      const ids = values.map((value, i) => {
        const id = p.addSession({ source: 'cli', model: 'gpt-5.1', startedAt: NOW - 300 + i, promptText: PROMPT });
        rawWrite(p.dbFile, 'UPDATE sessions SET model_config = ? WHERE id = ?', value, id);
        return id;
      });
      withStore(p.dbFile, (store) => {
        assert.equal(store.session(ok)!.modelConfig.prompt_refresh_epoch, 4);
        for (const id of ids) assert.deepEqual(store.session(id)!.modelConfig, {}, id);
      });
      // The profile still reports every one of them, each with a stamp of 0.
      const { report } = analyzeProfile(selectProfile(readHome({ root: home.root, origin: 'argument' })), { now: NOW });
      for (const id of ids) assert.equal(report.sessions.find((s) => s.id === id)!.stampedEpoch, 0);
    });

    it('message content stored as "\\x00json:" + JSON is decoded; plain text is kept as is', () => {
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 4 });
      const p = home.profile();
      const parts = [{ type: 'text', text: 'Look at this image' }, { type: 'image_url', image_url: { url: 'file:///tmp/a.png' } }];
      const id = p.addSession({
        source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 600, promptText: PROMPT,
        messages: [{ role: 'user', content: parts }, { role: 'assistant', content: 'It shows a cat.' }],
      });
      inspect(p.dbFile, (db) => {
        const raw = (db.prepare('SELECT content FROM messages WHERE session_id = ? ORDER BY id').all(id) as RawRow[]).map((r) => String(r.content));
        assert.ok(raw[0]!.startsWith('\x00json:'), 'the fixture stores a list the way Hermes does');
      });
      withStore(p.dbFile, (store) => {
        const live = store.liveTranscript(id);
        assert.deepEqual(JSON.parse(live[0]!.content), parts);
        assert.equal(live[1]!.content, 'It shows a cat.');
      });
    });

    it('the live transcript is active = 1 ORDER BY id, whatever the timestamps say', () => {
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 5 });
      const p = home.profile();
      const id = p.addSession({
        source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 600, promptText: PROMPT,
        messages: [
          { role: 'user', content: 'folded away', active: false, compacted: true },
          { role: 'user', content: 'first live', timestamp: NOW - 100 },
          { role: 'assistant', content: 'second live', timestamp: NOW - 500 },
          { role: 'user', content: 'also folded', active: false, compacted: true },
          { role: 'assistant', content: 'third live', timestamp: NOW - 300 },
        ],
      });
      withStore(p.dbFile, (store) => {
        const live = store.liveTranscript(id);
        assert.deepEqual(live.map((m) => m.content), ['first live', 'second live', 'third live']);
        assert.ok(live.every((m, i) => i === 0 || m.id > live[i - 1]!.id));
        assert.equal(store.transcriptSize(id).messages, 3);
      });
    });
  });

  it('lists sessions newest activity first, then by id descending, as SQLite orders them', () => {
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 6 });
    const p = home.profile();
    // Ties on activity, activity only from started_at, and ids that UTF-16 and UTF-8 order differently.
    const wanted: Array<[string, number | null, number]> = [
      ['b', NOW - 10, NOW - 900], ['a', NOW - 10, NOW - 900], ['\uE000x', NOW - 10, NOW - 900], ['\u{1F600}x', NOW - 10, NOW - 900],
      ['é', null, NOW - 20], ['z', NOW - 30.5, NOW - 900], ['Z', null, NOW - 30.5], ['m', NOW - 5, NOW - 900],
    ];
    for (const [id, activity, started] of wanted) {
      const made = p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: started, promptText: PROMPT });
      rawWrite(p.dbFile, 'UPDATE sessions SET id = ?, last_activity_at = ?, started_at = ? WHERE id = ?', id, activity, started, made);
    }
    const db = new Database(p.dbFile, { readonly: true });
    const expected = db.prepare('SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY COALESCE(last_activity_at, started_at) DESC, id DESC').all().map((r) => (r as { id: string }).id);
    db.close();
    withStore(p.dbFile, (store) => {
      assert.deepEqual(store.listSessions().map((s) => s.id), expected);
      assert.deepEqual(store.listSessionsSince(new Map()).map((s) => s.record.id), expected);
    });
  });

  it('a state.db missing optional columns and tables still lists its sessions', () => {
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 6 });
    const p = home.profile();
    fs.rmSync(p.dbFile);
    // An old Hermes: a bare sessions table and messages without `active` or `token_count`.
    const db = new Database(p.dbFile);
    db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, system_prompt TEXT, started_at REAL NOT NULL);
      CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);`);
    db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?)').run('older', 'cli', 'claude-sonnet-4-5', PROMPT, NOW - 7200);
    db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?)').run('newer', 'telegram', 'gpt-5.1', null, NOW - 60);
    db.prepare('INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)').run('older', 'user', 'hello', NOW - 7100);
    db.close();

    withStore(p.dbFile, (store) => {
      assert.equal(store.schema.version, undefined);
      assert.deepEqual(store.listSessions().map((s) => s.id), ['newer', 'older'], 'newest first by started_at');
      assert.equal(store.storedPrompt('older'), PROMPT);
      assert.deepEqual(store.session('older')!.modelConfig, {});
      assert.deepEqual(store.liveTranscript('older').map((m) => m.content), ['hello']);
      assert.deepEqual(store.stateMeta(), new Map());
    });
    const io = quietIO();
    assert.equal(runCli(['status', '--home', home.root, '--json'], io), 0, io.stderr.join('\n'));
    const json = JSON.parse(io.stdout.join('\n'));
    const sessions = json.profiles[0].sessions as Array<{ id: string; state: string }>;
    assert.deepEqual(sessions.map((s) => s.id), ['newer', 'older']);
    assert.equal(sessions[0]!.state, 'no-prompt');
    assert.ok(['fresh', 'stale'].includes(sessions[1]!.state), sessions[1]!.state);
    assert.equal(json.profiles[0].storedPromptSessions, 1);
  });

  describe('read-only opens never change the file', () => {
    function homeWithSessions() {
      const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 7 });
      const p = home.profile();
      p.writeSoul('You are Kit.');
      const id = p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 60, messages: 8, promptFromCurrentFiles: true });
      p.writeSoul('You are Kit, edited.');
      return { home, p, id };
    }

    it('status, prompt-size and diff leave state.db byte for byte and its mtime as they were', () => {
      const { home, p, id } = homeWithSessions();
      const before = fileState(p.dbFile);
      const walBefore = fileState(`${p.dbFile}-wal`);
      for (const argv of [['status', '--all'], ['status', '--json'], ['prompt-size', '--session', id], ['diff', '--session', id], ['refresh', '--dry-run']]) {
        const io = quietIO();
        assert.equal(runCli([...argv, '--home', home.root], io), 0, `${argv.join(' ')}: ${io.stderr.join('\n')}`);
      }
      assert.deepEqual(fileState(p.dbFile), before);
      const walAfter = fileState(`${p.dbFile}-wal`);
      // A reader may leave SQLite's empty WAL index behind, never any content in it.
      assert.ok(!walAfter.exists || walAfter.size === 0 || (walBefore.exists && walAfter.sha === walBefore.sha), JSON.stringify(walAfter));
    });

    it('with Hermes running (its connection open, committed pages still in the WAL), a status run changes neither state.db nor state.db-wal', async () => {
      const { home, p, id } = homeWithSessions();
      const hermes = await hermesWithOpenWal(p.dbFile, id, 'Renamed while the lens reads');
      try {
        const db = fileState(p.dbFile);
        const wal = fileState(`${p.dbFile}-wal`);
        assert.ok(wal.exists && wal.size! > 0, 'the fixture leaves committed pages in the WAL');
        const io = quietIO();
        assert.equal(runCli(['status', '--home', home.root, '--json'], io), 0, io.stderr.join('\n'));
        const title = JSON.parse(io.stdout.join('\n')).profiles[0].sessions.find((s: { id: string }) => s.id === id).title;
        assert.equal(title, 'Renamed while the lens reads', 'the read sees what is committed in the WAL');
        assert.deepEqual(fileState(p.dbFile), db);
        assert.deepEqual(fileState(`${p.dbFile}-wal`), wal);
      } finally {
        await hermes.stop();
      }
    });
  });
});

/**
 * Another process that commits one change and keeps its connection open (so SQLite does not
 * checkpoint the WAL into the main file), like a running Hermes.
 */
async function hermesWithOpenWal(file: string, sessionId: string, title: string): Promise<HermesProcess> {
  const hermes = await HermesProcess.start(file);
  await hermes.write(`UPDATE sessions SET title = '${title.replace(/'/g, "''")}' WHERE id = '${sessionId}'`);
  return hermes;
}
