// Re-evaluation as the language server does it — one cache per profile, a read connection kept
// open, only the sources a change feeds dropped, only changed session rows read again — must report
// exactly what a fresh evaluation reports, after every kind of change.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { adoptRefresh, appendMessages, hermesWrite, startSession } from '../../../server/demo/hermes';
import { AnalysisCache } from '../../../server/hermes/engine/analysisCache';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { KeptConnection, type SessionScan } from '../../../server/hermes/engine/keptConnection';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import type { Profile } from '../../../server/hermes/model';
import { requestRefresh } from '../../../server/hermes/refresh/requestRefresh';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_795_000_000;

describe('engine: incremental re-evaluation equals a fresh one', function () {
  this.timeout(60000);
  let dir: string;
  let demo: DemoManifest;
  const caches = new Map<string, { cache: AnalysisCache; connection: KeptConnection }>();
  beforeEach(() => {
    dir = tempDir('hermes-incremental-');
    demo = generateDemoHome(dir, { now: NOW, writeManifest: false });
  });
  afterEach(() => {
    for (const { connection } of caches.values()) connection.close();
    caches.clear();
    removeDir(dir);
  });

  function profiles(): Profile[] {
    const home = readHome({ root: demo.root, origin: 'argument' });
    return ['default', 'work'].map((name) => selectProfile(home, name));
  }

  /** Every profile, both ways; `change` says what the cache is told (commits it finds itself). */
  function check(label: string, change: { sources?: string[]; scan?: SessionScan } = {}, includeEnded = false, now = NOW): void {
    for (const profile of profiles()) {
      const key = `${profile.name}:${includeEnded}`;
      let server = caches.get(key);
      if (!server) caches.set(key, (server = { cache: new AnalysisCache(), connection: new KeptConnection() }));
      if (change.sources) server.cache.sourcesChanged(change.sources);
      const kept = analyzeProfile(profile, { now, cache: server.cache, sessions: server.connection.reading(change.scan), includeEnded }).report;
      const fresh = analyzeProfile(profile, { now, includeEnded }).report;
      assert.deepEqual(kept, fresh, `${label} (${profile.name})`);
    }
  }

  for (const includeEnded of [false, true]) {
    it(`after edits, Hermes writes and refresh requests${includeEnded ? ' (ended sessions included)' : ''}`, () => {
      const def = demo.profiles.find((p) => p.name === 'default')!;
      const work = demo.profiles.find((p) => p.name === 'work')!;
      const someone = Object.values(demo.sessions).find((s) => s.profile === 'default' && s.state === 'stale')!.id;
      check('first evaluation', {}, includeEnded);
      check('nothing changed', {}, includeEnded);

      const soul = path.join(def.dir, 'SOUL.md');
      fs.appendFileSync(soul, '\nAnswer in English unless asked otherwise.\n');
      check('SOUL.md edited', { sources: [soul] }, includeEnded);

      const skill = demo.edits.find((e) => e.source === 'skill' && e.changesPrompts)!.file;
      fs.writeFileSync(skill, fs.readFileSync(skill, 'utf8').replace(/description: .*/, 'description: Triage incidents and page the owners'));
      check('skill description edited', { sources: [skill] }, includeEnded);

      const agents = path.join(demo.projects.atlas, 'AGENTS.md');
      fs.appendFileSync(agents, '\nKeep pull requests small.\n');
      check('project AGENTS.md edited', { sources: [agents] }, includeEnded);

      const memory = path.join(work.dir, 'memories', 'MEMORY.md');
      fs.appendFileSync(memory, '\n§\nDeploys freeze on Fridays.');
      check('MEMORY.md edited', { sources: [memory] }, includeEnded);

      appendMessages(def.dbFile, someone, 3, { now: NOW - 30, seed: 5 });
      check('Hermes appended messages', {}, includeEnded);

      requestRefresh({ dbFile: def.dbFile, profileName: 'default', sessionIds: [someone] });
      check('refresh requested for a session', {}, includeEnded);

      adoptRefresh(def.dbFile, someone, def.dir, undefined, { builtAt: NOW - 20 });
      check('the session adopted it', {}, includeEnded);

      startSession(def.dbFile, def.dir, { source: 'cli', model: 'gpt-5.1', provider: 'openai', startedAt: NOW - 60, lastActivityAt: NOW - 10, messages: 4 });
      check('Hermes started a session', {}, includeEnded);

      // A session in the middle of the list ends: the sessions after it move up one place.
      const middle = analyzeProfile(profiles()[0]!, { now: NOW }).report.sessions;
      const ending = middle[Math.floor(middle.length / 2)]!.id;
      hermesWrite(def.dbFile, (db) => db.prepare("UPDATE sessions SET ended_at = ?, end_reason = 'cli_close' WHERE id = ?").run(NOW - 5, ending));
      check('Hermes ended a session', { scan: 'full' }, includeEnded);

      requestRefresh({ dbFile: work.dbFile, profileName: 'work' });
      check('refresh requested for a profile', {}, includeEnded);

      // Profile work stores prompts inline (v24): adopting the refresh rewrites one under the same key.
      const workSession = Object.values(demo.sessions).find((s) => s.profile === 'work' && s.promptStorage === 'inline' && s.state !== 'ended')!.id;
      adoptRefresh(work.dbFile, workSession, work.dir, undefined, { builtAt: NOW - 15 });
      check('an inline prompt rewritten in place', {}, includeEnded);

      const config = path.join(def.dir, 'config.yaml');
      fs.appendFileSync(config, '\nprompt_caching:\n  cache_ttl: 1h\n');
      check('config.yaml edited', { sources: [config] }, includeEnded);

      fs.appendFileSync(path.join(demo.projects.beacon, 'notes.txt'), 'not a Hermes source\n');
      check('an unrelated file saved', { sources: [path.join(demo.projects.beacon, 'notes.txt')] }, includeEnded);
    });
  }

  it('a touched scan shows what a Hermes turn or a new session changed; the full scan after it, every other row', () => {
    const def = demo.profiles.find((p) => p.name === 'default')!;
    const live = Object.values(demo.sessions).filter((s) => s.profile === 'default' && s.state !== 'ended' && s.state !== 'no-prompt');
    check('first evaluation');
    appendMessages(def.dbFile, live[0]!.id, 2, { now: NOW - 30, seed: 7 });
    check('a Hermes turn, touched scan', { scan: 'touched' });
    startSession(def.dbFile, def.dir, { source: 'telegram', model: 'claude-sonnet-4-5', startedAt: NOW - 40, lastActivityAt: NOW - 5, messages: 2 });
    check('a new session, touched scan', { scan: 'touched' });
    check('nothing since, touched scan', { scan: 'touched' });

    // A session ended without a message: invisible to the touched scan, found by the full one.
    const ended = live[1]!.id;
    hermesWrite(def.dbFile, (db) => db.prepare('UPDATE sessions SET ended_at = ? WHERE id = ?').run(NOW - 1, ended));
    const [profile] = profiles();
    const { cache, connection } = caches.get(`${profile!.name}:false`)!;
    const touched = analyzeProfile(profile!, { now: NOW, cache, sessions: connection.reading('touched') }).report;
    assert.ok(touched.sessions.some((s) => s.id === ended), 'the touched scan still lists the ended session');
    assert.equal(connection.lastRead?.partial, true);
    check('the full scan that follows', { scan: 'full' });
    assert.equal(connection.lastRead?.partial, false);
  });

  it('as time passes with nothing changed, a session whose prompt cache expired is costed cold', () => {
    check('first evaluation');
    const [def] = profiles();
    const before = analyzeProfile(def!, { now: NOW }).report.sessions.filter((s) => s.state === 'stale' && s.cacheWarm);
    assert.ok(before.length > 0, 'the demo home has stale sessions with a warm cache');
    const later = Math.min(...before.map((s) => s.cacheExpiresAt!)) + 1;
    check('the first cache expired', {}, false, later);
    const after = analyzeProfile(def!, { now: later }).report.sessions;
    const flipped = before.filter((s) => after.find((a) => a.id === s.id)?.cacheWarm === false);
    assert.ok(flipped.length > 0, 'a warm session went cold');
    for (const s of flipped) assert.equal(after.find((a) => a.id === s.id)!.refreshCostUsd, s.refreshCostColdUsd, `${s.id} now costs what it said it would once cold`);
  });

  it('updates a session\'s report where it stands after a save, and counts the reports that changed', () => {
    const [def] = profiles();
    const cache = new AnalysisCache();
    const connection = new KeptConnection();
    caches.set('in-place', { cache, connection });
    const evaluate = () => analyzeProfile(def!, { now: NOW, cache, sessions: connection.reading() });
    const first = evaluate();
    assert.equal(first.changedSessions, first.report.sessions.length, 'the first evaluation makes every report');
    const objects = first.report.sessions.slice();
    const figures = objects.map((s) => JSON.stringify(s));
    assert.equal(evaluate().changedSessions, 0, 'nothing changed: no report changed');

    const soul = path.join(def!.dir, 'SOUL.md');
    fs.appendFileSync(soul, '\nWhen a plan fails, say which step failed.\n');
    cache.sourcesChanged([soul]);
    const after = evaluate();
    const fresh = analyzeProfile(def!, { now: NOW }).report;
    assert.deepEqual(after.report, fresh, 'the reports updated in place say what a fresh evaluation says');
    after.report.sessions.forEach((s, i) => assert.equal(s, objects[i], `${s.id}: the same report object`));
    const changed = after.report.sessions.filter((s, i) => JSON.stringify(s) !== figures[i]);
    assert.ok(changed.length > 0, 'the save changed what some sessions say');
    assert.ok(changed.some((s) => s.reasons.some((r) => r.path === soul)));
    assert.equal(after.changedSessions, changed.length, 'changedSessions counts the reports whose figures moved');
    assert.equal(evaluate().changedSessions, 0, 'and an evaluation after it, with nothing new, none');
  });
});
