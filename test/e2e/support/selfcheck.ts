// Proves the e2e harness end to end with a throwaway extension generated into a temp dir (never the
// real one): `npx tsc -p . && node out/test/e2e/support/selfcheck.js`.
//   run 1 "trusted":    VSIX installed with --install-extension, trust dialog answered Yes; command,
//                       status bar, notification, quick open, hover, typing + save, quick fix, tree view.
//   run 2 "restricted": same VSIX, trust dialog answered No; Restricted Mode + the extension's limited mode.
//   run 3 "in-host":    extensionDevelopmentPath + extensionTestsPath through the `payload` URL; the
//                       tests module's run() writes a results JSON that this driver waits for.
// Screenshots: test-output/screenshots/selfcheck-*.png. Exit code 0 = harness works.
import { spawnSync } from 'node:child_process';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  answerTrustDialog,
  hoverAt,
  openFile,
  openQuickFix,
  openWorkbench,
  runCommand,
  save,
  screenshot,
  statusBarText,
  treeItems,
  toggleTreeItem,
  typeInEditor,
  visibleEditorLines,
  waitForNotification,
  dismissHover,
  type BrowserSession,
} from './browser';
import { REPO_ROOT, startCodeServer, waitForJsonFile, type CodeServer } from './codeServer';

const EXTENSION_JS = String.raw`
const vscode = require('vscode');
let count = 0;
exports.activate = function (context) {
  const item = vscode.window.createStatusBarItem('selfcheck.status', vscode.StatusBarAlignment.Left, 100);
  item.name = 'Selfcheck';
  const mode = () => (vscode.workspace.isTrusted ? 'trusted' : 'restricted');
  item.text = '$(beaker) Selfcheck: ' + mode();
  item.tooltip = 'Selfcheck status';
  item.show();
  context.subscriptions.push(item);
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => { item.text = '$(beaker) Selfcheck: trusted'; }));
  context.subscriptions.push(vscode.commands.registerCommand('selfcheck.hello', () => {
    count++;
    item.text = '$(check) Selfcheck: hello ' + count + ' (' + mode() + ')';
    vscode.window.showInformationMessage('Hello from selfcheck #' + count);
    return count;
  }));
  context.subscriptions.push(vscode.languages.registerHoverProvider('markdown', {
    provideHover(doc, pos) {
      const range = doc.getWordRangeAtPosition(pos);
      if (!range) return undefined;
      const word = doc.getText(range);
      return new vscode.Hover(new vscode.MarkdownString('**Selfcheck hover**: word \u0060' + word + '\u0060 at ' + (pos.line + 1) + ':' + (pos.character + 1)), range);
    },
  }));
  context.subscriptions.push(vscode.languages.registerCodeActionsProvider('markdown', {
    provideCodeActions(doc, range) {
      const wr = doc.getWordRangeAtPosition(range.start);
      if (!wr) return [];
      const word = doc.getText(wr);
      const fix = new vscode.CodeAction('Selfcheck: Uppercase "' + word + '"', vscode.CodeActionKind.QuickFix);
      fix.edit = new vscode.WorkspaceEdit();
      fix.edit.replace(doc.uri, wr, word.toUpperCase());
      const other = new vscode.CodeAction('Selfcheck: Do nothing', vscode.CodeActionKind.QuickFix);
      other.edit = new vscode.WorkspaceEdit();
      return [fix, other];
    },
  }, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }));
  const tree = {
    getTreeItem: (e) => {
      const t = new vscode.TreeItem(e.label, e.children ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      t.description = e.description;
      return t;
    },
    getChildren: (e) => (e ? e.children : [
      { label: 'Alpha', description: 'first' },
      { label: 'Beta', description: 'has kids', children: [{ label: 'Beta child', description: 'nested' }] },
      { label: 'Gamma' },
    ]),
  };
  context.subscriptions.push(vscode.window.registerTreeDataProvider('selfcheck.tree', tree));
  return { count: () => count };
};
exports.deactivate = function () {};
`;

