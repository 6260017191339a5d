// The language server over stdio on a home two Hermes builds wrote (test/fixtures/hermes-builds):
// what an editor shows of Hermes' own data, not of homes our renderer made.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol/node';
import { OTHER_BUILD, RefreshPreviewRequest, type SessionListResult, type StatusParams } from '../../shared/protocol';
import { copyCorpusHome, type CorpusHome } from '../support/hermesCorpus';
import { TestLspClient } from '../support/lspClient';

describe('language server over stdio on a home Hermes 0.19.1 and 0.20.3 wrote', function () {
  this.timeout(60_000);
  let corpus: CorpusHome;
  let client: TestLspClient;
  beforeEach(() => {
    corpus = copyCorpusHome('mixed-v0.19.1-then-v0.20.3');
    client = new TestLspClient({ home: corpus.home });
  });
  afterEach(() => {
    client.kill();
    corpus.remove();
  });

  it('shows no stale session, and marks the old build\'s sessions once each', async () => {
    await client.initialize({ isTrusted: true });
    const status = await client.waitFor<StatusParams>('hermes/status');
    const list = await client.waitFor<SessionListResult>('hermes/sessionListChanged');
    assert.equal(status.stale, 0);
    const byBuild = new Map(corpus.manifest.sessions.map((s) => [s.id, s.written_by]));
    const live = list.profiles.flatMap((p) => p.sessions).filter((s) => s.state !== 'ended');
    assert.ok(live.length > 0);
    for (const s of live) {
      assert.equal(s.state, 'fresh', s.id);
      assert.equal(s.otherBuild !== null, byBuild.get(s.id)!.startsWith('v0.19'), `${s.id}: ${s.otherBuild}`);
    }
  });

  it('hovers SOUL.md with how many sessions another build wrote, and after an edit counts them stale', async () => {
    await client.initialize({ isTrusted: true });
    await client.waitFor<SessionListResult>('hermes/sessionListChanged');
    const soul = path.join(corpus.home, 'SOUL.md');
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const before = ((await client.hover(uri, 2, 1)) as Hover).contents as MarkupContent;
    assert.match(before.value, new RegExp(`\\d+ of them were ${OTHER_BUILD}`));
    assert.match(before.value, /already holds this version/);
    const edited = fs.readFileSync(soul, 'utf8').replace('You are Ada,', 'You are Ada Lovelace,');
    fs.writeFileSync(soul, edited);
    await client.save(uri);
    const after = await client.waitFor<SessionListResult>('hermes/sessionListChanged', (l) => l.profiles.some((p) => p.stale > 0));
    const defaults = after.profiles.find((p) => p.name === 'default')!;
    const live = defaults.sessions.filter((s) => s.state !== 'ended');
    assert.equal(defaults.stale, live.length);
    for (const s of live) assert.deepEqual(s.reasons.map((r) => r.path), [soul], s.id);
  });

  it('watches the skills folder of skills.external_dirs: an edit written there, with no editor, makes the sessions stale because of it', async () => {
    await client.initialize({ isTrusted: true });
    await client.waitFor<SessionListResult>('hermes/sessionListChanged');
    const pager = corpus.at('work/team-skills/oncall/pager/SKILL.md');
    fs.writeFileSync(pager, fs.readFileSync(pager, 'utf8').replace(/^description: .*$/m, 'description: Answer a page within two minutes.'));
    const after = await client.waitFor<SessionListResult>('hermes/sessionListChanged', (l) => l.profiles.some((p) => p.stale > 0));
    const live = after.profiles.find((p) => p.name === 'default')!.sessions.filter((s) => s.state !== 'ended');
    assert.ok(live.length > 0);
    for (const s of live) assert.deepEqual(s.reasons.map((r) => [r.path, r.detail]), [[fs.realpathSync(pager), 'pager: description']], s.id);
  });

  it("a profile refresh's confirmation says the fresh sessions another build wrote rebuild with today's text", async () => {
    await client.initialize({ isTrusted: true });
    await client.waitFor<SessionListResult>('hermes/sessionListChanged');
    const hermesMd = corpus.at('work/repo-b/.hermes.md');
    fs.writeFileSync(hermesMd, `${fs.readFileSync(hermesMd, 'utf8')}\nKeep migrations reversible.\n`);
    await client.waitFor<SessionListResult>('hermes/sessionListChanged', (l) => l.profiles.some((p) => p.stale > 0));
    const preview = await client.connection.sendRequest(RefreshPreviewRequest, { profile: 'default', onlyStale: true, strategy: 'epoch' });
    const list = await client.connection.sendRequest('hermes/sessionList', {}) as SessionListResult;
    const fresh = list.profiles.find((p) => p.name === 'default')!.sessions.filter((s) => s.state === 'fresh');
    const others = fresh.filter((s) => s.otherBuild !== null).length;
    assert.ok(others > 0 && others < fresh.length, 'fresh sessions of both builds');
    assert.equal(preview.alsoRebuiltFresh, fresh.length - others);
    assert.match(preview.effect, new RegExp(`${others} fresh sessions were built by another Hermes build: they rebuild with today's build's own text`));
  });
});

describe('language server over stdio on a home with a trusted project, written by Hermes 0.19.1 and then 0.20.3', function () {
  this.timeout(60_000);
  let corpus: CorpusHome;
  let client: TestLspClient;
  beforeEach(() => {
    corpus = copyCorpusHome('project-skills-mixed-v0.19.1-then-v0.20.3');
    client = new TestLspClient({ home: corpus.home });
  });
  afterEach(() => {
    client.kill();
    corpus.remove();
  });

  it("watches the project's skills folder: an edit written there, with no editor, makes exactly 0.20.3's sessions in the project stale because of it", async () => {
    await client.initialize({ isTrusted: true });
    const first = await client.waitFor<SessionListResult>('hermes/sessionListChanged');
    assert.ok(first.profiles.every((p) => p.stale === 0), 'the untouched home has no stale session');
    const review = corpus.at('work/trusted/.hermes/skills/review/SKILL.md');
    fs.writeFileSync(review, fs.readFileSync(review, 'utf8').replace(/^description: .*$/m, 'description: Review against the new checklist.'));
    const after = await client.waitFor<SessionListResult>('hermes/sessionListChanged', (l) => l.profiles.some((p) => p.stale > 0));
    const expected = corpus.manifest.sessions.filter((s) => !s.ended && s.profile === 'default' && s.cwd!.startsWith('work/trusted') && s.written_by.startsWith('v0.20.3')).map((s) => s.id).sort();
    assert.ok(expected.length > 0);
    const stale = after.profiles.flatMap((p) => p.sessions).filter((s) => s.state === 'stale');
    assert.deepEqual(stale.map((s) => s.id).sort(), expected);
    for (const s of stale) assert.deepEqual(s.reasons.map((r) => [r.path, r.detail]), [[fs.realpathSync(review), 'code-review: description']], s.id);
  });
});
