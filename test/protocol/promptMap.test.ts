// The prompt anatomy view's request over stdio (bundled dist/server.js): a session's stored prompt
// as parts with their files, sizes and stale marks, and never a word of the prompt itself; and the
// hover's link to the view, only for a client that runs such links.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol/node';
import { ClientCommands, PromptAnatomyRequest, PromptMapRequest, type SessionListResult } from '../../shared/protocol';
import { byRecentActivity } from '../../shared/sessionOrder';
import { copyCorpusHome } from '../support/hermesCorpus';
import { TestLspClient } from '../support/lspClient';
import { demoServerPerTest } from './support/demoServer';

const SESSION_LIST = 'hermes/sessionListChanged';

describe('language server over stdio: the prompt anatomy view', function () {
  this.timeout(60_000);
  const fixture = demoServerPerTest('hl-map-');

  it('answers hermes/promptMap with the parts, their files and stale marks, and none of the prompt text', async () => {
    const { client, demo } = fixture;
    await client.initialize({ isTrusted: true });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const soul = path.join(demo.root, 'SOUL.md');
    const session = list.profiles.find((p) => p.name === 'default')!.sessions.find((s) => s.state === 'stale' && s.reasons.some((r) => r.path === soul));
    assert.ok(session, 'the demo has a session made stale by SOUL.md');
    const ref = { profile: 'default', sessionId: session.id };
    const map = await client.connection.sendRequest(PromptMapRequest, ref);

    assert.equal(map.parts.reduce((n, p) => n + p.shareTenths, 0), 1000);
    assert.equal(map.tokens, session.systemPromptTokens);
    const identity = map.parts.find((p) => p.kind === 'identity')!;
    assert.equal(identity.path, soul);
    assert.deepEqual(identity.stale.map((r) => r.path), [soul]);
    const marked = [...map.parts.flatMap((p) => p.stale), ...map.unplaced];
    assert.deepEqual(marked.map((r) => `${r.path} ${r.detail}`).sort(), session.reasons.map((r) => `${r.path} ${r.detail}`).sort());

    // The tool schemas before the prompt: what the session's P counts, by toolset (the view's first block and its hover).
    const tools = map.tools!;
    assert.equal(tools.tokens, session.toolTokens);
    assert.equal(session.prefixTokens >= session.systemPromptTokens + session.toolTokens, true);
    assert.ok(tools.count > 0 && tools.toolsets.length > 0);
    assert.equal(tools.toolsets.reduce((n, t) => n + t.tokens, 0), tools.tokens);
    assert.equal(tools.toolsets.reduce((n, t) => n + t.tools, 0), tools.count);
    assert.equal(tools.recorded, true, 'the demo records each session\'s tool names');
    // Each listed skill: its index line's bytes and its SKILL.md's.
    const skills = map.parts.find((p) => p.kind === 'skills-index')!;
    assert.ok(skills.entries.length > 0);
    for (const e of skills.entries) {
      assert.ok(e.indexBytes! > e.name.length, e.name);
      if (e.path) assert.equal(e.skillMdBytes, fs.statSync(e.path).size, e.name);
    }

    // No paragraph of the stored prompt (nor of SOUL.md) travels with the map.
    const { text } = await client.connection.sendRequest(PromptAnatomyRequest, ref);
    const json = JSON.stringify(map);
    const paragraphs = [...text.split('\n\n'), ...fs.readFileSync(soul, 'utf8').split('\n\n')].map((p) => p.trim()).filter((p) => p.length >= 24);
    assert.ok(paragraphs.length > 5);
    for (const p of paragraphs) assert.ok(!json.includes(JSON.stringify(p).slice(1, 25)), `prompt text in the map: ${p.slice(0, 40)}`);
  });

  it('links the hover of SOUL.md to the view of the newest session, for a client that runs command links only', async () => {
    const { client, demo } = fixture;
    const soul = path.join(demo.root, 'SOUL.md');
    await client.initialize({ isTrusted: true, hoverCommandLinks: true });
    const list = await client.waitFor<SessionListResult>(SESSION_LIST);
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const value = ((await client.hover(uri, 0, 1)) as Hover).contents as MarkupContent;
    const link = new RegExp(`\\(command:${ClientCommands.showPromptAnatomy.replace(/\./g, '\\.')}\\?([^)]+)\\)`).exec(value.value);
    assert.ok(link, value.value);
    const [arg] = JSON.parse(decodeURIComponent(link[1]!)) as Array<{ profile: string; sessionId: string; path: string }>;
    const newest = list.profiles.find((p) => p.name === 'default')!.sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt').sort(byRecentActivity)[0]!;
    assert.deepEqual(arg, { profile: 'default', sessionId: newest.id, path: soul });
  });

  it('puts no command link in the hover of a client that did not ask for them (Neovim, any LSP editor)', async () => {
    const { client, demo } = fixture;
    const soul = path.join(demo.root, 'SOUL.md');
    await client.initialize({ isTrusted: true });
    await client.waitFor(SESSION_LIST);
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const value = ((await client.hover(uri, 0, 1)) as Hover).contents as MarkupContent;
    assert.match(value.value, /stable tier/);
    assert.doesNotMatch(value.value, /command:/);
  });

  it('names the build whose tool sizes the tool row uses: a derived build as ours, never as a Hermes release', async () => {
    const corpus = copyCorpusHome('derived-0.20.3-profile-line-volatile');
    const client = new TestLspClient({ home: corpus.home });
    try {
      await client.initialize({ isTrusted: true });
      await client.waitFor<SessionListResult>(SESSION_LIST);
      const map = await client.connection.sendRequest(PromptMapRequest, { profile: 'default', sessionId: corpus.liveSessions()[0]!.id });
      assert.equal(map.tools!.build, 'derived-0.20.3-profile-line-volatile');
      assert.match(map.tools!.buildTitle, /^a derived build \(derived-0\.20\.3-profile-line-volatile: Hermes 0\.20\.3 with a later change .*not a Hermes release\)$/);
    } finally {
      client.kill();
      corpus.remove();
    }
  });
});