const IN_HOST_TESTS_JS = String.raw`
const vscode = require('vscode');
const fs = require('fs');
exports.run = async function run() {
  const out = process.env.SELFCHECK_RESULTS;
  const results = { vscodeVersion: vscode.version, node: process.version, tests: [] };
  const test = async (name, fn) => {
    try { await fn(); results.tests.push({ name, ok: true }); }
    catch (e) { results.tests.push({ name, ok: false, error: String(e && e.stack || e) }); }
  };
  await test('extension is present and activates', async () => {
    const ext = vscode.extensions.getExtension('hermes-lens-selfcheck.selfcheck-ext');
    if (!ext) throw new Error('extension not found');
    await ext.activate();
    if (!ext.isActive) throw new Error('not active');
  });
  await test('command runs and returns its count', async () => {
    const n = await vscode.commands.executeCommand('selfcheck.hello');
    if (n !== 1) throw new Error('expected 1, got ' + n);
  });
  await test('workspace folder is open', async () => {
    const f = vscode.workspace.workspaceFolders;
    if (!f || f.length !== 1) throw new Error('folders: ' + JSON.stringify(f));
  });
  await test('hover provider answers through the real API', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'README.md');
    const doc = await vscode.workspace.openTextDocument(uri);
    const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, new vscode.Position(2, 1));
    const text = hovers.map((h) => h.contents.map((c) => c.value || c).join()).join();
    if (!text.includes('Selfcheck hover')) throw new Error('hover: ' + text);
  });
  results.passed = results.tests.filter((t) => t.ok).length;
  results.failed = results.tests.length - results.passed;
  fs.writeFileSync(out + '.tmp', JSON.stringify(results, null, 2));
  fs.renameSync(out + '.tmp', out);
};
`;

