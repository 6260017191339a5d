// Hover, code lens and code actions on in-memory documents over a generated home: what a user sees
// on SOUL.md, on a skill (description vs body), and on a context file that another one shadows.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodeAction, CodeLens, MarkupContent } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import type { ProjectBuilder } from '../../../server/demo/projectFiles';
import { provideCodeActions } from '../../../server/lsp/features/codeActions';
import { provideCodeLenses } from '../../../server/lsp/features/codeLens';
import { provideHover } from '../../../server/lsp/features/hover';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { UNTRUSTED_REFRESH_MESSAGE } from '../../../server/workspace/refreshService';
import { pathToUri } from '../../../server/lsp/uri';
import { Commands, type RefreshParams } from '../../../shared/protocol';

const NOW = 1_800_000_000;

describe('lsp: hover, code lens and code actions on in-memory documents', () => {
  let dir: string;
  let home: HomeBuilder;
  let def: ProfileBuilder;
  let project: ProjectBuilder;
  let shadowed: ProjectBuilder;
  let skill: string;
  let model: HermesModel;
  const sessions: string[] = [];

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-hover-')));
    home = HomeBuilder.create(path.join(dir, 'home'), { seed: 3 });
    def = home.profile();
    def.writeSoul('You are Kit, a terse assistant.\n');
    skill = def.addSkill({ category: 'devops', name: 'deploy', description: 'Deploy a service', body: 'Step one.\nStep two.\n' });
    project = home.addProject(path.join(dir, 'atlas'));
    project.agentsMd('.', '# Atlas\n\nRun make test.\n');
    shadowed = home.addProject(path.join(dir, 'beacon'));
    shadowed.hermesMd('.', '# Beacon\n\nUse pnpm.\n');
    shadowed.agentsMd('.', '# Beacon (old)\n');
    for (const [cwd, model] of [[project.dir, 'claude-sonnet-4-5'], [project.dir, 'claude-opus-4-5'], [shadowed.dir, 'claude-sonnet-4-5']] as const) {
      sessions.push(def.addSession({ source: 'cli', model, cwd, startedAt: NOW - 600, lastActivityAt: NOW - 60, messages: 6, promptFromCurrentFiles: true }));
    }
    // Edits after the prompts were stored: SOUL.md for everyone, AGENTS.md for the atlas sessions.
    def.writeSoul('You are Kit, a terse assistant. Answer in English.\n');
    project.agentsMd('.', '# Atlas\n\nRun make test, then make lint.\n');
    model = new HermesModel(() => NOW);
    model.configure({ home: home.root, profiles: [] });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function doc(file: string): TextDocument {
    return TextDocument.create(pathToUri(file), 'markdown', 1, fs.readFileSync(file, 'utf8'));
  }
  function hoverText(file: string, line: number): string {
    const document = doc(file);
    const hover = provideHover(model, document, { textDocument: { uri: document.uri }, position: { line, character: 0 } });
    return (hover?.contents as MarkupContent | undefined)?.value ?? '';
  }
  function lenses(file: string): CodeLens[] {
    return provideCodeLenses(model, { textDocument: { uri: pathToUri(file) } });
  }
  function actions(file: string, trusted = true): CodeAction[] {
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return provideCodeActions(model, { textDocument: { uri: pathToUri(file) }, range, context: { diagnostics: [] } }, trusted);
  }

  it('hovers SOUL.md with the stable tier, its size, the sessions that carry it and the refresh cost', () => {
    const text = hoverText(path.join(def.dir, 'SOUL.md'), 0);
    assert.match(text, /Hermes · stable tier/);
    const bytes = Buffer.byteLength('You are Kit, a terse assistant. Answer in English.', 'utf8');
    assert.match(text, new RegExp(`puts \\*\\*${bytes} bytes\\*\\*`));
    assert.match(text, /Carried by \*\*3\*\* live sessions in 1 profile\./);
    assert.match(text, /\*\*3 stale\*\* because of this file · refreshing them now: \*\*≈ \$\d/);
  });

  it('shows the exact index line on a skill description, and says the body is not in the prompt', () => {
    const description = hoverText(skill, 2);
    assert.match(description, /Enters the prompt as this skills-index line:\n```text\n {4}- deploy: Deploy a service\n```/);
    // Its two costs, as `hermes prompt-size` gives them: the index line's bytes, and the SKILL.md's.
    const indexBytes = Buffer.byteLength('    - deploy: Deploy a service', 'utf8');
    assert.match(description, new RegExp(`Listing it costs \\*\\*${indexBytes} bytes\\*\\* of the skills index on every request; loading it \\(\`skill_view\`\\) reads this SKILL\\.md, \\*\\*${fs.statSync(skill).size} bytes\\*\\*, once\\.`));
    const body = hoverText(skill, 6);
    assert.match(body, /the skill's \*\*body\*\*: it is not in the system prompt/);
    assert.match(body, /Editing it changes no session\./);
  });

  it('puts the stale count and cost at the top of SOUL.md, with a Refresh lens for those sessions', () => {
    const [info, refresh] = lenses(path.join(def.dir, 'SOUL.md'));
    assert.match(info!.command!.title, /^3 sessions stale · ≈ \$[\d.]+ now$/);
    assert.equal(refresh!.command!.title, 'Refresh');
    assert.equal(refresh!.command!.command, Commands.refresh);
    // The profile's refresh: the profile-wide request (its stale sessions are what it costs).
    assert.deepEqual(refresh!.command!.arguments![0] as RefreshParams, { profile: 'default', onlyStale: true });
  });

  it('counts on AGENTS.md only the sessions whose cwd loads it, and marks a shadowed AGENTS.md', () => {
    assert.match(lenses(path.join(project.dir, 'AGENTS.md'))[0]!.command!.title, /^2 sessions stale/);
    assert.match(hoverText(path.join(project.dir, 'AGENTS.md'), 0), /Hermes · context tier/);
    assert.equal(lenses(path.join(shadowed.dir, 'AGENTS.md'))[0]!.command!.title, 'Not loaded by any session: another context file wins');
    assert.match(hoverText(path.join(shadowed.dir, 'AGENTS.md'), 0), /No session loads this file: `.*\.hermes\.md` wins/);
  });

  it('says all sessions are current where a file changed nothing (a skill whose body only was edited)', () => {
    def.editSkill(skill, { body: 'Step one.\nStep two.\nStep three.\n' });
    model.sourcesChanged([skill]);
    assert.equal(lenses(skill)[0]!.command!.title, 'All 3 sessions current');
  });

  it('offers a refresh of the profile first, then one per stale session, each through the refresh command', () => {
    const offered = actions(path.join(def.dir, 'SOUL.md'));
    assert.match(offered[0]!.title, /^Refresh 3 stale sessions in profile default \(≈ \$[\d.]+\)$/);
    assert.deepEqual(offered[0]!.command!.arguments, [{ profile: 'default', onlyStale: true }]);
    assert.equal(offered.length, 4);
    for (const action of offered) assert.equal(action.command!.command, Commands.refresh);
    assert.ok(offered.slice(1).every((a) => /^Refresh session .+ \(\S+, ≈ \$[\d.]+\)$/.test(a.title)));
    assert.deepEqual(offered.slice(1).map((a) => (a.command!.arguments![0] as RefreshParams).sessionIds![0]).sort(), [...sessions].sort());
  });

  it('counts, in the profile action on AGENTS.md, every stale session of the profile: the profile-wide request reaches them all', () => {
    const offered = actions(path.join(project.dir, 'AGENTS.md'));
    const profile = model.profileByName('default')!.report.totals;
    assert.equal(profile.stale, 3, 'SOUL.md made all three stale, AGENTS.md two of them');
    assert.match(offered[0]!.title, /^Refresh 3 stale sessions in profile default /);
    assert.equal(offered.length, 1 + 2, 'then the two sessions AGENTS.md made stale');
  });

  it('disables the refresh actions in an untrusted workspace, with the reason', () => {
    const offered = actions(path.join(def.dir, 'SOUL.md'), false);
    assert.ok(offered.length > 0);
    for (const action of offered) assert.equal(action.disabled?.reason, UNTRUSTED_REFRESH_MESSAGE);
  });

  it('gives nothing for a markdown file that is not a Hermes source', () => {
    const readme = path.join(project.dir, 'README.md');
    fs.writeFileSync(readme, '# Atlas\n');
    assert.equal(hoverText(readme, 0), '');
    assert.deepEqual(lenses(readme), []);
    assert.deepEqual(actions(readme), []);
  });

  // Last: it puts SOUL.md back as the sessions hold it. The figures are kept between evaluations
  // (roleSummary.ts): the next evaluation's must show, never the last one's.
  it('shows the new figures after the next evaluation, in the hover and the lens alike', () => {
    const soul = path.join(def.dir, 'SOUL.md');
    assert.match(hoverText(soul, 0), /\*\*3 stale\*\* because of this file/);
    assert.equal(hoverText(soul, 0), hoverText(soul, 0));
    def.writeSoul('You are Kit, a terse assistant.\n');
    model.sourcesChanged([soul]);
    const after = hoverText(soul, 0);
    assert.doesNotMatch(after, /stale/);
    assert.match(after, /Every session that carries it already holds this version\./);
    assert.deepEqual(lenses(soul).map((l) => l.command?.title), ['All 3 sessions current']);
  });
});
