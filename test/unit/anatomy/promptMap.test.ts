// The model the prompt anatomy view draws: each part of a stored prompt with the file it comes from
// and the line it starts at, its share, its tier and its stale marks. On the homes Hermes' own code
// wrote (every build of test/fixtures/hermes-builds) and on the demo home, with the manifests and
// the files themselves as the oracle.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome } from '../../../server/demo/demoHome';
import { analyzeProfile, type ProfileAnalysis } from '../../../server/hermes/engine/analyzeProfile';
import { HERMES_TEXT, promptMap, sharesInTenths, type PromptMap, type PromptPart } from '../../../server/hermes/engine/promptMap';
import type { SessionReport } from '../../../server/hermes/engine/types';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { copyCorpusHome, corpusFolders, type CorpusHome } from '../../support/hermesCorpus';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_795_000_000;

function analyze(home: string, profile = 'default', now = NOW): ProfileAnalysis {
  return analyzeProfile(selectProfile(readHome({ root: home, origin: 'argument' }), profile), { now });
}

/** Every live session holding a prompt, with its map. */
function maps(analysis: ProfileAnalysis): Array<{ session: SessionReport; map: PromptMap; text: string }> {
  const live = analysis.report.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt');
  assert.ok(live.length > 0, `${analysis.profile.name} has live sessions with a prompt`);
  return live.map((session) => {
    const anatomy = analysis.anatomyOf(session.id)!;
    assert.ok(anatomy, session.id);
    const map = promptMap({ anatomy, reasons: session.reasons, sources: analysis.sourcesFor(session.cwd), profileDir: analysis.profile.dir, cwd: session.cwd, fs: analysis.fs });
    return { session, map, text: anatomy.text };
  });
}

function lineOf(file: string, line: number | undefined): string | undefined {
  return line === undefined ? undefined : fs.readFileSync(file, 'utf8').split('\n')[line];
}

/** The first line of a file's text that Hermes puts into the prompt: the first non-blank one, after a `.hermes.md` frontmatter. */
function firstContentLine(file: string): number {
  const lines = fs.readFileSync(file, 'utf8').replace(/^\ufeff/, '').split('\n');
  let from = 0;
  if (path.basename(file).toLowerCase().endsWith('hermes.md') && lines[0] === '---') from = lines.indexOf('---', 1) + 1;
  return lines.findIndex((l, i) => i >= from && l.trim() !== '');
}

const byKind = (map: PromptMap, kind: string) => map.parts.filter((p) => p.kind === kind);
const fileParts = (map: PromptMap) => map.parts.filter((p) => p.kind === 'project-context' && p.origin === 'file');
const staleParts = (map: PromptMap) => map.parts.filter((p) => p.stale.length > 0);

/** What holds for every map: shares, order, tiers, and Hermes' own text without a file. */
function checkShape(map: PromptMap, text: string, id: string): void {
  assert.equal(map.parts.reduce((n, p) => n + p.shareTenths, 0), 1000, `${id}: the shares add up to 100%`);
  assert.equal(map.tiers.reduce((n, t) => n + t.shareTenths, 0), 1000, `${id}: the tier shares add up to 100%`);
  let at = 0;
  for (const p of map.parts) {
    assert.ok(p.start >= at && p.end > p.start && p.end <= text.length, `${id}: ${p.kind} in order, inside the prompt`);
    at = p.end;
    const tier = map.tiers.find((t) => t.name === p.tier);
    assert.ok(tier, `${id}: ${p.kind} in a known tier`);
    assert.ok(p.bytes > 0 && p.tokens > 0, `${id}: ${p.kind} has a size`);
    if (p.origin === 'hermes') assert.equal(p.path, undefined, `${id}: ${p.kind} is Hermes' own text, no file`);
  }
  const biggest = [...map.parts].sort((a, b) => b.tokens - a.tokens)[0]!;
  assert.ok(map.parts.every((p) => p.shareTenths <= biggest.shareTenths), `${id}: the largest part has the largest share`);
}