function writeExtension(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const pkg = {
    name: 'selfcheck-ext',
    displayName: 'Hermes Lens e2e selfcheck',
    description: 'Throwaway extension proving the e2e harness.',
    version: '0.0.1',
    publisher: 'hermes-lens-selfcheck',
    license: 'MIT',
    repository: { type: 'git', url: 'https://example.invalid/selfcheck.git' },
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    activationEvents: ['onStartupFinished', 'onLanguage:markdown'],
    capabilities: { untrustedWorkspaces: { supported: 'limited', description: 'Selfcheck runs in restricted mode too.' } },
    contributes: {
      commands: [{ command: 'selfcheck.hello', title: 'Say Hello', category: 'Selfcheck' }],
      views: { explorer: [{ id: 'selfcheck.tree', name: 'Selfcheck Tree' }] },
    },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  fs.writeFileSync(path.join(dir, 'extension.js'), EXTENSION_JS);
  fs.writeFileSync(path.join(dir, 'README.md'), '# Selfcheck\n\nThrowaway extension for the e2e harness.\n');
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  fs.mkdirSync(path.join(dir, 'test'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'test', 'index.js'), IN_HOST_TESTS_JS);
  fs.writeFileSync(path.join(dir, '.vscodeignore'), 'test/**\n');
}

function packExtension(dir: string): string {
  const vsce = path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce');
  const out = path.join(dir, '..', 'selfcheck-ext.vsix');
  const r = spawnSync(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`vsce package failed:\n${r.stdout}\n${r.stderr}`);
  return out;
}

function writeWorkspace(dir: string): void {
  fs.mkdirSync(path.join(dir, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'README.md'), '# Workspace\n\nHello world from the selfcheck.\n');
  fs.writeFileSync(path.join(dir, 'docs', 'note.md'), '# Note\n\nThe quick brown fox jumps.\n\nSecond paragraph here.\n');
}

function step(name: string): void {
  console.log(`[selfcheck] ${new Date().toISOString().slice(11, 19)} ${name}`);
}

async function withRun<T>(
  name: string,
  start: () => Promise<CodeServer>,
  body: (s: CodeServer, b: BrowserSession) => Promise<T>,
): Promise<T> {
  const t0 = Date.now();
  step(`${name}: starting code-server`);
  const server = await start();
  step(`${name}: code-server ready on ${server.baseUrl} in ${Date.now() - t0} ms (logs: ${server.logDir})`);
  let browser: BrowserSession | undefined;
  try {
    browser = await openWorkbench(server.url);
    step(`${name}: workbench loaded after ${Date.now() - t0} ms`);
    return await body(server, browser);
  } catch (e) {
    if (browser) await screenshot(browser.page, `selfcheck-${name}-FAILED`).catch(() => {});
    if (browser?.consoleErrors.length) console.error(`[selfcheck] console errors:\n  ${browser.consoleErrors.slice(-10).join('\n  ')}`);
    const log = server.extensionHostLog();
    if (log) console.error(`[selfcheck] extension host log (tail):\n${log.split('\n').slice(-30).join('\n')}`);
    throw e;
  } finally {
    await browser?.close();
    await server.stop();
    step(`${name}: done in ${Date.now() - t0} ms`);
  }
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-lens-selfcheck-'));
  const extDir = path.join(root, 'selfcheck-ext');
  writeExtension(extDir);
  const vsix = packExtension(extDir);
  step(`packed ${vsix}`);
  const summary: Record<string, unknown> = {};

  // ---- run 1: trusted, through the VSIX --------------------------------------------------------
  const ws1 = path.join(root, 'ws-trusted');
  writeWorkspace(ws1);
  summary.trusted = await withRun('trusted', () => startCodeServer({ folder: ws1, vsix }), async (_s, { page }) => {
    await answerTrustDialog(page, true);
    const initial = await statusBarText(page, 'Selfcheck: trusted', 60_000);
    await screenshot(page, 'selfcheck-trusted-1-after-trust');

    await runCommand(page, 'Selfcheck: Say Hello');
    const afterCommand = await statusBarText(page, /Selfcheck: hello 1/);
    const toast = await waitForNotification(page, 'Hello from selfcheck #1');
    await screenshot(page, 'selfcheck-trusted-2-command');

    await openFile(page, 'docs/note.md');
    const hover = await hoverAt(page, 3, 5); // "quick" in "The quick brown fox jumps."
    assert.match(hover, /Selfcheck hover/);
    assert.match(hover, /word quick at 3:5/);
    await screenshot(page, 'selfcheck-trusted-3-hover');
    await dismissHover(page);

    await typeInEditor(page, 'Typed by the harness.\n', { line: 5, column: 1 });
    await save(page);
    const onDisk = fs.readFileSync(path.join(ws1, 'docs', 'note.md'), 'utf8');
    assert.match(onDisk, /\n\nTyped by the harness\.\nSecond paragraph here\.\n$/);

    const fixes = await openQuickFix(page, { at: { line: 3, column: 12 }, pick: /Uppercase "brown"/ }); // inside "brown"
    await save(page);
    assert.match(fs.readFileSync(path.join(ws1, 'docs', 'note.md'), 'utf8'), /The quick BROWN fox/);
    const lines = await visibleEditorLines(page);

    const tree = await treeItems(page, 'Selfcheck Tree', { minItems: 3 });
    await toggleTreeItem(page, 'Selfcheck Tree', 'Beta', true);
    const treeExpanded = await treeItems(page, 'Selfcheck Tree', { minItems: 4 });
    assert.deepEqual(
      treeExpanded.map((t) => `${'  '.repeat(t.level - 1)}${t.label}|${t.description}`),
      ['Alpha|first', 'Beta|has kids', '  Beta child|nested', 'Gamma|'],
    );
    await screenshot(page, 'selfcheck-trusted-4-quickfix-tree');
    return { initial, afterCommand, toast, hover, fixes, lines, tree, treeExpanded };
  });

  // ---- run 2: restricted mode --------------------------------------------------------------------
  const ws2 = path.join(root, 'ws-restricted');
  writeWorkspace(ws2);
  summary.restricted = await withRun('restricted', () => startCodeServer({ folder: ws2, vsix }), async (_s, { page }) => {
    await answerTrustDialog(page, false);
    const restricted = await statusBarText(page, 'Restricted Mode');
    const initial = await statusBarText(page, 'Selfcheck: restricted', 60_000);
    await runCommand(page, 'Selfcheck: Say Hello');
    const afterCommand = await statusBarText(page, 'Selfcheck: hello 1 (restricted)');
    await openFile(page, 'README.md');
    const hover = await hoverAt(page, 3, 1);
    assert.match(hover, /word Hello at 3:1/);
    await screenshot(page, 'selfcheck-restricted');
    await dismissHover(page);
    const noFixes = await openQuickFix(page, { at: { line: 2, column: 1 } }); // empty line: no word, no fix
    assert.deepEqual(noFixes, []);
    await page.keyboard.press('Escape');
    // The tree view lives in the Explorer; from the Search view treeItems() has to open it itself.
    await runCommand(page, 'View: Show Search');
    const tree = await treeItems(page, 'Selfcheck Tree', { minItems: 3 });
    assert.deepEqual(tree.map((t) => t.label), ['Alpha', 'Beta', 'Gamma']);
    return { restricted, initial, afterCommand, hover, noFixes, tree };
  });

  // ---- run 3: in-host tests through the payload URL ----------------------------------------------
  const ws3 = path.join(root, 'ws-inhost');
  writeWorkspace(ws3);
  const resultsFile = path.join(root, 'inhost-results.json');
  summary.inHost = await withRun(
    'inhost',
    () =>
      startCodeServer({
        folder: ws3,
        extensionDevelopmentPath: extDir,
        extensionTestsPath: path.join(extDir, 'test', 'index.js'),
        disableWorkspaceTrust: true,
        env: { SELFCHECK_RESULTS: resultsFile },
      }),
    async (s, { page }) => {
      const results = await waitForJsonFile<{ failed: number; tests: unknown[] }>(resultsFile, { timeoutMs: 120_000 });
      await screenshot(page, 'selfcheck-inhost');
      assert.equal(results.failed, 0, JSON.stringify(results, null, 2));
      assert.match(s.url, /payload=/);
      return results;
    },
  );

  console.log(JSON.stringify(summary, null, 2));
  if (!process.env.HERMES_LENS_E2E_KEEP) fs.rmSync(root, { recursive: true, force: true });
  step('ALL OK');
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error('[selfcheck] FAILED:', e);
    process.exit(1);
  },
);
