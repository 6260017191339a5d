// Staleness as a user sees it: build a Hermes home with real state.db files, store prompts the way
// Hermes does, edit files afterwards, and check what the engine says about each session.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { adoptRefresh } from '../../../server/demo/hermes';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import type { SessionSpec } from '../../../server/demo/hermes/sessions';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import type { SessionReport } from '../../../server/hermes/engine/types';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { PROFILE_EPOCH_KEY, sessionEpochKey } from '../../../server/hermes/refresh/epochs';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_795_000_000;

describe('engine: staleness of stored prompts', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-stale-')));
  afterEach(() => removeDir(dir));

  /** A profile with SOUL.md, two skills, memory, an AGENTS chain project and a `.hermes.md` project. */
  function makeHome(layout: 'v30' | 'v24' = 'v30', options: { soul?: boolean } = {}) {
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 21, defaultLayout: layout });
    const p = home.profile();
    if (options.soul ?? true) p.writeSoul('You are Kit, a careful assistant for the Atlas team.\n');
    p.writeCategoryDescription('devops', 'Operate services');
    const deploy = p.addSkill({ category: 'devops', name: 'deploy', description: 'Deploy a service to production' });
    const triage = p.addSkill({ category: 'devops', name: 'triage', description: 'Sort incoming incidents' });
    const memory = p.writeMemory(['Prefers tabs.', 'Runs fish shell.']);
    p.writeUser(['Name: Kim.']);
    const atlas = home.addProject(path.join(dir, 'projects', 'atlas'));
    const atlasRoot = atlas.agentsMd('', '# Atlas\n\nRun npm test before pushing.\n');
    const atlasApi = atlas.agentsMd('services/api', '# API\n\nUse the shared HTTP client.\n');
    const beacon = home.addProject(path.join(dir, 'projects', 'beacon'));
    const beaconHermes = beacon.hermesMd('', 'Beacon: keep every link relative.\n');
    const beaconAgents = beacon.agentsMd('', '# Beacon\n\nThis file is shadowed by .hermes.md.\n');
    return {
      home,
      p,
      files: { soul: path.join(p.dir, 'SOUL.md'), deploy, triage, memory, atlasRoot, atlasApi, beaconHermes, beaconAgents },
      cwd: { atlasApi: atlas.path('services/api'), atlas: atlas.path(), beacon: beacon.path() },
    };
  }

  function addSession(p: ProfileBuilder, spec: Partial<SessionSpec> = {}): string {
    return p.addSession({
      source: 'cli',
      model: 'claude-sonnet-4-5',
      startedAt: NOW - 3600,
      lastActivityAt: NOW - 120,
      messages: 6,
      promptFromCurrentFiles: true,
      ...spec,
    });
  }

  function sessions(home: HomeBuilder, profile = 'default'): Map<string, SessionReport> {
    const found = readHome({ root: home.root, origin: 'argument' });
    const { report } = analyzeProfile(selectProfile(found, profile), { includeEnded: true, now: NOW });
    assert.equal(report.unavailable, undefined);
    return new Map(report.sessions.map((s) => [s.id, s]));
  }

  const brief = (s: SessionReport) => s.reasons.map((r) => ({ source: r.source, path: r.path, change: r.change }));

  /** The session's report, checked to be stale for SOUL.md alone: soul / SOUL.md / changed. */
  function staleBySoul(home: HomeBuilder, id: string, soul: string): SessionReport {
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'soul', path: soul, change: 'changed' }]);
    return s;
  }

  it('a session built from today\'s files is fresh, with no reasons', () => {
    const { home, p, cwd } = makeHome();
    const id = addSession(p, { cwd: cwd.atlasApi });
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'fresh');
    assert.deepEqual(s.reasons, []);
  });

  it('SOUL.md edited after the prompt was stored → stale, reason soul / SOUL.md / changed', () => {
    const { home, p, files } = makeHome();
    const id = addSession(p);
    p.writeSoul('You are Kit, a careful assistant for the Atlas and Beacon teams.\n');
    const s = staleBySoul(home, id, files.soul);
    assert.ok(s.reasons[0]!.detail.length > 0);
  });

  it('SOUL.md\'s last paragraph deleted after the prompt was stored → stale, soul / changed, ΔS below zero', () => {
    const { home, p, files } = makeHome();
    p.writeSoul('You are Kit, a careful assistant for the Atlas team.\n\nAlways end with a summary of what changed.\n');
    const id = addSession(p);
    assert.equal(sessions(home).get(id)!.state, 'fresh');
    // What is left opens the stored prompt, followed by a blank line: it must not pass for the whole identity.
    p.writeSoul('You are Kit, a careful assistant for the Atlas team.\n');
    const s = staleBySoul(home, id, files.soul);
    assert.ok(s.deltaTokens < 0, `ΔS ${s.deltaTokens}: the rebuilt prompt loses the paragraph`);
  });

  it('SOUL.md created where the prompt holds the default identity → stale, soul / added', () => {
    const { home, p, files } = makeHome('v30', { soul: false });
    const id = addSession(p);
    assert.equal(sessions(home).get(id)!.state, 'fresh', 'the default identity is current while SOUL.md is missing');
    p.writeSoul('You are Kit, a brand new persona.\n');
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'soul', path: files.soul, change: 'added' }]);
  });

  it('a skill body edit leaves sessions fresh (the body is not in the prompt)', () => {
    const { home, p, files } = makeHome();
    const id = addSession(p);
    p.editSkill(files.deploy, { body: '# deploy\n\nEntirely new steps: blue/green, then canary, then full rollout.\n' });
    assert.notEqual(fs.readFileSync(files.deploy, 'utf8').indexOf('blue/green'), -1);
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'fresh');
    assert.deepEqual(s.reasons, []);
  });

  it('a skill description edit → stale, with a reason naming the skill and its SKILL.md', () => {
    const { home, p, files } = makeHome();
    const id = addSession(p);
    p.editSkill(files.deploy, { description: 'Deploy a service with a canary stage first' });
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'skill', path: files.deploy, change: 'changed' }]);
    assert.match(s.reasons[0]!.detail, /\bdeploy\b/);
  });

  it('a new skill → stale, skill / added, naming it', () => {
    const { home, p } = makeHome();
    const id = addSession(p);
    const added = p.addSkill({ category: 'devops', name: 'rollback', description: 'Roll a release back' });
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'skill', path: added, change: 'added' }]);
    assert.match(s.reasons[0]!.detail, /rollback/);
  });

  it('a removed skill → stale, skill / removed, naming it and where its SKILL.md was', () => {
    const { home, p, files } = makeHome();
    const id = addSession(p);
    fs.rmSync(path.dirname(files.triage), { recursive: true });
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'skill', path: files.triage, change: 'removed' }]);
    assert.match(s.reasons[0]!.detail, /triage/);
  });

  it('removing the last skill names the absolute path it had', () => {
    const { home, p, files } = makeHome();
    fs.rmSync(path.dirname(files.deploy), { recursive: true });
    const id = addSession(p);
    fs.rmSync(path.dirname(files.triage), { recursive: true });
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'skill', path: files.triage, change: 'removed' }]);
  });

  it('removing a skill that sat directly under skills/ (category general) names skills/<name>/SKILL.md', () => {
    const { home, p } = makeHome();
    const loose = p.addSkill({ name: 'notes', description: 'Keep meeting notes' });
    assert.equal(loose, path.join(p.dir, 'skills', 'notes', 'SKILL.md'));
    const id = addSession(p);
    fs.rmSync(path.dirname(loose), { recursive: true });
    const s = sessions(home).get(id)!;
    assert.deepEqual(brief(s), [{ source: 'skill', path: loose, change: 'removed' }]);
  });

  it('an AGENTS.md shadowed by .hermes.md is no source: editing it leaves the session fresh', () => {
    const { home, p, files, cwd } = makeHome();
    const id = addSession(p, { cwd: cwd.beacon });
    const prompt = p.session(id)!.prompt!;
    assert.ok(prompt.includes('keep every link relative'), '.hermes.md is what the prompt holds');
    assert.ok(!prompt.includes('shadowed by .hermes.md'), 'AGENTS.md is not loaded');
    fs.writeFileSync(files.beaconAgents, '# Beacon\n\nA completely different instruction set.\n');
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'fresh');
    assert.ok(!s.reasons.some((r) => r.path === files.beaconAgents));
  });

  it('editing the .hermes.md that wins → stale, project-context / changed on that file', () => {
    const { home, p, files, cwd } = makeHome();
    const id = addSession(p, { cwd: cwd.beacon });
    fs.writeFileSync(files.beaconHermes, 'Beacon: keep links absolute now.\n');
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'project-context', path: files.beaconHermes, change: 'changed' }]);
  });

  it('an AGENTS.md of the chain (git root → cwd) edited → stale, project-context / changed on that file', () => {
    const { home, p, files, cwd } = makeHome();
    const id = addSession(p, { cwd: cwd.atlasApi });
    const other = addSession(p, { cwd: cwd.beacon });
    fs.writeFileSync(files.atlasRoot, '# Atlas\n\nRun npm test and npm run lint before pushing.\n');
    const all = sessions(home);
    const s = all.get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'project-context', path: files.atlasRoot, change: 'changed' }]);
    assert.equal(all.get(other)!.state, 'fresh', 'a session in another project is not affected');
  });

  it('MEMORY.md edited → stale, memory / changed', () => {
    const { home, p, files } = makeHome();
    const id = addSession(p);
    p.writeMemory(['Prefers tabs.', 'Runs fish shell.', 'Deploys on Fridays only after noon.']);
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(brief(s), [{ source: 'memory', path: files.memory, change: 'changed' }]);
  });

  it('two edits give two reasons, one per source', () => {
    const { home, p, files } = makeHome();
    const id = addSession(p);
    p.writeSoul('You are Kit, terse.\n');
    p.editSkill(files.triage, { description: 'Sort incidents by severity' });
    const s = sessions(home).get(id)!;
    assert.equal(s.state, 'stale');
    assert.deepEqual(
      brief(s).sort((a, b) => a.source.localeCompare(b.source)),
      [
        { source: 'skill', path: files.triage, change: 'changed' },
        { source: 'soul', path: files.soul, change: 'changed' },
      ],
    );
  });

  it('a requested epoch above the session\'s stamp → pending, until the session adopts it → fresh', () => {
    const { home, p } = makeHome();
    const id = addSession(p);
    const bystander = addSession(p, { modelConfig: { prompt_refresh_epoch: 3 } });
    p.writeSoul('You are Kit, now with a new persona line.\n');
    assert.equal(sessions(home).get(id)!.state, 'stale');

    p.setStateMeta(PROFILE_EPOCH_KEY, '2');
    let all = sessions(home);
    assert.equal(all.get(id)!.state, 'pending');
    assert.equal(all.get(id)!.requestedEpoch, 2);
    assert.equal(all.get(id)!.stampedEpoch, 0);
    assert.equal(all.get(bystander)!.state, 'stale', 'a stamp at or above the request is not pending');

    const adopted = adoptRefresh(p.dbFile, id, p.dir, p.config(), { builtAt: NOW - 60 });
    assert.equal(adopted.epoch, 2);
    all = sessions(home);
    assert.equal(all.get(id)!.state, 'fresh');
    assert.equal(all.get(id)!.stampedEpoch, 2);
  });

  it('a per-session request makes only that session pending', () => {
    const { home, p } = makeHome();
    const a = addSession(p);
    const b = addSession(p);
    p.setStateMeta(sessionEpochKey(a), '1');
    const all = sessions(home);
    assert.equal(all.get(a)!.state, 'pending');
    assert.equal(all.get(b)!.state, 'fresh');
  });

  it('the ended parent of a compaction chain → ended, with the tip where the conversation continues', () => {
    const { home, p, cwd } = makeHome();
    const parent = addSession(p, { cwd: cwd.atlas, startedAt: NOW - 3 * 86400, lastActivityAt: NOW - 2 * 86400, endedAt: NOW - 2 * 86400, endReason: 'compression', messages: 20 });
    const tip = addSession(p, { cwd: cwd.atlas, startedAt: NOW - 2 * 86400, lastActivityAt: NOW - 600, parentSessionId: parent });
    // More recent, but a branch and a tool run are not where the conversation continues.
    addSession(p, { cwd: cwd.atlas, startedAt: NOW - 2 * 86400 + 60, lastActivityAt: NOW - 60, parentSessionId: parent, modelConfig: { _branched_from: parent } });
    addSession(p, { source: 'tool', cwd: cwd.atlas, startedAt: NOW - 2 * 86400 + 120, lastActivityAt: NOW - 30, parentSessionId: parent });
    const all = sessions(home);
    assert.equal(all.get(parent)!.state, 'ended');
    assert.equal(all.get(parent)!.tipSessionId, tip);
    assert.equal(all.get(tip)!.state, 'fresh');
    assert.equal(all.get(tip)!.tipSessionId, undefined);
  });

  it('a session ended for another reason is ended without a tip', () => {
    const { home, p } = makeHome();
    const done = addSession(p, { endedAt: NOW - 600, endReason: 'cli_close' });
    addSession(p, { parentSessionId: done });
    const s = sessions(home).get(done)!;
    assert.equal(s.state, 'ended');
    assert.equal(s.tipSessionId, undefined);
  });

  it('a session without a stored prompt → no-prompt', () => {
    const { home, p } = makeHome();
    const id = addSession(p, { promptFromCurrentFiles: false });
    assert.equal(sessions(home).get(id)!.state, 'no-prompt');
  });

  describe('pre-v25 inline prompts are judged the same way', () => {
    it('v24: fresh, then SOUL.md edit → soul / changed', () => {
      const { home, p, files } = makeHome('v24');
      const id = addSession(p);
      assert.equal(sessions(home).get(id)!.state, 'fresh');
      p.writeSoul('You are Kit, edited.\n');
      staleBySoul(home, id, files.soul);
    });

    it('v24: a skill body edit stays fresh, a description edit is stale', () => {
      const { home, p, files } = makeHome('v24');
      const id = addSession(p);
      p.editSkill(files.deploy, { body: 'New body.\n' });
      assert.equal(sessions(home).get(id)!.state, 'fresh');
      p.editSkill(files.deploy, { description: 'Deploy with care' });
      const s = sessions(home).get(id)!;
      assert.equal(s.state, 'stale');
      assert.deepEqual(brief(s), [{ source: 'skill', path: files.deploy, change: 'changed' }]);
    });

    it('v24: an AGENTS.md chain edit and a MEMORY.md edit → project-context and memory', () => {
      const { home, p, files, cwd } = makeHome('v24');
      const id = addSession(p, { cwd: cwd.atlasApi });
      fs.writeFileSync(files.atlasApi, '# API\n\nUse the new HTTP client.\n');
      p.writeMemory(['Prefers spaces now.']);
      const s = sessions(home).get(id)!;
      assert.deepEqual(
        brief(s).sort((a, b) => a.source.localeCompare(b.source)),
        [
          { source: 'memory', path: files.memory, change: 'changed' },
          { source: 'project-context', path: files.atlasApi, change: 'changed' },
        ],
      );
    });

    it('v24: pending until adoptRefresh stamps the epoch', () => {
      const { home, p } = makeHome('v24');
      const id = addSession(p);
      p.setStateMeta(PROFILE_EPOCH_KEY, '1');
      assert.equal(sessions(home).get(id)!.state, 'pending');
      adoptRefresh(p.dbFile, id, p.dir, p.config(), { builtAt: NOW - 60 });
      assert.equal(sessions(home).get(id)!.state, 'fresh');
    });
  });
});
