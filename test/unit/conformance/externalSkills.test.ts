// skills.external_dirs in homes written by Hermes' own code (test/fixtures/hermes-builds): the
// default profile's config names work/team-skills, whose rollback and pager skills Hermes listed in
// every prompt and whose deploy lost to the profile's own. An edit there makes the sessions stale
// because of that file, as the CLI, the save preview and the language server tell it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnoseDocument } from '../../../server/lsp/features/diagnostics';
import { pathToUri } from '../../../server/lsp/uri';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { corpusFolders } from '../../support/hermesCorpus';
import { corpusModelPerTest } from '../../support/corpusModel';

const NOW = 1_795_000_000;

for (const folder of corpusFolders()) {
  describe(`conformance: skills of skills.external_dirs, home written by Hermes ${folder}`, function () {
    this.timeout(30000);
    const current = corpusModelPerTest(folder, NOW);
    const team = (rel: string) => current.corpus.at(path.join('work/team-skills', rel));
    const described = (file: string, description: string) => fs.readFileSync(file, 'utf8').replace(/^description: .*$/m, `description: ${description}`);
    /** The default profile's live sessions, with the files their reasons name, as `hermes-lens status` reads them. */
    const reasonsNow = () => {
      const home = readHome({ root: current.corpus.home, origin: 'argument' });
      const sessions = analyzeProfile(selectProfile(home, 'default'), { now: NOW }).report.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt');
      assert.ok(sessions.length > 0);
      return new Map(sessions.map((s) => [s.id, s.reasons.map((r) => `${r.change} ${path.relative(current.corpus.root, r.path)}: ${r.detail}`)]));
    };

    it("an external skill's description edited: every session is stale because of that file", () => {
      const file = team('oncall/pager/SKILL.md');
      fs.writeFileSync(file, described(file, 'Answer a page within two minutes.'));
      for (const [id, reasons] of reasonsNow()) assert.deepEqual(reasons, ['changed work/team-skills/oncall/pager/SKILL.md: pager: description'], id);
    });

    it("the external deploy the profile's own shadows: its edit changes no session", () => {
      const file = team('devops/deploy/SKILL.md');
      fs.writeFileSync(file, described(file, 'Another description nobody sees.'));
      for (const [id, reasons] of reasonsNow()) assert.deepEqual(reasons, [], id);
    });

    it('the language server: the file is a skill, its save preview says what saving does, and the save is picked up', () => {
      const file = team('devops/rollback/SKILL.md');
      const model = current.model;
      assert.equal(model.classify(file)?.kind, 'skill');
      assert.ok(model.externalSkillDirs().includes(fs.realpathSync(current.corpus.at('work/team-skills'))), 'the folder is watched');
      const text = described(file, 'Roll back, then tell the release channel.');
      const defaultDir = current.corpus.profileDir('default');
      const inDefault = new Set(model.profiles().find((a) => a.profile.dir === defaultDir)!.report.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt').map((s) => s.id));
      const preview = model.previewSave(file, text)!;
      assert.deepEqual(preview.sessions.filter((p) => p.staleAfter).map((p) => p.session.id).sort(), [...inDefault].sort());
      fs.writeFileSync(file, text);
      model.sourcesChanged([file]);
      const stale = model.profiles().flatMap((a) => a.report.sessions).filter((s) => s.reasons.some((r) => r.path === file)).map((s) => s.id).sort();
      assert.deepEqual(stale, [...inDefault].sort());
    });

    it("the external deploy's diagnostics say the profile's own deploy wins; the others' say nothing of names", () => {
      const messages = (rel: string) => {
        const file = team(rel);
        const document = TextDocument.create(pathToUri(file), 'markdown', 1, fs.readFileSync(file, 'utf8'));
        return diagnoseDocument(current.model, document).map((d) => String(d.message));
      };
      assert.equal(messages('devops/deploy/SKILL.md').filter((m) => /Hermes skips this one from skills\.external_dirs/.test(m)).length, 1);
      for (const rel of ['devops/rollback/SKILL.md', 'oncall/pager/SKILL.md']) assert.deepEqual(messages(rel).filter((m) => /named "/.test(m)), [], rel);
    });
  });
}
