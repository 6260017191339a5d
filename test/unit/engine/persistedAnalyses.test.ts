// `hermes-lens status` keeps what it worked out of a state.db (transcript sizes, each stored prompt's
// facts and verdict) for the next run. A run that takes them must report exactly what a run that
// works everything out again reports, whatever changed in between; the file must hold no prompt
// text; a damaged file or a cache turned off changes nothing but the speed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { adoptRefresh, appendMessages, hermesWrite, startSession } from '../../../server/demo/hermes';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { JUDGING_VERSION } from '../../../server/hermes/engine/judgingDigest';
import { PersistedAnalyses } from '../../../server/hermes/engine/persistedAnalyses';
import { databaseFiles } from '../../../server/hermes/store/databaseFiles';
import { StateStore } from '../../../server/hermes/store/stateStore';
import { profilePaths, readHome, selectProfile } from '../../../server/hermes/profile/home';
import type { Profile } from '../../../server/hermes/model';
import { requestRefresh } from '../../../server/hermes/refresh/requestRefresh';
import { cacheSettingPerTest, folderWithOwnCache } from '../../support/lensCacheSetting';
import { removeDir, tempDir } from '../demo/support';
import { diskVerdicts } from '../../../server/hermes/engine/diskVerdicts';

const NOW = 1_795_000_000;

