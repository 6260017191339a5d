// A folder with AGENTS.md and AGENTS.override.md, in homes written by Hermes' own code
// (test/fixtures/hermes-builds, work/repo-e): which sessions each file feeds depends on the build
// that started them, and the language server's hover, diagnostics and save preview follow what
// each session's prompt carries (the manifest's context_files, read from Hermes' own prompts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { MarkupContent } from 'vscode-languageserver/node';
import { diagnoseDocument } from '../../../server/lsp/features/diagnostics';
import { provideHover } from '../../../server/lsp/features/hover';
import { pathToUri } from '../../../server/lsp/uri';
import { corpusFolders } from '../../support/hermesCorpus';
import { corpusModelPerTest } from '../../support/corpusModel';

const NOW = 1_795_000_000;
const AGENTS = 'work/repo-e/AGENTS.md';
const OVERRIDE = 'work/repo-e/AGENTS.override.md';

for (const folder of corpusFolders()) {
  describe(`conformance: AGENTS.md beside AGENTS.override.md in the language server, home written by Hermes ${folder}`, function () {
    this.timeout(30000);
    const current = corpusModelPerTest(folder, NOW);

    /** The live sessions whose prompt, as Hermes wrote it, carries `file`. */
    const carrying = (file: string) => current.corpus.manifest.sessions.filter((s) => s.cwd === 'work/repo-e' && !s.ended && s.context_files.includes(file)).map((s) => s.id).sort();

    it('the hover counts, for each file, the sessions whose prompt carries it', () => {
      assert.ok(carrying(AGENTS).length + carrying(OVERRIDE).length > 0, 'sessions in work/repo-e');
      for (const file of [AGENTS, OVERRIDE]) {
        const role = current.model.roleOf(current.corpus.at(file))!;
        assert.deepEqual(role.uses.flatMap((u) => u.sessions.map((s) => s.id)).sort(), carrying(file), file);
        // AGENTS.md is "not in any prompt" only where no session's build loaded it; the override is
        // what today's Hermes loads, so never that, even where older builds started every session.
        assert.equal(role.shadowedBy !== undefined, file === AGENTS && carrying(file).length === 0, file);
      }
    });

    it('the hover says which sessions a build difference leaves out, and what today\'s Hermes loads', () => {
      const hoverOf = (file: string) => {
        const document = TextDocument.create(pathToUri(current.corpus.at(file)), 'markdown', 1, fs.readFileSync(current.corpus.at(file), 'utf8'));
        const hover = provideHover(current.model, document, { textDocument: { uri: document.uri }, position: { line: 0, character: 0 } })!;
        return (hover.contents as MarkupContent).value;
      };
      const live = current.corpus.manifest.sessions.filter((s) => s.cwd === 'work/repo-e' && !s.ended).length;
      const skipped = live - carrying(OVERRIDE).length;
      assert.equal(/(\d+) other live sessions? in its folder (was|were) started by a Hermes build that does not load it/.exec(hoverOf(OVERRIDE))?.[1], skipped ? String(skipped) : undefined);
      const agents = hoverOf(AGENTS);
      if (carrying(AGENTS).length === 0) assert.match(agents, /not in any prompt/);
      else assert.match(agents, /Hermes from 0\.20\.3 on loads `AGENTS\.override\.md` instead; these sessions were started by a build that loads this file\./);
    });

    it("AGENTS.md is said to load nothing only where no session's build loaded it", () => {
      const file = current.corpus.at(AGENTS);
      const document = TextDocument.create(pathToUri(file), 'markdown', 1, fs.readFileSync(file, 'utf8'));
      const shadowed = diagnoseDocument(current.model, document).filter((d) => /No session loads this file/.test(String(d.message)));
      assert.equal(shadowed.length, carrying(AGENTS).length === 0 ? 1 : 0);
    });

    it('the save preview of either file makes stale the sessions that carry it, as saving does', () => {
      for (const file of [AGENTS, OVERRIDE]) {
        const path = current.corpus.at(file);
        const text = `${fs.readFileSync(path, 'utf8')}\nTickets live in the PAY project.\n`;
        const preview = current.model.previewSave(path, text)!;
        const previewed = preview.sessions.filter((p) => p.staleAfter).map((p) => p.session.id).sort();
        assert.deepEqual(previewed, carrying(file), `preview of ${file}`);
        fs.writeFileSync(path, text);
        current.model.sourcesChanged([path]);
        const saved = current.model.profiles().flatMap((a) => a.report.sessions).filter((s) => s.reasons.some((r) => r.path === path)).map((s) => s.id).sort();
        assert.deepEqual(saved, carrying(file), `saved ${file}`);
      }
    });
  });
}