describe('prompt map: shares', () => {
  it('are in tenths of a percent that add up to exactly 1000, by largest remainder', () => {
    assert.deepEqual(sharesInTenths([1, 1, 1]), [334, 333, 333]);
    assert.deepEqual(sharesInTenths([3, 1]), [750, 250]);
    assert.deepEqual(sharesInTenths([1, 0, 2]), [333, 0, 667]);
    assert.deepEqual(sharesInTenths([0, 0]), [0, 0]);
    for (const sizes of [[7, 13, 19, 1, 1, 1], [1000, 1, 1], [5, 5, 5, 5, 5, 5, 5]]) assert.equal(sharesInTenths(sizes).reduce((n, s) => n + s, 0), 1000);
  });
});

for (const folder of corpusFolders()) {
  describe(`prompt map: a home written by Hermes ${folder}`, function () {
    this.timeout(30000);
    let corpus: CorpusHome;
    beforeEach(() => (corpus = copyCorpusHome(folder)));
    afterEach(() => corpus.remove());

    it('each part names the file it comes from and the line it starts at; the rest is Hermes\' own text', () => {
      for (const profile of Object.keys(corpus.manifest.profiles)) {
        const profileDir = corpus.profileDir(profile);
        for (const { session, map, text } of maps(analyze(corpus.home, profile))) {
          const id = `${profile} ${session.id}`;
          checkShape(map, text, id);
          const soul = byKind(map, 'identity');
          assert.equal(soul.length, 1, id);
          assert.equal(soul[0]!.path, path.join(profileDir, 'SOUL.md'), id);
          assert.equal(soul[0]!.line, firstContentLine(soul[0]!.path!), `${id}: SOUL.md opens at its first line of text`);

          // Each context file is a part of its own, as the manifest says Hermes loaded them, in order.
          const manifest = corpus.manifest.sessions.find((s) => s.id === session.id)!;
          const files = fileParts(map);
          assert.deepEqual(files.map((p) => p.label), manifest.context_labels, id);
          assert.deepEqual(files.map((p) => p.path), manifest.context_files.map((f) => corpus.at(f)), id);
          for (const p of files) assert.equal(p.line, firstContentLine(p.path!), `${id}: ${p.label} at its first line of text`);
          if (files.length > 0) assert.equal(map.parts[map.parts.indexOf(files[0]!) - 1]?.label, HERMES_TEXT, `${id}: the Project Context heading is Hermes' own`);

          const skills = byKind(map, 'skills-index');
          assert.equal(skills.length, 1, id);
          assert.equal(skills[0]!.path, path.join(profileDir, 'skills'), id);
          assert.ok(skills[0]!.entries.length > 0, id);
          // The default profile's config.yaml adds work/team-skills (skills.external_dirs).
          const roots = [path.join(profileDir, 'skills'), ...(profile === 'default' ? [fs.realpathSync(corpus.at('work/team-skills'))] : [])];
          for (const e of skills[0]!.entries) {
            assert.ok(e.path && roots.some((root) => e.path!.startsWith(root + path.sep)) && e.path.endsWith('SKILL.md'), `${id}: ${e.name} → ${e.path}`);
            assert.match(lineOf(e.path, e.line) ?? '', /^description:/, `${id}: ${e.name} opens at its description`);
          }

          const memory = byKind(map, 'memory');
          assert.equal(memory.length, 1, id);
          assert.equal(memory[0]!.path, path.join(profileDir, 'memories', 'MEMORY.md'), id);
          assert.equal(memory[0]!.line, 0, id);
          for (const p of map.parts.filter((x) => !['identity', 'project-context', 'skills-index', 'memory', 'user-profile', 'caller-system'].includes(x.kind))) {
            assert.equal(p.label, HERMES_TEXT, `${id}: ${p.kind}`);
          }
          assert.deepEqual(staleParts(map), [], `${id}: untouched, nothing is stale`);
          assert.deepEqual(map.unplaced, [], id);
        }
      }
    });

    it('SOUL.md edited: the identity part is stale because of SOUL.md, and no other part', () => {
      const soul = path.join(corpus.home, 'SOUL.md');
      fs.writeFileSync(soul, fs.readFileSync(soul, 'utf8').replace('You are Ada,', 'You are Ada Lovelace,'));
      for (const { session, map } of maps(analyze(corpus.home))) {
        assert.deepEqual(staleParts(map).map((p) => [p.kind, p.label, p.stale.map((r) => r.path)]), [['identity', 'SOUL.md', [soul]]], session.id);
      }
    });

    it("a skill's description edited: the skills index is stale, and the skill's line points at its description", () => {
      const file = path.join(corpus.home, 'skills/research/papers/arxiv-search/SKILL.md');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Search arXiv and bioRxiv for recent papers.'));
      for (const { session, map } of maps(analyze(corpus.home))) {
        assert.deepEqual(staleParts(map).map((p) => p.kind), ['skills-index'], session.id);
        const stale = byKind(map, 'skills-index')[0]!.entries.filter((e) => e.stale);
        assert.deepEqual(stale.map((e) => [e.name, e.path, e.stale?.path]), [['arxiv-search', file, file]], session.id);
        assert.equal(lineOf(file, stale[0]!.line), 'description: Search arXiv and bioRxiv for recent papers.', session.id);
      }
    });

    it('an AGENTS.md edited: only its own section is stale, in the sessions that carry it', () => {
      const agents = 'work/repo-a/AGENTS.md';
      fs.appendFileSync(corpus.at(agents), '\nAlways run `make lint` before committing.\n');
      let carrying = 0;
      for (const { session, map } of maps(analyze(corpus.home))) {
        const stale = staleParts(map);
        if (!corpus.manifest.sessions.find((s) => s.id === session.id)!.context_files.includes(agents)) {
          assert.deepEqual(stale, [], session.id);
          continue;
        }
        carrying++;
        assert.deepEqual(stale.map((p) => [p.path, p.stale.map((r) => r.change)]), [[corpus.at(agents), ['changed']]], session.id);
      }
      assert.ok(carrying > 0);
    });

    it('memory edited: the memory part is stale because of MEMORY.md', () => {
      const memory = path.join(corpus.home, 'memories/MEMORY.md');
      fs.writeFileSync(memory, fs.readFileSync(memory, 'utf8').replace('eu-central-1', 'eu-north-1'));
      for (const { session, map } of maps(analyze(corpus.home))) {
        assert.deepEqual(staleParts(map).map((p) => [p.kind, p.path]), [['memory', memory]], session.id);
      }
    });

    it('a context file added where the prompt carries none: the reason is kept apart, on no part', () => {
      const added = corpus.at('work/empty/AGENTS.md');
      fs.writeFileSync(added, '# Empty\n\nNothing here yet.\n');
      const model = corpus.manifest.sessions.find((s) => s.profile === 'default' && s.cwd === 'work/empty' && !s.ended)!;
      const { map } = maps(analyze(corpus.home)).find((m) => m.session.id === model.id)!;
      assert.deepEqual(staleParts(map), []);
      assert.deepEqual(map.unplaced.map((r) => [r.source, r.change, r.path]), [['project-context', 'added', added]]);
    });
  });
}

describe('prompt map: the demo home', function () {
  this.timeout(30000);
  let dir: string;
  before(() => (dir = tempDir('hermes-map-')));
  after(() => removeDir(dir));

  it('every stale reason of every session lands on one part or among those apart, and only there', () => {
    const demo = generateDemoHome(path.join(dir, 'demo'));
    let stale = 0;
    for (const profile of demo.profiles) {
      for (const { session, map, text } of maps(analyze(demo.root, profile.name, Math.floor(Date.now() / 1000)))) {
        checkShape(map, text, session.id);
        const marks = [...map.parts.flatMap((p: PromptPart) => p.stale), ...map.unplaced];
        assert.equal(marks.length, session.reasons.length, session.id);
        assert.deepEqual(new Set(marks), new Set(session.reasons), session.id);
        for (const p of staleParts(map)) {
          for (const r of p.stale) {
            if (r.source === 'soul') assert.equal(p.kind, 'identity');
            if (r.source === 'skill' || r.source === 'skill-category') assert.equal(p.kind, 'skills-index');
            if (r.source === 'project-context') assert.equal(p.path, r.path);
          }
        }
        stale += session.reasons.length;
      }
    }
    assert.ok(stale > 0, 'the demo has stale sessions');
  });
});