describe('engine: analyses kept on disk between status runs', function () {
  this.timeout(60000);
  let dir: string;
  let cacheDir: string;
  let demo: DemoManifest;
  beforeEach(() => {
    dir = tempDir('hermes-persisted-');
    cacheDir = path.join(dir, 'lens-cache');
    demo = generateDemoHome(path.join(dir, 'home'), { now: NOW, writeManifest: false });
  });
  cacheSettingPerTest(() => cacheDir);
  afterEach(() => removeDir(dir));

  function profiles(): Profile[] {
    const home = readHome({ root: demo.root, origin: 'argument' });
    return ['default', 'work'].map((name) => selectProfile(home, name));
  }

  const keptFiles = () => (fs.existsSync(path.join(cacheDir, 'analyses-v1')) ? fs.readdirSync(path.join(cacheDir, 'analyses-v1')).map((f) => path.join(cacheDir, 'analyses-v1', f)) : []);

  /** Every profile: a run that takes (and keeps) analyses on disk says what a run from scratch says. */
  function check(label: string): void {
    for (const profile of profiles()) {
      const kept = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
      const fresh = analyzeProfile(profile, { now: NOW }).report;
      assert.deepEqual(kept, fresh, `${label} (${profile.name})`);
    }
  }

  it('reports what a run from scratch reports, after every kind of change', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const work = demo.profiles.find((p) => p.name === 'work')!;
    const someone = Object.values(demo.sessions).find((s) => s.profile === 'default' && s.state === 'stale')!.id;
    check('first run');
    assert.equal(keptFiles().length, 2, 'one file per profile database');
    check('second run, nothing changed');

    fs.appendFileSync(path.join(def.dir, 'SOUL.md'), '\nAnswer in English unless asked otherwise.\n');
    check('SOUL.md edited');
    const skill = demo.edits.find((e) => e.source === 'skill' && e.changesPrompts)!.file;
    fs.writeFileSync(skill, fs.readFileSync(skill, 'utf8').replace(/description: .*/, 'description: Triage incidents and page the owners'));
    check('a skill description edited');
    fs.appendFileSync(path.join(demo.projects.atlas, 'AGENTS.md'), '\nKeep pull requests small.\n');
    check('a project AGENTS.md edited');
    fs.appendFileSync(path.join(def.dir, 'config.yaml'), '\nagent:\n  system_prompt: Be brief.\n');
    check('config.yaml edited');

    appendMessages(def.dbFile, someone, 3, { now: NOW - 30, seed: 5 });
    check('Hermes appended messages');
    startSession(def.dbFile, def.dir, { source: 'cli', model: 'gpt-5.1', provider: 'openai', startedAt: NOW - 60, lastActivityAt: NOW - 10, messages: 4 });
    check('Hermes started a session');
    requestRefresh({ dbFile: def.dbFile, profileName: 'default', sessionIds: [someone] });
    check('a refresh requested');
    // Before v25 the prompt is inline: adopting a refresh rewrites it under the same session.
    const inline = Object.values(demo.sessions).find((s) => s.profile === work.name && s.promptStorage === 'inline' && s.state !== 'ended')!.id;
    adoptRefresh(work.dbFile, inline, work.dir, undefined, { builtAt: NOW - 15 });
    check('Hermes adopted a refresh: an inline prompt rewritten in place');
  });

  it('before v25 (prompts inline): takes the kept verdict of each text, and judges a text rewritten in place again', () => {
    const inline = demo.profiles.find((p) => p.layout === 'v24')!;
    const profile = profiles().find((p) => p.name === inline.name)!;
    const first = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
    const session = first.sessions.find((s) => demo.sessions[s.id]?.promptStorage === 'inline' && s.state === 'pending')!;
    // Behind the lens's back: the kept facts say another size, which only a run taking them reports.
    for (const file of keptFiles()) {
      const shape = JSON.parse(fs.readFileSync(file, 'utf8')) as { verdicts: unknown[][] };
      for (const row of shape.verdicts) row[3] = 424242; // the tokens (VerdictRow)
      fs.writeFileSync(file, JSON.stringify(shape));
    }
    const second = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report.sessions.find((s) => s.id === session.id)!;
    assert.equal(second.systemPromptTokens, 424242, 'the verdict kept for the same text was taken');
    // Hermes adopts a refresh: the text under the same session changes, and is judged again.
    adoptRefresh(inline.dbFile, session.id, inline.dir, undefined, { builtAt: NOW - 15 });
    const third = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report.sessions.find((s) => s.id === session.id)!;
    assert.deepEqual(third, analyzeProfile(profile, { now: NOW }).report.sessions.find((s) => s.id === session.id));
    assert.notEqual(third.systemPromptTokens, 424242);
    assert.equal(third.state, 'fresh');
  });

  it('before v25: checks each copy against the text an earlier run found in it, and tells one rewritten in place to the same length', () => {
    const inline = demo.profiles.find((p) => p.layout === 'v24')!;
    const profile = profiles().find((p) => p.name === inline.name)!;
    const textOf = (id: string) => {
      const store = StateStore.openReadOnly(inline.dbFile);
      try {
        return store.storedPrompt(id)!;
      } finally {
        store.close();
      }
    };
    const isLiveInline = (s: { id: string; state: string }) => demo.sessions[s.id]?.promptStorage === 'inline' && s.state !== 'ended' && s.state !== 'no-prompt';
    const before = analyzeProfile(profile, { now: NOW }).report.sessions.filter(isLiveInline);
    const other = before[0]!;
    const [a, b, c] = before.slice(1);
    assert.ok(a && b && c, 'the demo has four live inline sessions');
    assert.notEqual(textOf(other.id), textOf(a.id));
    // Three copies of one text, the first listed (latest activity) being the one whose copy is read
    // and hashed; SQLite compares the other two with it.
    const latest = Math.max(...before.map((s) => s.lastActivityAt ?? 0)) + 1;
    hermesWrite(inline.dbFile, (db) => {
      db.prepare('UPDATE sessions SET system_prompt = ? WHERE id IN (?, ?)').run(textOf(a.id), b.id, c.id);
      db.prepare('UPDATE sessions SET last_activity_at = ? WHERE id = ?').run(latest, a.id);
    });
    const first = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
    const kept = keptFiles().map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as { inline?: Array<[string, string]> });
    const keptIds = new Set(kept.flatMap((k) => k.inline ?? []).map(([id]) => id));
    assert.deepEqual(keptIds, new Set(first.sessions.filter(isLiveInline).map((s) => s.id)), 'the text each live copy held is kept by session');

    // Behind the lens's back: b's copy gets one character of its persona changed (the same length,
    // so no shortcut on sizes could tell), c's the text of another session, with its model (the
    // text names the model it was built for: a text the lens knows).
    const edited = textOf(b.id).replace(/[a-z]/, (ch) => (ch === 'x' ? 'y' : 'x'));
    assert.equal(Buffer.byteLength(edited), Buffer.byteLength(textOf(b.id)));
    hermesWrite(inline.dbFile, (db) => {
      db.prepare('UPDATE sessions SET system_prompt = ? WHERE id = ?').run(edited, b.id);
      db.prepare(
        'UPDATE sessions SET (system_prompt, model, model_config) = (SELECT system_prompt, model, model_config FROM sessions WHERE id = ?) WHERE id = ?',
      ).run(other.id, c.id);
    });
    check('after copies rewritten in place');
    const second = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
    const inFirst = (id: string) => first.sessions.find((s) => s.id === id)!;
    const inSecond = (id: string) => second.sessions.find((s) => s.id === id)!;
    assert.deepEqual(inSecond(a.id), inFirst(a.id));
    assert.notDeepEqual(inSecond(b.id).reasons, inFirst(b.id).reasons);
    assert.equal(inSecond(c.id).systemPromptTokens, inSecond(other.id).systemPromptTokens);
    assert.notEqual(inSecond(c.id).systemPromptTokens, inFirst(c.id).systemPromptTokens);
  });

  it('a text held by sessions of two kinds of model: its counts are exact for the o200k one only, whichever session was judged first', () => {
    // A text naming no model (no `Model:` line) can be held by sessions of two models, each priced
    // by its own column. One anatomy and one verdict serve both.
    const inline = demo.profiles.find((p) => p.layout === 'v24')!;
    const profile = profiles().find((p) => p.name === inline.name)!;
    const sessions = analyzeProfile(profile, { now: NOW }).report.sessions.filter((s) => demo.sessions[s.id]?.promptStorage === 'inline' && s.state !== 'ended');
    const openai = sessions.find((s) => s.model?.startsWith('gpt-5'))!;
    const other = sessions.find((s) => s.model?.startsWith('claude-'))!;
    assert.ok(openai && other, 'the demo has an inline session of each kind');
    check('first run');
    hermesWrite(inline.dbFile, (db) => {
      const text = (db.prepare('SELECT system_prompt FROM sessions WHERE id = ?').get(other.id) as { system_prompt: string }).system_prompt.replace(/^Model: .*\n/m, '');
      for (const id of [openai.id, other.id]) db.prepare('UPDATE sessions SET system_prompt = ? WHERE id = ?').run(text, id);
    });
    check('the same text in both');
    const report = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
    const of = (id: string) => report.sessions.find((s) => s.id === id)!;
    assert.equal(of(openai.id).systemPromptTokens, of(other.id).systemPromptTokens);
    assert.equal(of(openai.id).tokensExact, true);
    assert.equal(of(other.id).tokensExact, false);
  });

  it('takes the kept facts, verdicts and transcript sizes instead of reading prompts and messages again', () => {
    // Prompts stored by hash (v25+): their text is not even read again (one stored inline is, to know which text it is).
    const hashed = demo.profiles.find((p) => p.layout === 'v30')!;
    const profile = profiles().find((p) => p.name === hashed.name)!;
    const first = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
    const stale = first.sessions.find((s) => s.state === 'stale' && s.transcriptTokens > 0)!;
    // Behind the lens's back, in a way Hermes never would (the hash no longer matches the text; the
    // counters no longer match the messages): only a run that reads them again can tell.
    hermesWrite(hashed.dbFile, (db) => {
      db.prepare('UPDATE system_prompts SET prompt = ? WHERE hash = (SELECT system_prompt_hash FROM sessions WHERE id = ?)').run('You are a replacement.', stale.id);
      db.prepare('DELETE FROM messages WHERE session_id = ?').run(stale.id);
    });
    const second = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report.sessions.find((s) => s.id === stale.id)!;
    assert.deepEqual(second, stale);
    const fresh = analyzeProfile(profile, { now: NOW }).report.sessions.find((s) => s.id === stale.id)!;
    assert.notDeepEqual(fresh.reasons, stale.reasons);
    assert.equal(fresh.transcriptTokens, 0);
  });

  it('takes a kept verdict whichever model the session asking for it first is on', () => {
    // A verdict is one per prompt and cwd, whatever the sessions' models: a status whose first
    // session holding the text is on another model than the last status's takes it all the same.
    const hashed = demo.profiles.find((p) => p.layout === 'v30')!;
    const profile = profiles().find((p) => p.name === hashed.name)!;
    const live = analyzeProfile(profile, { now: NOW }).report.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt' && s.cwd === undefined);
    const openai = live.find((s) => s.model?.startsWith('gpt-5'))!;
    const other = live.find((s) => s.model?.startsWith('claude-'))!;
    assert.ok(openai && other, 'the demo has a session of each kind without a cwd');
    hermesWrite(hashed.dbFile, (db) => {
      db.prepare('UPDATE sessions SET system_prompt_hash = (SELECT system_prompt_hash FROM sessions WHERE id = ?) WHERE id = ?').run(other.id, openai.id);
    });
    const first = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
    const at = (report: typeof first, id: string) => report.sessions.findIndex((s) => s.id === id);
    // The session listed after the other now had the latest turn, so it is listed (and asks) first.
    const later = at(first, openai.id) > at(first, other.id) ? openai.id : other.id;
    hermesWrite(hashed.dbFile, (db) => {
      db.prepare('UPDATE sessions SET last_activity_at = ? WHERE id = ?').run(NOW - 1, later);
      // Behind the lens's back (the hash no longer matches the text): only judging again can tell.
      db.prepare('UPDATE system_prompts SET prompt = ? WHERE hash = (SELECT system_prompt_hash FROM sessions WHERE id = ?)').run('You are a replacement.', other.id);
    });
    const second = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
    assert.ok(at(second, later) < at(second, later === openai.id ? other.id : openai.id), 'the other session now asks first');
    const reasons = (report: typeof first, id: string) => report.sessions.find((s) => s.id === id)!.reasons;
    assert.deepEqual(reasons(second, openai.id), reasons(first, openai.id));
    assert.deepEqual(reasons(second, other.id), reasons(first, other.id));
    assert.notDeepEqual(reasons(analyzeProfile(profile, { now: NOW }).report, other.id), reasons(first, other.id), 'judging again tells');
  });

  it('takes no verdict kept by a build that judged differently (another JUDGING_VERSION)', () => {
    const hashed = demo.profiles.find((p) => p.layout === 'v30')!;
    const profile = profiles().find((p) => p.name === hashed.name)!;
    const first = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report;
    const stale = first.sessions.find((s) => s.state === 'stale')!;
    // A change only judging the prompt again can tell (as in the test above), then the kept file as an older build left it.
    hermesWrite(hashed.dbFile, (db) => {
      db.prepare('UPDATE system_prompts SET prompt = ? WHERE hash = (SELECT system_prompt_hash FROM sessions WHERE id = ?)').run('You are a replacement.', stale.id);
    });
    for (const file of keptFiles()) {
      const shape = JSON.parse(fs.readFileSync(file, 'utf8')) as { judging: number };
      fs.writeFileSync(file, JSON.stringify({ ...shape, judging: JUDGING_VERSION - 1 }));
    }
    const second = analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb) }).report.sessions.find((s) => s.id === stale.id)!;
    const fresh = analyzeProfile(profile, { now: NOW }).report.sessions.find((s) => s.id === stale.id)!;
    assert.notDeepEqual(fresh.reasons, stale.reasons);
    assert.deepEqual(second, fresh);
  });

  it('keeps no text of prompts, memory or project files', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const canary = 'CANARY-7f3a9e';
    fs.appendFileSync(path.join(def.dir, 'memories', 'MEMORY.md'), `\n§\nThe vault code is ${canary}.`);
    fs.appendFileSync(path.join(demo.projects.atlas, 'AGENTS.md'), `\nNever print ${canary}.\n`);
    startSession(def.dbFile, def.dir, { source: 'cli', model: 'gpt-5.1', provider: 'openai', cwd: demo.projects.atlas, startedAt: NOW - 60, lastActivityAt: NOW - 10, messages: 2 });
    check('with the canary in the sources and a stored prompt');
    const files = keptFiles();
    assert.ok(files.length > 0);
    for (const file of files) {
      assert.ok(!fs.readFileSync(file, 'utf8').includes(canary), `${file} holds text of a prompt`);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    }
  });

  it('ignores a damaged file and writes a good one; keeps nothing when the cache is off', () => {
    check('first run');
    for (const file of keptFiles()) fs.writeFileSync(file, '{"format":1,"judging":1,"db":{},"transcripts":[["x"]],"verdicts":[[1,2,3]]');
    check('over damaged files');
    for (const file of keptFiles()) assert.doesNotThrow(() => JSON.parse(fs.readFileSync(file, 'utf8')));

    fs.rmSync(cacheDir, { recursive: true, force: true });
    process.env.HERMES_LENS_TOKEN_CACHE = 'off';
    check('with the cache off');
    assert.equal(fs.existsSync(cacheDir), false);
  });
});

