// The tool schemas each session of the homes Hermes' own code wrote sent before its system prompt,
// against what the lens prices them at: the table of the build that wrote the session (told by its
// prompt's prose, server/hermes/anatomy/buildOfPrompt.ts) and that build's default tool list for the
// session's surface (these builds keep no `sessions.tool_names`), from the sizes Hermes' own code
// measured (server/hermes/cost/tool-schemas.json). The corpus records what each turn's request
// really carried (manifest `wire`).
import * as assert from 'node:assert/strict';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { toolBlockSize, toolTableNamed } from '../../../server/hermes/cost/toolSchemas';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { copyCorpusHome, corpusFolders, type CorpusHome } from '../../support/hermesCorpus';

const NOW = 1_795_000_000;

for (const folder of corpusFolders('all')) {
  describe(`conformance: the tool schemas of the sessions Hermes ${folder} wrote`, function () {
    this.timeout(30000);
    let corpus: CorpusHome;
    before(() => (corpus = copyCorpusHome(folder)));
    after(() => corpus.remove());

    const reports = () =>
      Object.keys(corpus.manifest.profiles).flatMap((profile) => {
        const home = readHome({ root: corpus.home, origin: 'argument' });
        return analyzeProfile(selectProfile(home, profile), { now: NOW, includeEnded: true }).report.sessions;
      });

    it("each session is priced by the table of the build that wrote it, told by its prompt's prose", () => {
      for (const s of reports()) {
        const written = corpus.manifest.sessions.find((m) => m.id === s.id)!.written_by;
        assert.deepEqual([s.toolTable.build, s.toolTable.by], [written, 'prompt'], s.id);
      }
    });

    it('the tools it prices are those the request carried, and their size is within 1% of what it sent', () => {
      for (const s of reports()) {
        const wire = corpus.manifest.sessions.find((m) => m.id === s.id)!.wire!;
        const table = toolTableNamed(s.toolTable.build)!;
        assert.equal(s.toolTable.recorded, false, `${s.id}: these builds record no tool names`);
        assert.equal(s.toolTable.tools, wire.tool_names.length, `${s.id}: tools`);
        assert.equal(s.toolTable.estimated, 0, s.id);
        const priced = toolBlockSize(table, wire.tool_names, s.source);
        assert.equal(s.toolTokens, priced.tokens, `${s.id}: the tokens of the tools the request carried`);
        assert.ok(Math.abs(priced.bytes - wire.tools_json_bytes) <= wire.tools_json_bytes * 0.01, `${s.id}: ${priced.bytes} bytes priced, ${wire.tools_json_bytes} sent`);
        assert.equal(s.prefixTokens, s.systemPromptTokens + s.toolTokens + s.transcriptTokens, s.id);
      }
    });
  });
}
