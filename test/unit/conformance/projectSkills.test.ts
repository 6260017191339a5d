// Project skills (`skills.trusted_project_dirs`) in homes written by Hermes' own code
// (test/fixtures/hermes-builds, the project-skills folders): the default profile trusts
// work/trusted, whose .hermes/skills and .agents/skills Hermes from 0.20.3 listed first in the
// sessions started inside it; 0.19.1 listed none, nor did any build for work/untrusted, work/empty
// or the work profile (which trusts nothing). Which sessions an edit makes stale is read from what
// Hermes itself did (the manifest's sessions and their stored prompts), never from our renderer.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database = require('better-sqlite3');
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { MarkupContent } from 'vscode-languageserver/node';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { diagnoseDocument } from '../../../server/lsp/features/diagnostics';
import { provideHover } from '../../../server/lsp/features/hover';
import { pathToUri } from '../../../server/lsp/uri';
import { buildOf, corpusFolders, corpusManifest, versionAtLeast, type CorpusHome, type CorpusSession } from '../../support/hermesCorpus';
import { corpusModelPerTest } from '../../support/corpusModel';

const NOW = 1_795_000_000;
const REVIEW = 'work/trusted/.hermes/skills/review/SKILL.md';
const PROJECT_DEPLOY = 'work/trusted/.hermes/skills/devops/deploy/SKILL.md';
const PROFILE_DEPLOY = 'home/skills/devops/deploy/SKILL.md';

const folders = corpusFolders('project-skills');

describe('conformance: project skills, the corpus', () => {
  it('has homes written by a build that lists them and by one that does not', () => {
    const builds = folders.flatMap((folder) => corpusManifest(folder).builds.map((b) => b.version));
    assert.ok(builds.some((v) => versionAtLeast(v, '0.20.3')), builds.join(', '));
    assert.ok(builds.some((v) => !versionAtLeast(v, '0.20.3')), builds.join(', '));
  });
});