describe('engine: the stored-prompt count kept with the database files it was counted in', function () {
  this.timeout(60000);
  const folder = folderWithOwnCache('hermes-count-');
  let dir: string;
  beforeEach(() => (dir = folder()));

  it('is taken only while state.db and its WAL are as they were', () => {
    const demo = generateDemoHome(path.join(dir, 'home'), { now: NOW, writeManifest: false });
    const def = demo.profiles.find((p) => p.layout === 'v30')!;
    const before = databaseFiles(def.dbFile);
    assert.equal(databaseFiles(def.dbFile).signature, before.signature, 'reading the files changes nothing');
    const first = PersistedAnalyses.open(def.dbFile)!;
    first.keepStoredPromptCount(before.signature, 7);
    first.save();
    assert.equal(PersistedAnalyses.open(def.dbFile)!.keptStoredPromptCount(before.signature), 7);

    const someone = Object.values(demo.sessions).find((s) => s.profile === def.name && s.state !== 'ended')!.id;
    appendMessages(def.dbFile, someone, 1, { now: NOW, seed: 3 });
    const after = databaseFiles(def.dbFile);
    assert.notEqual(after.signature, before.signature, 'a Hermes write shows in the files');
    assert.equal(PersistedAnalyses.open(def.dbFile)!.keptStoredPromptCount(after.signature), undefined);
  });

  it('still holds after another status only read the database', () => {
    // As root, SQLite chowns the WAL it opens to the database's owner, which moves the WAL's ctime
    // without a write; CI and containers run as root.
    const demo = generateDemoHome(path.join(dir, 'home'), { now: NOW, writeManifest: false });
    const def = demo.profiles.find((p) => p.layout === 'v30')!;
    const before = databaseFiles(def.dbFile);
    const store = StateStore.openReadOnly(def.dbFile);
    assert.ok(store.listSessions().length > 0);
    store.close();
    assert.equal(databaseFiles(def.dbFile).signature, before.signature);
  });
});
