// The tool-schema tables (server/hermes/cost/tool-schemas.json, measured by Hermes' own code) and how
// the lens picks one for a session (anatomy/buildOfPrompt.ts).
import * as assert from 'node:assert/strict';
import { buildOfProse, toolTableFor } from '../../../server/hermes/anatomy/buildOfPrompt';
import { averageToolTokens, defaultToolsFor, newestReleaseTable, releaseTableOfVersion, toolBlockSize, toolsetsBySize, toolTableNamed, toolTables } from '../../../server/hermes/cost/toolSchemas';

const KINDS = new Set(['release', 'fork', 'derived']);

describe('cost: the tool-schema tables of the Hermes builds measured', () => {
  it('hold every tool their sessions send, with the build, commit and kind each came from', () => {
    assert.ok(toolTables().length >= 5);
    for (const t of toolTables()) {
      assert.ok(KINDS.has(t.kind), `${t.name}: ${t.kind}`);
      assert.match(t.commit, /^[0-9a-f]{40}$/, t.name);
      for (const name of [...t.sessionTools.cli, ...t.sessionTools.telegram]) assert.ok(t.tools[name] || t.gatewayTools[name], `${t.name}: ${name}`);
      for (const [name, tool] of Object.entries(t.tools)) assert.ok(tool.bytes > 0 && tool.tokens > 0 && tool.tokens < tool.bytes, `${t.name} ${name}`);
    }
  });

  it('tell releases from a fork and a derived build: a version names a release only', () => {
    assert.equal(newestReleaseTable().name, 'v0.20.3-schema26');
    assert.equal(releaseTableOfVersion('0.20.3')?.name, 'v0.20.3-schema26', 'not the derived build of the same version');
    assert.equal(releaseTableOfVersion('0.20.4'), undefined, 'the fork is no Hermes 0.20.4');
    assert.equal(releaseTableOfVersion(undefined), undefined);
  });

  it('size a tool block as Hermes counts tools.json_bytes: the tools\' JSON, brackets and separators; each tool once', () => {
    const t = toolTableNamed('v0.20.3-schema26')!;
    const [a, b] = [t.tools.terminal!, t.tools.memory!];
    assert.deepEqual(toolBlockSize(t, ['terminal', 'memory', 'terminal']), { count: 2, bytes: a.bytes + b.bytes + 4, tokens: a.tokens + b.tokens, estimated: [] });
    assert.deepEqual(toolBlockSize(t, []), { count: 0, bytes: 2, tokens: 0, estimated: [] });
  });

  it('count a tool no table knows (an MCP server\'s) at the build\'s average, and say so', () => {
    const t = toolTableNamed('v0.20.3-schema26')!;
    const size = toolBlockSize(t, ['terminal', 'mcp_github_create_issue']);
    assert.deepEqual(size.estimated, ['mcp_github_create_issue']);
    assert.equal(size.tokens, t.tools.terminal!.tokens + averageToolTokens(t));
    assert.deepEqual(toolsetsBySize(t, ['mcp_github_create_issue']).map((s) => s.toolset), ['(unknown)']);
  });

  it('give a session without recorded tools its surface\'s default list, less agent.disabled_toolsets', () => {
    const t = toolTableNamed('v0.20.3-schema26')!;
    assert.equal(defaultToolsFor(t, 'cli'), t.sessionTools.cli);
    assert.equal(defaultToolsFor(t, 'tui'), t.sessionTools.cli);
    assert.equal(defaultToolsFor(t, 'telegram'), t.sessionTools.telegram);
    assert.equal(defaultToolsFor(t, 'discord'), t.sessionTools.telegram);
    const lean = defaultToolsFor(t, 'cli', ['todo']);
    assert.deepEqual([...lean], t.sessionTools.cli.filter((n) => n !== 'todo'));
    assert.equal(defaultToolsFor(t, 'cli', ['todo']), lean, 'one list per build, surface and toolsets: the sessions share it');
  });

  it("pick the table of the prompt's build, else the installed release's, else the newest release", () => {
    assert.deepEqual([toolTableFor(undefined, '0.19.1').table.name, toolTableFor(undefined, '0.19.1').by], ['v0.19.1-schema24', 'installed']);
    assert.deepEqual([toolTableFor('', '9.9.9').table.name, toolTableFor('', '9.9.9').by], ['v0.20.3-schema26', 'newest']);
    assert.equal(buildOfProse('gdeadbeefdeadbeef'), undefined, 'prose no build writes');
  });
});