for (const folder of folders) {
  describe(`conformance: project skills of skills.trusted_project_dirs, home written by Hermes ${folder}`, function () {
    this.timeout(30000);
    const current = corpusModelPerTest(folder, NOW);

    /** The live sessions whose stored prompt, as Hermes wrote it, lists the trusted project's skills. */
    const listing = () => liveSessions(current.corpus).filter((s) => storedPrompt(current.corpus, s).includes('[project] '));
    /** The status of every live session, with the files their reasons name, as `hermes-lens status` reads them. */
    const reasonsNow = () => {
      const home = readHome({ root: current.corpus.home, origin: 'argument' });
      const out = new Map<string, string[]>();
      for (const profile of ['default', 'work']) {
        for (const s of analyzeProfile(selectProfile(home, profile), { now: NOW }).report.sessions) {
          if (s.state === 'ended' || s.state === 'no-prompt') continue;
          out.set(s.id, s.reasons.map((r) => `${r.change} ${path.relative(current.corpus.root, r.path)}: ${r.detail}`));
        }
      }
      return out;
    };
    const described = (rel: string, description: string) => fs.readFileSync(current.corpus.at(rel), 'utf8').replace(/^description: .*$/m, `description: ${description}`);

    it("Hermes listed the project's skills exactly where its build reads them: in the trusted project, from 0.20.3", () => {
      const expected = liveSessions(current.corpus).filter((s) => s.profile === 'default' && s.cwd!.startsWith('work/trusted') && versionAtLeast(buildOf(current.corpus, s.written_by).version, '0.20.3'));
      assert.deepEqual(ids(listing()), ids(expected));
    });

    it('the untouched home has no stale session', () => {
      const reasons = reasonsNow();
      assert.equal(reasons.size, liveSessions(current.corpus).length);
      for (const [id, list] of reasons) assert.deepEqual(list, [], id);
    });

    it("a project skill's description edited: exactly the sessions whose prompt lists it are stale, because of that file", () => {
      fs.writeFileSync(current.corpus.at(REVIEW), described(REVIEW, 'Review a change against the new checklist.'));
      const stale = [...reasonsNow()].filter(([, list]) => list.length > 0);
      assert.deepEqual(stale.map(([id]) => id).sort(), ids(listing()));
      for (const [id, list] of stale) assert.deepEqual(list, [`changed ${REVIEW}: code-review: description`], id);
    });

    it("the profile's skill the project shadows: its edit makes stale the sessions outside the project and those of older builds, not those listing the project's", () => {
      fs.writeFileSync(current.corpus.at(PROFILE_DEPLOY), described(PROFILE_DEPLOY, 'Deploy a service, the new way.'));
      const shadowing = new Set(ids(listing()));
      const expected = liveSessions(current.corpus).filter((s) => s.profile === 'default' && !shadowing.has(s.id));
      const stale = [...reasonsNow()].filter(([, list]) => list.length > 0);
      assert.deepEqual(stale.map(([id]) => id).sort(), ids(expected));
      for (const [id, list] of stale) assert.deepEqual(list, [`changed ${PROFILE_DEPLOY}: deploy: description`], id);
    });

    it("the .agents/skills code-review that .hermes/skills' shadows, and a project's DESCRIPTION.md: their edits change no session", () => {
      const shadowed = 'work/trusted/.agents/skills/code-review/SKILL.md';
      fs.writeFileSync(current.corpus.at(shadowed), described(shadowed, 'Nobody sees this.'));
      const category = 'work/trusted/.hermes/skills/testing/DESCRIPTION.md';
      fs.writeFileSync(current.corpus.at(category), '---\ndescription: Still not read by Hermes.\n---\n');
      for (const [id, list] of reasonsNow()) assert.deepEqual(list, [], id);
    });

    it('the language server: the file is a skill of the sessions listing it, its save preview says what saving does, and the save is picked up', () => {
      const model = current.model;
      const file = current.corpus.at(REVIEW);
      assert.equal(model.classify(file)?.kind, 'skill');
      assert.equal(model.classify(current.corpus.at('work/trusted/.hermes/skills/testing/DESCRIPTION.md')), undefined, 'Hermes reads no DESCRIPTION.md of a project');
      assert.equal(model.classify(current.corpus.at('work/untrusted/.hermes/skills/ops/rotate-keys/SKILL.md')), undefined, 'an untrusted project feeds no prompt');
      assert.ok(model.projectSkillDirs().includes(fs.realpathSync(current.corpus.at('work/trusted/.hermes/skills'))), 'the folder is watched');
      const role = model.roleOf(file)!;
      assert.deepEqual(role.uses.flatMap((u) => u.sessions.map((s) => s.id)).sort(), ids(listing()));
      const older = liveSessions(current.corpus).filter((s) => s.profile === 'default' && s.cwd!.startsWith('work/trusted')).length - listing().length;
      assert.equal(role.notLoadedByTheirBuild ?? 0, older);
      const text = described(REVIEW, 'Review a change against the new checklist.');
      const preview = model.previewSave(file, text)!;
      assert.deepEqual(preview.sessions.filter((p) => p.staleAfter).map((p) => p.session.id).sort(), ids(listing()));
      fs.writeFileSync(file, text);
      model.sourcesChanged([file]);
      const stale = model.profiles().flatMap((a) => a.report.sessions).filter((s) => s.reasons.some((r) => r.path === file)).map((s) => s.id).sort();
      assert.deepEqual(stale, ids(listing()));
      const staleAtAll = model.profiles().flatMap((a) => a.report.sessions).filter((s) => s.state === 'stale').map((s) => s.id).sort();
      assert.deepEqual(staleAtAll, ids(listing()));
    });

    it("the hover shows the project skill's index line, with its tag, and the sessions of builds that list none", () => {
      const file = current.corpus.at(PROJECT_DEPLOY);
      const document = TextDocument.create(pathToUri(file), 'markdown', 1, fs.readFileSync(file, 'utf8'));
      const hover = (provideHover(current.model, document, { textDocument: { uri: document.uri }, position: { line: 1, character: 0 } })!.contents as MarkupContent).value;
      assert.match(hover, /- deploy: \[project\] Deploy this project with its own release script\./);
      assert.match(hover, new RegExp(`Carried by \\*\\*${listing().length}\\*\\* live session`));
      const older = liveSessions(current.corpus).filter((s) => s.profile === 'default' && s.cwd!.startsWith('work/trusted')).length - listing().length;
      if (older > 0) assert.match(hover, new RegExp(`${older} other live sessions? in its folder (was|were) started by a Hermes build that does not load it`));
      else assert.doesNotMatch(hover, /does not load it/);
    });

    it("the .agents/skills code-review's diagnostics say the .hermes/skills one wins; the others' say nothing of names", () => {
      const messages = (rel: string) => {
        const file = current.corpus.at(rel);
        const document = TextDocument.create(pathToUri(file), 'markdown', 1, fs.readFileSync(file, 'utf8'));
        return diagnoseDocument(current.model, document).map((d) => String(d.message));
      };
      assert.equal(messages('work/trusted/.agents/skills/code-review/SKILL.md').filter((m) => /A project skill named "code-review" comes first/.test(m)).length, 1);
      for (const rel of [REVIEW, PROJECT_DEPLOY, 'work/trusted/.agents/skills/lint/SKILL.md']) assert.deepEqual(messages(rel).filter((m) => /named "/.test(m)), [], rel);
    });
  });
}

function liveSessions(corpus: CorpusHome): CorpusSession[] {
  return corpus.manifest.sessions.filter((s) => !s.ended);
}

function ids(sessions: readonly CorpusSession[]): string[] {
  return sessions.map((s) => s.id).sort();
}

/** A session's stored prompt, as Hermes wrote it (inline or in system_prompts). */
function storedPrompt(corpus: CorpusHome, session: CorpusSession): string {
  const db = new Database(path.join(corpus.profileDir(session.profile), 'state.db'), { readonly: true });
  try {
    const hashed = (db.prepare("SELECT name FROM pragma_table_info('sessions') WHERE name = 'system_prompt_hash'").get() as unknown) !== undefined;
    const row = (hashed
      ? db.prepare('SELECT COALESCE(p.prompt, s.system_prompt) AS prompt FROM sessions s LEFT JOIN system_prompts p ON p.hash = s.system_prompt_hash WHERE s.id = ?').get(session.id)
      : db.prepare('SELECT system_prompt AS prompt FROM sessions WHERE id = ?').get(session.id)) as { prompt: string | null } | undefined;
    return row?.prompt ?? '';
  } finally {
    db.close();
  }
}
