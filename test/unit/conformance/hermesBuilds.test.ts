// The reader against homes written by Hermes' own code at several upstream builds
// (test/fixtures/hermes-builds): what a user sees after each kind of edit, for every build. The
// prompts are Hermes' bytes; only our own edits of the input files make sessions stale.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePrompt } from '../../../server/hermes/anatomy/parsePrompt';
import { promptSizeReport } from '../../../server/hermes/anatomy/promptSize';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { diffPrompt } from '../../../server/hermes/engine/promptDiff';
import type { SessionReport } from '../../../server/hermes/engine/types';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { buildOf, copyCorpusHome, CORPUS_DIR, corpusFolders, versionAtLeast, type CorpusHome } from '../../support/hermesCorpus';

const NOW = 1_795_000_000;

function report(corpus: CorpusHome, profile = 'default') {
  const home = readHome({ root: corpus.home, origin: 'argument' });
  return analyzeProfile(selectProfile(home, profile), { now: NOW });
}

/** The live sessions holding a prompt, by id. */
function live(corpus: CorpusHome, profile = 'default'): Map<string, SessionReport> {
  return new Map(report(corpus, profile).report.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt').map((s) => [s.id, s]));
}

function staleIds(sessions: Map<string, SessionReport>): string[] {
  return [...sessions.values()].filter((s) => s.state === 'stale').map((s) => s.id).sort();
}

function reasonsOf(s: SessionReport): string[] {
  return s.reasons.map((r) => `${r.source} ${r.change}: ${r.detail}`);
}

function edit(file: string, change: (text: string) => string): void {
  const before = fs.readFileSync(file, 'utf8');
  const after = change(before);
  assert.notEqual(after, before, `the edit changes ${file}`);
  fs.writeFileSync(file, after);
}

for (const folder of corpusFolders()) {
  describe(`conformance: a home written by Hermes ${folder}`, function () {
    this.timeout(30000);
    let corpus: CorpusHome;
    beforeEach(() => (corpus = copyCorpusHome(folder)));
    afterEach(() => corpus.remove());

    it('untouched: no session is stale, in any profile', () => {
      for (const profile of Object.keys(corpus.manifest.profiles)) {
        const sessions = live(corpus, profile);
        assert.ok(sessions.size >= 2, `${profile} has live sessions`);
        for (const s of sessions.values()) assert.equal(s.state, 'fresh', `${profile} ${s.id}: ${reasonsOf(s).join('; ')}`);
      }
    });

    it('SOUL.md edited: every live session is stale because of SOUL.md and nothing else', () => {
      edit(path.join(corpus.home, 'SOUL.md'), (t) => t.replace('You are Ada,', 'You are Ada Lovelace,'));
      const sessions = live(corpus);
      for (const s of sessions.values()) assert.deepEqual(reasonsOf(s), ['soul changed: persona text edited'], s.id);
      // The other profile has its own SOUL.md.
      for (const s of live(corpus, 'work').values()) assert.equal(s.state, 'fresh', s.id);
    });

    it("a skill's body edited: no session is stale", () => {
      edit(path.join(corpus.home, 'skills/devops/k8s-debug/SKILL.md'), (t) => `${t}\n## One more step\n\nCheck the node's disk pressure first.\n`);
      assert.deepEqual(staleIds(live(corpus)), []);
    });

    it("one skill's description edited: stale because of that skill only", () => {
      edit(path.join(corpus.home, 'skills/research/papers/arxiv-search/SKILL.md'), (t) => t.replace(/^description: .*$/m, 'description: Search arXiv and bioRxiv for recent papers.'));
      const sessions = live(corpus);
      assert.ok(sessions.size > 0);
      for (const s of sessions.values()) assert.deepEqual(reasonsOf(s), ['skill changed: arxiv-search: description'], s.id);
    });

    it("the flat skill's description edited: stale because of it, under its own folder's name", () => {
      edit(path.join(corpus.home, 'skills/scratchpad/SKILL.md'), (t) => t.replace(/^description: .*$/m, 'description: Keep findings in NOTES.md as you go.'));
      for (const s of live(corpus).values()) {
        assert.deepEqual(s.reasons.map((r) => [r.change, r.detail, path.relative(corpus.home, r.path)]), [['changed', 'scratchpad: description', 'skills/scratchpad/SKILL.md']], s.id);
      }
    });

    it('a skill added: `skill added` for that one, and nothing else', () => {
      const file = path.join(corpus.home, 'skills/devops/canary/SKILL.md');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '---\nname: canary\ndescription: Ship a release to one region first.\n---\n\nSteps.\n');
      for (const s of live(corpus).values()) assert.deepEqual(reasonsOf(s), ['skill added: canary'], s.id);
    });

    it('an AGENTS.md edited: only the sessions whose prompt carries it are stale, because of it', () => {
      const agents = 'work/repo-a/AGENTS.md';
      edit(corpus.at(agents), (t) => `${t}\nAlways run \`make lint\` before committing.\n`);
      for (const profile of Object.keys(corpus.manifest.profiles)) {
        const sessions = live(corpus, profile);
        const carrying = corpus.manifest.sessions.filter((s) => s.profile === profile && !s.ended && s.context_files.includes(agents)).map((s) => s.id);
        assert.deepEqual(staleIds(sessions), carrying.filter((id) => sessions.has(id)).sort(), profile);
        for (const id of carrying) {
          const s = sessions.get(id);
          if (!s) continue;
          assert.deepEqual(s.reasons.map((r) => [r.source, r.change, r.path]), [['project-context', 'changed', corpus.at(agents)]], id);
        }
      }
    });

    it('a skill disabled on telegram only: its edit makes the CLI sessions stale, not the telegram ones', () => {
      edit(path.join(corpus.home, 'skills/devops/release-notes/SKILL.md'), (t) => t.replace(/^description: .*$/m, 'description: Write the changelog.'));
      const sessions = live(corpus);
      assert.ok([...sessions.values()].some((s) => s.source === 'telegram'));
      for (const s of sessions.values()) assert.deepEqual(reasonsOf(s), s.source === 'telegram' ? [] : ['skill changed: changelog-writer: description'], s.id);
    });

    it("telegram's platform_disabled list emptied: only the telegram sessions are stale, for the skill it hid", () => {
      edit(path.join(corpus.home, 'config.yaml'), (t) => t.replace('    telegram: [release-notes]\n', ''));
      for (const s of live(corpus).values()) assert.deepEqual(reasonsOf(s), s.source === 'telegram' ? ['skill added: changelog-writer'] : [], s.id);
    });

    it("the CLI's platform_disabled list is not Hermes' CLI's: dropping it changes no session", () => {
      edit(path.join(corpus.home, 'config.yaml'), (t) => t.replace('    cli: [k8s-debug]\n', ''));
      assert.deepEqual(staleIds(live(corpus)), []);
    });

    it("a sub-folder without AGENTS.md: the git root's AGENTS.md counts only where the session's build loaded it", () => {
      const root = 'work/repo-d/AGENTS.md';
      const sub = corpus.manifest.sessions.filter((s) => s.cwd === 'work/repo-d/src' && !s.ended);
      assert.ok(sub.length > 0);
      let sessions = live(corpus);
      for (const m of sub) {
        const s = sessions.get(m.id)!;
        assert.equal(s.state, 'fresh', `${m.id}: ${reasonsOf(s).join('; ')}`);
        // Builds before the chain loaded nothing there, and the report says why ../AGENTS.md is not in the prompt.
        if (!m.context_files.includes(root)) assert.match(s.otherBuild ?? '', /session's folder only .*not \.\.\/AGENTS\.md/, m.id);
      }
      edit(corpus.at(root), (t) => `${t}\nFlags are kebab-case.\n`);
      sessions = live(corpus);
      for (const m of sub) {
        const s = sessions.get(m.id)!;
        assert.deepEqual(reasonsOf(s), m.context_files.includes(root) ? ['project-context changed: ../AGENTS.md'] : [], m.id);
      }
    });

    it('a parent AGENTS.md written after a session without project context: stale only if its build reads parent folders', () => {
      // work/ becomes a git root with an AGENTS.md above work/empty, where no build loaded anything.
      fs.mkdirSync(corpus.at('work/.git'));
      fs.writeFileSync(corpus.at('work/AGENTS.md'), '# work\n\nEverything under work/ is test data.\n');
      const sessions = live(corpus);
      const inEmpty = corpus.manifest.sessions.filter((m) => m.profile === 'default' && m.cwd === 'work/empty' && sessions.has(m.id));
      assert.ok(inEmpty.length > 0);
      for (const m of inEmpty) {
        const s = sessions.get(m.id)!;
        // From 0.20.3 on Hermes reads the chain from the git root down; 0.19.1 and 0.20.0 write the prose of builds reading the session's folder only.
        const chains = versionAtLeast(buildOf(corpus, m.written_by).version, '0.20.3');
        assert.deepEqual(reasonsOf(s), chains ? ['project-context added: ../AGENTS.md'] : [], m.id);
        if (!chains) assert.match(s.otherBuild ?? '', /may read AGENTS\.md from the session's folder only .*not \.\.\/AGENTS\.md/, m.id);
      }
    });

    it('AGENTS.md beside an AGENTS.override.md: each session is judged by the file its own build loaded', () => {
      const [agents, override] = ['work/repo-e/AGENTS.md', 'work/repo-e/AGENTS.override.md'];
      const inE = corpus.manifest.sessions.filter((m) => m.cwd === 'work/repo-e' && !m.ended);
      assert.ok(inE.length > 0);
      let sessions = live(corpus);
      for (const m of inE) {
        const s = sessions.get(m.id)!;
        assert.equal(s.state, 'fresh', `${m.id}: ${reasonsOf(s).join('; ')}`);
        // A build that never reads the override says so, as it says why ../AGENTS.md is missing.
        if (!m.context_files.includes(override)) assert.match(s.otherBuild ?? '', /reads no AGENTS\.override\.md .*AGENTS\.override\.md is not in its prompt/, m.id);
      }
      for (const file of [override, agents]) {
        edit(corpus.at(file), (t) => `${t}\nTickets live in the PAY project.\n`);
        sessions = live(corpus);
        for (const m of inE) {
          assert.deepEqual(reasonsOf(sessions.get(m.id)!), m.context_files.includes(file) ? [`project-context changed: ${path.basename(file)}`] : [], `${m.id} after an edit of ${file}`);
        }
        fs.writeFileSync(corpus.at(file), fs.readFileSync(path.join(CORPUS_DIR, folder, file), 'utf8'));
      }
    });

    it('focus mode (the work profile): a coding session lists productivity by name only, so only a name change reaches it', () => {
      const file = path.join(corpus.profileDir('work'), 'skills/productivity/standup-notes/SKILL.md');
      const sessions = () => live(corpus, 'work');
      const analysis = report(corpus, 'work');
      const namesOnly = new Set([...sessions().keys()].filter((id) => analysis.anatomyOf(id)!.skillsIndex.lines.some((l) => l.name === 'standup-notes' && l.namesOnly)));
      assert.ok(namesOnly.size > 0 && namesOnly.size < sessions().size, 'coding sessions by name only, the one in work/empty in full');
      // The note Hermes adds after such a list is the session's posture, not another build's text.
      for (const s of sessions().values()) assert.doesNotMatch(s.otherBuild ?? '', /skills index's heading or instructions/, s.id);
      edit(file, (t) => t.replace(/^description: .*$/m, 'description: Three standup lines from the tickets.'));
      for (const s of sessions().values()) assert.deepEqual(reasonsOf(s), namesOnly.has(s.id) ? [] : ['skill changed: standup-notes: description'], s.id);
      edit(file, (t) => t.replace(/^name: .*$/m, 'name: daily-standup'));
      for (const s of sessions().values()) assert.deepEqual(reasonsOf(s).sort(), ['skill added: daily-standup', 'skill removed: standup-notes'], s.id);
      // What a refresh writes keeps the session's way of listing it.
      const after = report(corpus, 'work');
      for (const s of after.report.sessions.filter((r) => r.state === 'stale')) {
        const diff = diffPrompt(after.anatomyOf(s.id)!, after.sourcesFor(s.cwd, s.source));
        assert.ok(diff.after.includes(namesOnly.has(s.id) ? '  productivity [names only]: daily-standup\n' : '    - daily-standup: Three standup lines from the tickets.\n'), s.id);
      }
    });

    it('a memory entry edited: stale because of memory', () => {
      edit(path.join(corpus.home, 'memories/MEMORY.md'), (t) => t.replace('eu-central-1', 'eu-north-1'));
      for (const s of live(corpus).values()) assert.deepEqual(reasonsOf(s), ['memory changed: MEMORY.md entries'], s.id);
    });

    it('prompt-size: the skills index, memory and project context are measured wherever they sit', () => {
      const analysis = report(corpus);
      for (const s of analysis.report.sessions) {
        const anatomy = analysis.anatomyOf(s.id);
        if (!anatomy) continue;
        const text = anatomy.text;
        const rows = new Map(promptSizeReport(anatomy, false).rows.map((r) => [r.label, r.bytes]));
        // The skills block's section: its heading paragraph through the sentence after the list.
        const open = text.indexOf('<available_skills>');
        const heading = text.lastIndexOf('\n\n## ', open) + 2;
        const closing = text.indexOf('\n\n', text.indexOf('</available_skills>') + '</available_skills>\n\n'.length);
        const section = Buffer.byteLength(text.slice(heading, closing < 0 ? text.length : closing));
        assert.ok(Math.abs(rows.get('skills index')! - section) <= section * 0.02, `${s.id}: skills index ${rows.get('skills index')} bytes against ${section}`);
        const banner = '═'.repeat(46);
        assert.ok(rows.get('memory')! > 0 && rows.get('user profile')! > 0, s.id);
        assert.ok(text.includes(`${banner}\nMEMORY`));
        const session = corpus.manifest.sessions.find((m) => m.id === s.id)!;
        assert.equal(rows.get('project context')! > 0, session.context_labels.length > 0, s.id);
      }
    });

    it('diff: a description edit changes the skills index alone, a SOUL.md edit the identity alone', () => {
      edit(path.join(corpus.home, 'skills/devops/deploy/SKILL.md'), (t) => t.replace(/^description: .*$/m, 'description: Ship a service.'));
      let analysis = report(corpus);
      for (const s of analysis.report.sessions.filter((r) => r.state === 'stale')) {
        const diff = diffPrompt(analysis.anatomyOf(s.id)!, analysis.sourcesFor(s.cwd, s.source));
        assert.deepEqual(diff.sections.map((d) => [d.section, d.change]), [['skills-index', 'changed']], s.id);
        assert.ok(diff.sections[0]!.hunks.join('\n').includes('+    - deploy: Ship a service.'), s.id);
        // Only the list moved: the build's own heading and instructions are kept.
        assert.equal(diff.after.length - diff.before.length, 'Ship a service.'.length - 'Deploy a service to staging or production with the releas...'.length, s.id);
      }
      edit(path.join(corpus.home, 'skills/devops/deploy/SKILL.md'), (t) => t.replace('description: Ship a service.', 'description: Deploy a service to staging or production with the release checklist.'));
      edit(path.join(corpus.home, 'SOUL.md'), (t) => t.replace('You are Ada,', 'You are Ada Lovelace,'));
      analysis = report(corpus);
      for (const s of analysis.report.sessions.filter((r) => r.state === 'stale')) {
        const diff = diffPrompt(analysis.anatomyOf(s.id)!, analysis.sourcesFor(s.cwd, s.source));
        assert.deepEqual(diff.sections.map((d) => [d.section, d.change]), [['identity', 'changed']], s.id);
      }
    });

    it("a newer build's text (another heading, an extra guidance paragraph) changes no verdict", () => {
      // What a later Hermes might write: rewrite every stored prompt of this copy, keeping the inputs.
      const newer = (prompt: string) =>
        prompt
          .replace('## Skills (mandatory)\n', '## Skills\n')
          .replace('\n\n<available_skills>', '\n\nSkills may be pinned; an unknown paragraph about skills.\n\n<available_skills>')
          .replace('\n\n# Finishing the job', '\n\n# A brand-new section\nGuidance no build we know writes.\n\n# Finishing the job');
      rewritePrompts(corpus, newer);
      for (const s of live(corpus).values()) assert.equal(s.state, 'fresh', `${s.id}: ${reasonsOf(s).join('; ')}`);
      edit(path.join(corpus.home, 'SOUL.md'), (t) => t.replace('You are Ada,', 'You are Ada Lovelace,'));
      for (const s of live(corpus).values()) assert.deepEqual(reasonsOf(s), ['soul changed: persona text edited'], s.id);
    });

    it('after a /model switch, reports and prices the model the prompt was rebuilt for', () => {
      const switched = corpus.manifest.sessions.filter((s) => s.role === 'model-switched');
      assert.ok(switched.length > 0);
      const sessions = report(corpus).report.sessions;
      for (const m of switched) assert.equal(sessions.find((s) => s.id === m.id)?.model, 'openai/gpt-5.5', m.id);
    });

    it('finds every block of every stored prompt by what it carries', () => {
      const analysis = report(corpus);
      for (const s of analysis.report.sessions) {
        const anatomy = analysis.anatomyOf(s.id);
        if (!anatomy) continue;
        const session = corpus.manifest.sessions.find((m) => m.id === s.id)!;
        assert.deepEqual(anatomy.projectSections.map((p) => p.label), session.context_labels, s.id);
        assert.ok(anatomy.identity.startsWith('# '), `${s.id} opens with its SOUL.md`);
        const skills = new Set(anatomy.skillsIndex.lines.map((l) => `${l.category}/${l.name}`));
        if (session.profile === 'default') {
          // The gateway applies skills.platform_disabled.telegram (release-notes); the CLI applies no platform's list.
          const hidden = session.source === 'telegram' ? ['devops/changelog-writer'] : [];
          // devops/rollback and oncall/pager come from skills.external_dirs.
          const all = ['devops/changelog-writer', 'devops/deploy', 'devops/k8s-debug', 'devops/rollback', 'oncall/pager', 'research/papers/arxiv-search', 'scratchpad/scratchpad'];
          assert.deepEqual([...skills].sort(), all.filter((k) => !hidden.includes(k)), s.id);
        }
        assert.ok(anatomy.memoryBlock && anatomy.userBlock, s.id);
        assert.equal(parsePrompt(anatomy.text).blocks.find((b) => b.kind === 'project-context')?.text.includes('<available_skills>') ?? false, false, `${s.id}: the project context stops before the skills index`);
      }
    });
  });
}

describe('conformance: a home two Hermes builds wrote', function () {
  this.timeout(30000);
  let corpus: CorpusHome;
  beforeEach(() => (corpus = copyCorpusHome('mixed-v0.19.1-then-v0.20.3')));
  afterEach(() => corpus.remove());

  it("says which sessions another build wrote, once each, outside the stale count and cost", () => {
    const analysis = report(corpus);
    const written = new Map(corpus.manifest.sessions.map((s) => [s.id, s.written_by]));
    const newest = corpus.manifest.builds[corpus.manifest.builds.length - 1]!.name;
    for (const s of analysis.report.sessions.filter((r) => r.state !== 'ended')) {
      assert.equal(s.otherBuild !== undefined, written.get(s.id) !== newest, `${s.id} (${written.get(s.id)}): ${s.otherBuild}`);
      assert.equal(s.state, 'fresh');
    }
    assert.equal(analysis.report.totals.stale, 0);
    assert.equal(analysis.report.totals.staleRefreshCostUsd, 0);
  });

  it("an old build's session in a subfolder is not stale for the parent AGENTS.md it never read", () => {
    const analysis = report(corpus);
    const old = corpus.manifest.sessions.find((s) => s.cwd === 'work/repo-a/pkg' && s.profile === 'default' && s.written_by.startsWith('v0.19'))!;
    const s = analysis.report.sessions.find((r) => r.id === old.id)!;
    assert.equal(s.state, 'fresh');
    assert.match(s.otherBuild ?? '', /not \.\.\/AGENTS\.md/);
  });
});

/** Every stored prompt of the copy's default profile rewritten (inline or in system_prompts, hashes kept consistent). */
function rewritePrompts(corpus: CorpusHome, change: (prompt: string) => string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const db = new Database(path.join(corpus.home, 'state.db'));
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'system_prompts'").get() !== undefined;
    db.transaction(() => {
      for (const row of db.prepare('SELECT id, system_prompt FROM sessions WHERE system_prompt IS NOT NULL').all() as Array<{ id: string; system_prompt: string }>) {
        db.prepare('UPDATE sessions SET system_prompt = ? WHERE id = ?').run(change(row.system_prompt), row.id);
      }
      if (!hasTable) return;
      db.pragma('foreign_keys = OFF');
      for (const row of db.prepare('SELECT hash, prompt FROM system_prompts').all() as Array<{ hash: string; prompt: string }>) {
        const text = change(row.prompt);
        const hash = createHash('sha256').update(text, 'utf8').digest('hex');
        db.prepare('INSERT OR IGNORE INTO system_prompts (hash, prompt) VALUES (?, ?)').run(hash, text);
        db.prepare('UPDATE sessions SET system_prompt_hash = ? WHERE system_prompt_hash = ?').run(hash, row.hash);
      }
    })();
  } finally {
    db.close();
  }
}
