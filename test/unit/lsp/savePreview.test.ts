// What saving an unsaved buffer would do, as the hover, the code lens and the status item show it:
// each preview is checked against what the lens says once the same text is really saved, so the
// preview is the engine's own judgement of the text as the saved file would be.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MarkupContent } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import { renderSkill } from '../../../server/demo/profileFiles';
import type { ProjectBuilder } from '../../../server/demo/projectFiles';
import { provideCodeLenses } from '../../../server/lsp/features/codeLens';
import { provideHover } from '../../../server/lsp/features/hover';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { summarizeRole } from '../../../server/workspace/roleSummary';
import { SavePreviews } from '../../../server/lsp/savePreviews';
import { pathToUri } from '../../../server/lsp/uri';
import type { SavePreviewDto } from '../../../shared/protocol';

const NOW = 1_800_000_000;

describe('lsp: what saving an unsaved buffer would do', () => {
  let dir: string;
  let def: ProfileBuilder;
  let atlas: ProjectBuilder;
  let skill: string;
  let model: HermesModel;
  let previews: SavePreviews;
  let version = 1;
  const soul = () => path.join(def.dir, 'SOUL.md');
  const soulText = 'You are Kit, a terse assistant.\n\nAnswer in English.\n';

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-save-preview-')));
    const home = HomeBuilder.create(path.join(dir, 'home'), { seed: 5 });
    def = home.profile();
    def.writeSoul(soulText);
    skill = def.addSkill({ category: 'devops', name: 'deploy', description: 'Deploy a service', body: 'Step one.\n' });
    def.writeCategoryDescription('devops', 'Shipping and running services');
    def.writeMemory(['The user deploys on Fridays.']);
    atlas = home.addProject(path.join(dir, 'atlas'));
    atlas.agentsMd('.', '# Atlas\n\nRun make test.\n');
    const beacon = home.addProject(path.join(dir, 'beacon'));
    // Three sessions in atlas (one idle for an hour: its cache is cold), one in beacon.
    for (const [cwd, model, idle] of [[atlas.dir, 'claude-sonnet-4-5', 60], [atlas.dir, 'claude-opus-4-5', 90], [atlas.dir, 'claude-sonnet-4-5', 3600], [beacon.dir, 'claude-sonnet-4-5', 30]] as const) {
      def.addSession({ source: 'cli', model, cwd, startedAt: NOW - 7200, lastActivityAt: NOW - idle, messages: 6, promptFromCurrentFiles: true });
    }
    model = new HermesModel(() => NOW);
    model.configure({ home: home.root, profiles: [] });
    previews = new SavePreviews(model);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function buffer(file: string, text: string): TextDocument {
    return TextDocument.create(pathToUri(file), 'markdown', ++version, text);
  }
  function preview(file: string, text: string): SavePreviewDto {
    const shown = previews.of(buffer(file, text));
    assert.ok(shown, `a preview of ${path.basename(file)}`);
    return shown;
  }
  /** What the lens counts once `text` is saved as `file` (then the file is put back). */
  function afterSaving(file: string, text: string) {
    const before = fs.readFileSync(file, 'utf8');
    try {
      fs.writeFileSync(file, text);
      model.sourcesChanged([file]);
      return summarizeRole(model.roleOf(file)!);
    } finally {
      fs.writeFileSync(file, before);
      model.sourcesChanged([file]);
    }
  }
  function assertSameAsSaved(file: string, text: string, shown: SavePreviewDto): void {
    const saved = afterSaving(file, text);
    assert.equal(shown.stale, saved.stale, 'sessions stale because of the file');
    assert.equal(shown.warm, saved.warm, 'of them warm');
    assert.equal(shown.unknownCost, saved.unknownCost);
    assert.ok(Math.abs(shown.costUsd - saved.costUsd) < 1e-9, `cost ${shown.costUsd} vs ${saved.costUsd} once saved`);
  }

  it('counts and prices a SOUL.md edit exactly as the lens does once it is saved', () => {
    const text = soulText + '\nCite the file and line of every claim about code.\n';
    const shown = preview(soul(), text);
    assert.equal(shown.changesPrompt, true);
    assert.equal(shown.stale, 4);
    assert.equal(shown.warm, 3, 'the session idle for an hour has a cold cache');
    assert.match(shown.sentence, /^Saving makes 4 sessions stale \(≈ \$[\d.]+ to refresh now; 3 warm\)\.$/);
    assert.match(shown.short, /^saving makes 4 sessions stale · ≈ \$[\d.]+$/);
    assertSameAsSaved(soul(), text, shown);
  });

  it('says a blank line Hermes strips, or a skill body edit, changes no session’s prompt', () => {
    const blank = preview(soul(), `\n${soulText}\n\n\n`);
    assert.equal(blank.changesPrompt, false);
    assert.equal(blank.sentence, "Saving changes no session's prompt.");
    assert.equal(blank.stale, 0);
    const body = preview(skill, renderSkill({ name: 'deploy', description: 'Deploy a service', body: 'Step one.\nStep two: check the dashboard.\n' }));
    assert.equal(body.short, "saving changes no session's prompt");
  });

  it('counts a skill description edit, a category description edit and a memory entry as the saved files would', () => {
    const description = renderSkill({ name: 'deploy', description: 'Deploy a service and watch its error rate', body: 'Step one.\n' });
    const described = preview(skill, description);
    assert.equal(described.stale, 4);
    assertSameAsSaved(skill, description, described);

    const category = path.join(def.dir, 'skills', 'devops', 'DESCRIPTION.md');
    const categoryText = '---\ndescription: Shipping, running and rolling back services\n---\n';
    const recategorized = preview(category, categoryText);
    assert.equal(recategorized.stale, 4);
    assertSameAsSaved(category, categoryText, recategorized);

    const memory = path.join(def.dir, 'memories', 'MEMORY.md');
    const remembered = 'The user deploys on Fridays.\n§\nThe staging cluster is eu-west.';
    const memorized = preview(memory, remembered);
    assert.equal(memorized.stale, 4);
    assertSameAsSaved(memory, remembered, memorized);
  });

  it('counts on AGENTS.md only the sessions whose project loads it', () => {
    const agents = path.join(atlas.dir, 'AGENTS.md');
    const text = '# Atlas\n\nRun make test, then make lint.\n';
    const shown = preview(agents, text);
    assert.equal(shown.sessions, 3);
    assert.equal(shown.stale, 3);
    assertSameAsSaved(agents, text, shown);
  });

  it('says which stale sessions saving makes current again (the edit that made them stale undone)', () => {
    const edited = soulText + '\nAlways answer in French.\n';
    fs.writeFileSync(soul(), edited);
    model.sourcesChanged([soul()]);
    try {
      assert.equal(summarizeRole(model.roleOf(soul())!).stale, 4);
      const undone = preview(soul(), soulText);
      assert.equal(undone.stale, 0);
      assert.equal(undone.currentAgain, 4);
      assert.equal(undone.sentence, 'Saving makes 4 stale sessions current again.');
      const more = preview(soul(), edited + 'Keep it short.\n');
      assert.equal(more.alreadyStale, 4, 'stale already because of the saved file');
    } finally {
      fs.writeFileSync(soul(), soulText);
      model.sourcesChanged([soul()]);
    }
  });

  it('says, preview after preview while one types, what a preview made from the saved state says', () => {
    const typing = new SavePreviews(model);
    const uri = pathToUri(soul());
    let text = soulText;
    for (const [i, sentence] of ['Cite the file.', 'Name the ticket.', 'Keep it short.'].entries()) {
      text += `\n${sentence}\n`;
      const chained = typing.of(TextDocument.create(uri, 'markdown', 10 + i, text))!;
      const fromSaved = new SavePreviews(model).of(TextDocument.create(uri, 'markdown', 1, text))!;
      assert.deepEqual(chained, fromSaved, `after "${sentence}"`);
    }
  });

  it('leaves the sessions as they are: previewing judges without keeping anything', () => {
    const before = model.profiles()[0]!.report.sessions.map((s) => `${s.id}:${s.state}:${s.deltaTokens}:${s.refreshCostUsd}`);
    preview(soul(), soulText + '\nA sentence never saved.\n');
    assert.deepEqual(model.profiles()[0]!.report.sessions.map((s) => `${s.id}:${s.state}:${s.deltaTokens}:${s.refreshCostUsd}`), before);
    assert.equal(summarizeRole(model.roleOf(soul())!).stale, 0);
  });

  it('has no preview for a buffer that holds what is saved, nor for a file that is no Hermes source', () => {
    assert.equal(previews.of(buffer(soul(), soulText)), undefined);
    const readme = atlas.writeFile('README.md', '# Atlas\n');
    assert.equal(previews.of(buffer(readme, '# Atlas, edited\n')), undefined);
  });

  it('titles the lens of an unsaved file as a preview, without a Refresh, and puts the preview in the hover', () => {
    const text = soulText + '\nName the ticket in every commit message.\n';
    const document = buffer(soul(), text);
    const shown = previews.of(document)!;
    const lenses = provideCodeLenses(model, { textDocument: { uri: document.uri } }, shown);
    assert.deepEqual(lenses.map((l) => l.command!.title), [`Preview (unsaved): ${shown.short}`]);
    assert.match(lenses[0]!.command!.title, /^Preview \(unsaved\): saving makes 4 sessions stale · ≈ \$[\d.]+$/);
    const hover = provideHover(model, document, { textDocument: { uri: document.uri }, position: { line: 0, character: 0 } }, shown);
    const value = (hover!.contents as MarkupContent).value;
    assert.ok(value.includes(`**Preview (unsaved):** ${shown.sentence}`), value);
    // Saved, the same file has the lens of its saved state again.
    assert.match(provideCodeLenses(model, { textDocument: { uri: document.uri } }, previews.of(buffer(soul(), soulText)))[0]!.command!.title, /^All 4 sessions current$/);
  });
});
