// The save preview of a skill that skills.platform_disabled hides on one gateway platform, against
// homes written by Hermes' own code (test/fixtures/hermes-builds; the default profile's config
// hides release-notes on telegram and k8s-debug on the CLI, whose list Hermes' CLI never applies):
// what the hover and code lens say while one types, and that it is what the lens says once saved.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SavePreviews } from '../../../server/lsp/savePreviews';
import { pathToUri } from '../../../server/lsp/uri';
import type { SavePreview } from '../../../server/hermes/engine/savePreview';
import { corpusFolders } from '../../support/hermesCorpus';
import { corpusModelPerTest } from '../../support/corpusModel';

const NOW = 1_795_000_000;

for (const folder of corpusFolders()) {
  describe(`conformance: save previews of a platform-disabled skill, home written by Hermes ${folder}`, function () {
    this.timeout(30000);
    const current = corpusModelPerTest(folder, NOW);

    const skillFile = (name: string) => path.join(current.corpus.profileDir('default'), 'skills', 'devops', name, 'SKILL.md');
    const described = (file: string, description: string) => fs.readFileSync(file, 'utf8').replace(/^description: .*$/m, `description: ${description}`);

    /** The default profile's sessions the preview counts: whether each goes stale because of the file, by id. */
    function staleAfter(preview: SavePreview | undefined): Map<string, boolean> {
      assert.ok(preview, 'a preview');
      const defaultDir = current.corpus.profileDir('default');
      const inDefault = current.model.profiles().find((a) => a.profile.dir === defaultDir)!.report.sessions.map((s) => s.id);
      return new Map(preview.sessions.filter((p) => inDefault.includes(p.session.id)).map((p) => [p.session.id, p.staleAfter]));
    }
    function sourceOf(id: string): string {
      return current.corpus.manifest.sessions.find((s) => s.id === id)!.source;
    }
    /** Which of `ids` the lens finds stale because of `file` once `text` is saved there. */
    function staleOnceSaved(file: string, text: string, ids: Iterable<string>): Map<string, boolean> {
      fs.writeFileSync(file, text);
      current.model.sourcesChanged([file]);
      const sessions = current.model.profiles().flatMap((a) => a.report.sessions);
      return new Map([...ids].map((id) => [id, sessions.find((s) => s.id === id)!.reasons.some((r) => r.path === file)]));
    }

    it('editing a skill telegram hides: the preview makes the other sessions stale and no telegram session, as saving does', () => {
      const file = skillFile('release-notes');
      const text = described(file, 'Write the changelog.');
      const shown = staleAfter(current.model.previewSave(file, text));
      const telegram = [...shown.keys()].filter((id) => sourceOf(id) === 'telegram');
      assert.ok(telegram.length > 0 && telegram.length < shown.size, 'telegram sessions and others');
      for (const [id, stale] of shown) assert.equal(stale, sourceOf(id) !== 'telegram', `${id} (${sourceOf(id)})`);
      assert.deepEqual(shown, staleOnceSaved(file, text, shown.keys()));
    });

    it('the hover and lens count only the sessions whose index lists the skill, preview after preview while one types', () => {
      const file = skillFile('release-notes');
      const previews = new SavePreviews(current.model);
      const uri = pathToUri(file);
      const others = [...staleAfter(current.model.previewSave(file, described(file, 'Write it.'))).keys()].filter((id) => sourceOf(id) !== 'telegram').length;
      for (const [i, description] of ['Write the changelog.', 'Write the changelog and the release notes.', 'Write the release notes.'].entries()) {
        const typed = previews.of(TextDocument.create(uri, 'markdown', 10 + i, described(file, description)))!;
        assert.equal(typed.changesPrompt, true);
        assert.equal(typed.stale, others, `after "${description}"`);
        // The same words as a preview made from the saved state.
        assert.deepEqual(typed, new SavePreviews(current.model).of(TextDocument.create(uri, 'markdown', 1, described(file, description))), `after "${description}"`);
      }
    });

    it("editing the skill the config hides on the CLI: every session goes stale (Hermes' CLI applies no platform's list)", () => {
      const file = skillFile('k8s-debug');
      const text = described(file, 'Debug a pod that keeps restarting.');
      const shown = staleAfter(current.model.previewSave(file, text));
      assert.ok([...shown.keys()].some((id) => sourceOf(id) === 'telegram'));
      for (const [id, stale] of shown) assert.equal(stale, true, `${id} (${sourceOf(id)})`);
      assert.deepEqual(shown, staleOnceSaved(file, text, shown.keys()));
    });
  });
}
