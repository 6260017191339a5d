// package.json's contributions against the ids the client registers (client/ids.ts), plus the
// packaging rules: activation, trust, extension kind, the .vscodeignore whitelist.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ClientCommands } from '../../../shared/protocol';
import { COMMANDS, CONTEXT_KEYS, PROMPT_EXTENSION, PROMPT_LANGUAGE_ID, PROMPT_SCHEME, SESSIONS_VIEW_ID, VIEW_CONTAINER_ID } from '../../../client/ids';
import { packageJson, readRootFile, rootDir } from './packageJson';

describe('client: package.json contributions', () => {
  const pkg = packageJson();
  const contributed: Array<{ command: string; title: string; category: string }> = pkg.contributes.commands;

  it('contributes exactly the commands the client registers, all in category "Hermes"', () => {
    assert.deepEqual(contributed.map((c) => c.command).sort(), Object.values(COMMANDS).sort());
    for (const c of contributed) assert.equal(c.category, 'Hermes', c.command);
  });

  it('only puts known commands in menus', () => {
    const known = new Set<string>(Object.values(COMMANDS));
    for (const [menu, items] of Object.entries(pkg.contributes.menus as Record<string, Array<{ command: string }>>)) {
      for (const item of items) assert.ok(known.has(item.command), `${menu}: ${item.command}`);
    }
  });

  it('hides every write (refresh) from menus in untrusted workspaces', () => {
    for (const [menu, items] of Object.entries(pkg.contributes.menus as Record<string, Array<{ command: string; when?: string }>>)) {
      for (const item of items) {
        if (item.command === COMMANDS.refreshProfile || item.command === COMMANDS.refreshSession) {
          assert.match(item.when ?? '', /isWorkspaceTrusted/, `${menu}: ${item.command}`);
        }
      }
    }
  });

  it('offers refresh actions inline on profile and session nodes', () => {
    const inline = (pkg.contributes.menus['view/item/context'] as Array<{ command: string; group: string; when: string }>).filter((m) =>
      m.group.startsWith('inline'),
    );
    assert.ok(inline.some((m) => m.command === COMMANDS.refreshProfile && showsFor(m.when, 'profile.stale')));
    const refreshSession = inline.filter((m) => m.command === COMMANDS.refreshSession);
    assert.ok(refreshSession.some((m) => showsFor(m.when, 'session.stale') && showsFor(m.when, 'session.stale.whenFree')));
    assert.ok(refreshSession.every((m) => !showsFor(m.when, 'session.fresh')));
  });

  it('offers Cancel Refresh When Free on a session whose refresh waits, and in the view title while any does, hiding nothing else there', () => {
    const items = pkg.contributes.menus['view/item/context'] as Array<{ command: string; when: string }>;
    const cancel = items.filter((m) => m.command === COMMANDS.cancelRefreshWhenFree);
    assert.equal(cancel.length, 1);
    for (const state of ['stale', 'fresh', 'pending']) {
      assert.ok(showsFor(cancel[0]!.when, `session.${state}.whenFree`), state);
      assert.ok(!showsFor(cancel[0]!.when, `session.${state}`), state);
      // A waiting refresh takes no action away from the session's menu.
      for (const m of items) if (m.command !== COMMANDS.cancelRefreshWhenFree && showsFor(m.when, `session.${state}`)) assert.ok(showsFor(m.when, `session.${state}.whenFree`), `${m.command} on ${state}`);
    }
    const title = (pkg.contributes.menus['view/title'] as Array<{ command: string; when: string }>).find((m) => m.command === COMMANDS.cancelRefreshWhenFree);
    assert.ok(title?.when.includes(CONTEXT_KEYS.refreshesScheduled));
  });

  it('offers clearing the stored prompt (trusted only) on a session that did not adopt its refresh, under the id hover links name; it keeps every other action', () => {
    assert.equal(COMMANDS.clearSessionPrompt, ClientCommands.clearSessionPrompt);
    const items = pkg.contributes.menus['view/item/context'] as Array<{ command: string; when: string }>;
    const clear = items.filter((m) => m.command === COMMANDS.clearSessionPrompt);
    assert.equal(clear.length, 2);
    for (const m of clear) {
      assert.ok(m.when.includes('isWorkspaceTrusted'), m.when);
      for (const state of ['stale', 'fresh']) {
        assert.ok(showsFor(m.when, `session.${state}.notAdopted`) && showsFor(m.when, `session.${state}.notAdopted.whenFree`), state);
        assert.ok(!showsFor(m.when, `session.${state}`), state);
      }
    }
    for (const m of items) {
      if (m.command === COMMANDS.clearSessionPrompt) continue;
      for (const value of ['session.stale', 'session.fresh', 'session.stale.whenFree']) {
        if (showsFor(m.when, value)) assert.ok(showsFor(m.when, value.replace(/^(session\.\w+)/, '$1.notAdopted')), `${m.command} on ${value}.notAdopted`);
      }
    }
  });

  it('offers the prompt anatomy inline and in the context menu of live sessions and of profiles, under the id hover links name', () => {
    assert.equal(COMMANDS.showPromptAnatomy, ClientCommands.showPromptAnatomy);
    const entries = (pkg.contributes.menus['view/item/context'] as Array<{ command: string; group: string; when: string }>).filter((m) => m.command === COMMANDS.showPromptAnatomy);
    assert.deepEqual(entries.map((m) => m.group.split('@')[0]).sort(), ['2_prompt', 'inline']);
    for (const m of entries) {
      const items = /viewItem =~ \/(.+)\/$/.exec(m.when)?.[1];
      assert.ok(items, m.when);
      const re = new RegExp(items);
      for (const value of ['session.stale', 'session.fresh', 'session.pending', 'profile', 'profile.stale']) assert.ok(re.test(value), `${m.group}: ${value}`);
      for (const value of ['session.no-prompt', 'session.ended', 'profile.unavailable', 'endedGroup']) assert.ok(!re.test(value), `${m.group}: not ${value}`);
    }
  });

  it('has the sessions view in a container of its own, with an icon that ships', () => {
    const container = pkg.contributes.viewsContainers.activitybar.find((c: { id: string }) => c.id === VIEW_CONTAINER_ID);
    assert.ok(container);
    assert.ok(fs.existsSync(path.join(rootDir(), container.icon)), container.icon);
    assert.ok(pkg.contributes.views[VIEW_CONTAINER_ID].some((v: { id: string }) => v.id === SESSIONS_VIEW_ID));
  });

  it('declares the prompt language and its grammar', () => {
    const lang = pkg.contributes.languages.find((l: { id: string }) => l.id === PROMPT_LANGUAGE_ID);
    assert.deepEqual(lang.extensions, [PROMPT_EXTENSION]);
    const grammar = pkg.contributes.grammars.find((g: { language: string }) => g.language === PROMPT_LANGUAGE_ID);
    assert.ok(fs.existsSync(path.join(rootDir(), grammar.path)), grammar.path);
    assert.equal(JSON.parse(readRootFile(grammar.path)).scopeName, grammar.scopeName);
  });

  it('activates on Hermes files and a Hermes home, and on the prompt scheme', () => {
    const events: string[] = pkg.activationEvents;
    for (const file of ['SOUL.md', 'AGENTS.md', '.hermes.md', 'HERMES.md', 'SKILL.md', 'memories/MEMORY.md']) {
      assert.ok(events.includes(`workspaceContains:**/${file}`), file);
    }
    assert.ok(events.includes('workspaceContains:state.db'));
    assert.ok(events.includes(`onFileSystem:${PROMPT_SCHEME}`));
    assert.ok(!events.includes('*'), 'never activate on startup');
  });

  it('runs as a workspace extension from the esbuild bundle', () => {
    assert.deepEqual(pkg.extensionKind, ['workspace']);
    assert.equal(pkg.main, './dist/extension.js');
    assert.ok(pkg.engines.vscode.startsWith('^1.100'));
  });

  it('lists categories of VS Code\'s own list and at most 30 unique keywords (the marketplace\'s limit)', () => {
    // EXTENSION_CATEGORIES of VS Code 1.100 (src/vs/platform/extensions/common/extensions.ts).
    const known = ['AI', 'Azure', 'Chat', 'Data Science', 'Debuggers', 'Extension Packs', 'Education', 'Formatters', 'Keymaps', 'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Programming Languages', 'SCM Providers', 'Snippets', 'Testing', 'Themes', 'Visualization', 'Other'];
    assert.ok(pkg.categories.length > 0);
    for (const c of pkg.categories) assert.ok(known.includes(c), c);
    const keywords: string[] = pkg.keywords;
    assert.ok(keywords.length > 0 && keywords.length <= 30, `${keywords.length} keywords`);
    assert.equal(new Set(keywords.map((k) => k.toLowerCase())).size, keywords.length, 'no keyword twice');
    assert.ok(keywords.includes('hermes'));
  });

  it('has a marketplace icon: a square PNG of 128 or 256 pixels', () => {
    assert.match(pkg.icon, /\.png$/, 'vsce refuses an SVG icon');
    const png = fs.readFileSync(path.join(rootDir(), pkg.icon));
    assert.equal(png.toString('latin1', 1, 4), 'PNG', pkg.icon);
    // The IHDR chunk comes first: width and height at bytes 16 and 20.
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.equal(width, height, `${width}x${height}`);
    assert.ok(width === 128 || width === 256, `${width}x${height}`);
  });

  it('ships a whitelist .vscodeignore, a LICENSE and a CHANGELOG', () => {
    const lines = readRootFile('.vscodeignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    assert.equal(lines[0], '**');
    for (const keep of ['!dist/extension.js', '!dist/webview/**', '!dist/server.js', '!dist/cli.js', '!dist/cliMain.js', '!dist/o200kEncoder.js', '!dist/o200kRanks.bin', '!dist/tool-schemas.json', '!dist/genaiPrices.js', '!dist/yamlBundle.js', '!dist/tokenCountRelay.js', '!dist/tokenCountHelper.js', '!dist/native/photostructure-sqlite/**', '!syntaxes/**', `!${pkg.icon}`, '!README.md', '!CHANGELOG.md', '!package.json', '!LICENSE']) {
      assert.ok(lines.includes(keep), keep);
    }
    assert.ok(lines.every((l) => l === '**' || l.startsWith('!')), 'only re-inclusions after **');
    assert.match(readRootFile('LICENSE'), /^MIT License/);
    assert.match(readRootFile('CHANGELOG.md'), new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\]`, 'm'), 'the CHANGELOG has an entry for this version');
  });
});

/** Whether a menu entry's `when` shows it for a tree item of this contextValue (its viewItem condition alone). */
function showsFor(when: string, viewItem: string): boolean {
  const equal = /viewItem == ([\w.-]+)/.exec(when);
  if (equal) return equal[1] === viewItem;
  const matches = /viewItem =~ \/(.+?)\/(?= |$)/.exec(when);
  return matches ? new RegExp(matches[1]!).test(viewItem) : true;
}
