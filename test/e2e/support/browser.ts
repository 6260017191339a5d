// Drives the code-server workbench (VS Code 1.100) in Debian's headless Chromium through playwright-core,
// the way a user would: keyboard shortcuts, the command palette, quick open, mouse hover, the quick-fix
// menu. Every wait is on DOM state (a selector appearing, disappearing or changing), never a fixed sleep.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { pollUntil, testOutputDir } from './codeServer';

export const CHROMIUM_PATH = process.env.HERMES_LENS_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Default time for one UI step (a widget appearing, a hover resolving). */
export const STEP_TIMEOUT = Number(process.env.HERMES_LENS_E2E_STEP_TIMEOUT || 20_000);
/** How long one mouse visit waits for a hover before leaving and coming back, as a user would. */
const HOVER_SHOW_WAIT = 4_000;

/** The workbench's own selectors (VS Code 1.100 / code-server 4.100.3), in one place. */
export const SEL = {
  workbench: '.monaco-workbench',
  statusbar: '.monaco-workbench .part.statusbar',
  statusbarItem: '.statusbar-item',
  dialog: '.monaco-dialog-box',
  quickInput: '.quick-input-widget',
  quickInputBox: '.quick-input-widget .quick-input-box input',
  quickInputRow: '.quick-input-widget .quick-input-list .monaco-list-row',
  activeGroup: '.part.editor .editor-group-container.active',
  activeTab: '.part.editor .editor-group-container.active .tabs-container .tab.active',
  activeEditor: '.part.editor .editor-group-container.active .editor-instance .monaco-editor',
  editorInput: 'textarea.inputarea, .native-edit-context',
  hover: '.monaco-editor .monaco-hover:not(.hidden)',
  /** A hover of the workbench outside editors (status bar items' tooltips). */
  workbenchHover: '.workbench-hover-container .workbench-hover, .monaco-workbench > .monaco-hover:not(.hidden)',
  hoverContent: '.monaco-hover-content',
  actionWidget: '.action-widget',
  actionRow: '.action-widget .monaco-list-row.action',
  overlayMessage: '.monaco-editor .monaco-editor-overlaymessage',
  pane: '.monaco-workbench .pane',
  notificationToast: '.notifications-toasts .notification-toast',
} as const;

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** The fresh Chromium profile (removed by close()). */
  userDataDir: string;
  /** Console errors and page errors seen so far (handy in failure messages). */
  consoleErrors: string[];
  close(): Promise<void>;
}

export interface LaunchOptions {
  headless?: boolean;
  viewport?: { width: number; height: number };
  executablePath?: string;
}

/** Launches headless Debian Chromium with a fresh profile. */
export async function launchBrowser(opts: LaunchOptions = {}): Promise<BrowserSession> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-lens-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: opts.executablePath ?? CHROMIUM_PATH,
    headless: opts.headless ?? !process.env.HERMES_LENS_E2E_HEADED,
    args: CHROMIUM_ARGS,
    viewport: opts.viewport ?? { width: 1400, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
    // Debian's chromium puts "Crash Reports" under $XDG_CONFIG_HOME/chromium whatever the profile is.
    env: { ...process.env, XDG_CONFIG_HOME: path.join(userDataDir, 'xdg-config'), XDG_CACHE_HOME: path.join(userDataDir, 'xdg-cache') },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    // With the URL: "Failed to load resource" says nothing of which one.
    if (m.type() === 'error') consoleErrors.push(m.location().url ? `${m.text()} (${m.location().url})` : m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  let closed = false;
  return {
    context,
    page,
    userDataDir,
    consoleErrors,
    close: async () => {
      if (closed) return;
      closed = true;
      await context.close().catch(() => {});
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Launches the browser, opens `url` (a CodeServer's url) and waits for the workbench. */
export async function openWorkbench(url: string, opts: LaunchOptions & { timeoutMs?: number } = {}): Promise<BrowserSession> {
  const session = await launchBrowser(opts);
  try {
    await session.page.goto(url, { waitUntil: 'domcontentloaded' });
    await waitForWorkbench(session.page, opts.timeoutMs);
  } catch (e) {
    await session.close();
    throw e;
  }
  return session;
}

/** Waits until the workbench is laid out (workbench, editor part and status bar visible). */
export async function waitForWorkbench(page: Page, timeoutMs = 90_000): Promise<void> {
  await page.locator(SEL.workbench).waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator(SEL.statusbar).waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.monaco-workbench .part.editor').waitFor({ state: 'visible', timeout: timeoutMs });
}

/**
 * Answers the workspace-trust dialog the first window shows ("Do you trust the authors of the files
 * in this folder?") and waits until the workbench reflects the answer (the "Restricted Mode" status
 * bar item gone when trusted, present when not).
 */
export async function answerTrustDialog(page: Page, trust: boolean, timeoutMs = 60_000): Promise<void> {
  const dialog = page.locator(SEL.dialog).filter({ hasText: 'trust the authors' });
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  const label = trust ? 'Yes, I trust the authors' : "No, I don't trust the authors";
  await dialog.locator('a.monaco-button', { hasText: label }).click();
  await dialog.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  const restricted = page.locator(SEL.statusbarItem).filter({ hasText: 'Restricted Mode' });
  if (trust) await restricted.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  else await restricted.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
}

// ---------------------------------------------------------------------------------------------
// Quick input (command palette, quick open, go to line)
// ---------------------------------------------------------------------------------------------

function norm(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

function matches(text: string, m: string | RegExp): boolean {
  return typeof m === 'string' ? text === m : m.test(text);
}

function quickInput(page: Page): Locator {
  return page.locator(SEL.quickInput).filter({ visible: true });
}

async function openQuickInput(page: Page, key: string): Promise<Locator> {
  const input = page.locator(SEL.quickInputBox);
  // The key goes to whatever has focus; make sure the workbench has it (not the browser chrome).
  await page.locator(SEL.workbench).waitFor({ state: 'visible' });
  await page.keyboard.press(key);
  await quickInput(page).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  return input;
}

/** Label text (`.label-name`, without highlight markup) and description of the visible quick-input rows. */
export async function quickInputRows(page: Page): Promise<{ label: string; description: string }[]> {
  return page.locator(SEL.quickInputRow).evaluateAll((rows: any[]) =>
    rows.map((r) => ({
      label: (r.querySelector('.label-name')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      description: (r.querySelector('.label-description')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    })),
  );
}

/** Waits for a quick-input row whose label matches, clicks it, returns its label. */
async function pickQuickInputRow(
  page: Page,
  label: string | RegExp,
  what: string,
  accept: (row: { label: string; description: string }) => boolean = () => true,
): Promise<string> {
  const index = await pollUntil(
    what,
    async () => {
      const rows = await quickInputRows(page);
      const i = rows.findIndex((r) => matches(r.label, label) && accept(r));
      return i >= 0 ? { i } : undefined;
    },
    { timeoutMs: STEP_TIMEOUT, intervalMs: 100 },
  ).catch(async (e) => {
    const rows = await quickInputRows(page).catch(() => []);
    throw new Error(`${(e as Error).message}; rows: ${JSON.stringify(rows.slice(0, 15))}`);
  });
  const row = page.locator(SEL.quickInputRow).nth(index.i);
  const text = norm(await row.locator('.label-name').first().textContent());
  await row.click();
  return text;
}

/**
 * Runs a command from the command palette (F1) by its title exactly as the palette shows it, e.g.
 * "Hermes: Refresh Session". Resolves when the palette closed or moved on to the command's own quick
 * input (the input no longer starts with ">").
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = await openQuickInput(page, 'F1');
  await input.fill('>' + title);
  await pickQuickInputRow(page, title, `command "${title}" in the command palette`);
  await pollUntil(
    `command palette to close after "${title}"`,
    async () => !(await quickInput(page).isVisible()) || !(await input.inputValue()).startsWith('>'),
    { timeoutMs: STEP_TIMEOUT, intervalMs: 50 },
  );
}

/** Opens a file of the workspace with quick open (Ctrl+P) and waits for its editor tab to be active. */
export async function openFile(page: Page, relativePath: string): Promise<void> {
  const rel = relativePath.split(path.sep).join('/');
  const base = path.posix.basename(rel);
  const dir = path.posix.dirname(rel);
  const deadline = Date.now() + STEP_TIMEOUT;
  for (let attempt = 1; ; attempt++) {
    const input = await openQuickInput(page, 'Control+P');
    await input.fill(rel);
    // A file row shows the base name as label and its folder (relative to the workspace) as description.
    await pickQuickInputRow(page, base, `"${rel}" in quick open`, (r) =>
      dir === '.' ? r.description === '' : ((d) => d === dir || d.endsWith('/' + dir))(r.description.replace(/\\/g, '/')),
    );
    await quickInput(page).waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    await page.locator(SEL.activeTab).filter({ has: page.locator('.label-name', { hasText: base }) }).waitFor({ timeout: STEP_TIMEOUT });
    await page.locator(SEL.activeEditor).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    // The list can re-sort between reading its rows and the click (search results arrive after the
    // recently opened files), so the click may open another file of that name: the title says which.
    const opened = await pollUntil(`the title to name ${rel}`, async () => ((await page.title()) === rel ? true : undefined), { timeoutMs: 2_000, intervalMs: 50 }).catch(() => false);
    if (opened) return;
    if (Date.now() > deadline) throw new Error(`quick open kept opening another file than ${rel} (the title reads "${await page.title()}")`);
    console.warn(`      note: quick open opened "${await page.title()}", not ${rel} (attempt ${attempt}); opening it again`);
  }
}

/** The active editor's primary selection as the status bar shows it ("Ln 3, Col 7"). */
export async function cursorPosition(page: Page): Promise<{ line: number; column: number } | undefined> {
  const t = norm(await page.locator('#status\\.editor\\.selection').textContent().catch(() => ''));
  const m = /Ln (\d+), Col (\d+)/.exec(t);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
}

/** Moves the cursor with Go to Line (Ctrl+G, `:line:column`) and waits until the status bar agrees. */
export async function goTo(page: Page, line: number, column = 1): Promise<void> {
  await focusEditor(page);
  const input = await openQuickInput(page, 'Control+G');
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  await pollUntil(
    `cursor at Ln ${line}, Col ${column}`,
    async () => {
      const p = await cursorPosition(page);
      return p && p.line === line && p.column === column;
    },
    { timeoutMs: STEP_TIMEOUT, intervalMs: 50 },
  );
}

// ---------------------------------------------------------------------------------------------
// Editor
// ---------------------------------------------------------------------------------------------

/** The active editor (the text editor of the active editor group). */
export function activeEditor(page: Page): Locator {
  return page.locator(SEL.activeEditor).first();
}

/** Gives keyboard focus to the active text editor (without moving its cursor). */
export async function focusEditor(page: Page): Promise<void> {
  const editor = activeEditor(page);
  await editor.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  if (await editor.evaluate((e: any) => e.classList.contains('focused'))) return;
  await editor.locator(SEL.editorInput).first().focus();
  await pollUntil('the editor to take focus', () => editor.evaluate((e: any) => e.classList.contains('focused')), {
    timeoutMs: STEP_TIMEOUT,
    intervalMs: 50,
  });
}

/**
 * Types into the active editor as a user would (`\n` presses Enter), optionally after moving the
 * cursor to `at`. Waits until the editor tab shows the unsaved-changes state.
 */
export async function typeInEditor(page: Page, text: string, at?: { line: number; column: number }): Promise<void> {
  if (at) await goTo(page, at.line, at.column);
  else await focusEditor(page);
  await page.keyboard.type(text);
  if (text.length) await page.locator(`${SEL.activeTab}.dirty`).waitFor({ timeout: STEP_TIMEOUT });
}

/** The visible lines of the active editor, top to bottom (what is rendered, not the whole file). */
export async function visibleEditorLines(page: Page): Promise<string[]> {
  return activeEditor(page)
    .locator('.view-lines .view-line')
    .evaluateAll((lines: any[]) =>
      lines
        .map((l) => ({ top: parseFloat(l.style.top) || 0, text: (l.textContent ?? '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text),
    );
}

/** Saves the active editor (Ctrl+S) and waits until its tab is no longer dirty. */
export async function save(page: Page): Promise<void> {
  await focusEditor(page);
  await page.keyboard.press('Control+S');
  await page.locator(`${SEL.activeTab}.dirty`).waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
}

/**
 * Hovers the mouse over the character at (line, column) of the active editor (1-based, as the status
 * bar counts) and returns the hover's text once it has resolved (all hover parts, joined by newlines).
 */
export async function hoverAt(page: Page, line: number, column: number): Promise<string> {
  await goTo(page, line, column);
  const hover = page.locator(SEL.hover);
  const deadline = Date.now() + STEP_TIMEOUT;
  for (let attempt = 1; ; attempt++) {
    // Measured anew each time: a code lens arriving above the line moves the text after a first look.
    const box = await activeEditor(page).locator('.cursors-layer .cursor').first().boundingBox();
    if (!box) throw new Error(`no cursor box at ${line}:${column}`);
    // Leave, then enter: the hover controller reacts to mouse moves, not to a pointer already there.
    await page.mouse.move(1, 1);
    await hover.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT }).catch(() => {});
    await page.mouse.move(box.x + 3, box.y + box.height / 2, { steps: 4 });
    const shown = await hover.first().waitFor({ state: 'visible', timeout: HOVER_SHOW_WAIT }).then(() => true, () => false);
    if (shown) break;
    if (Date.now() > deadline) throw new Error(`no hover showed at ${line}:${column} after ${attempt} mouse visits`);
    console.warn(`      note: no hover showed at ${line}:${column} (attempt ${attempt}); moving the mouse there again`);
  }
  return pollUntil(
    `hover at ${line}:${column} to resolve`,
    async () => {
      const text = norm(await hover.first().locator(SEL.hoverContent).first().innerText().catch(() => ''));
      return text && !/^Loading\.*$/.test(text) ? (await hover.first().innerText()).trim() : undefined;
    },
    { timeoutMs: STEP_TIMEOUT, intervalMs: 100 },
  );
}

/** Hides an open hover (moves the mouse away and presses Escape). */
export async function dismissHover(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await page.keyboard.press('Escape');
  await page.locator(SEL.hover).waitFor({ state: 'hidden', timeout: STEP_TIMEOUT }).catch(() => {});
}

/**
 * Opens the quick-fix menu (Ctrl+.) at the cursor (or at `at`) and returns the titles of its actions.
 * With `pick`, picks the action whose title matches and waits for the menu to close. No code actions
 * ("No code actions available") gives [] (and throws when `pick` was asked for), unless
 * `untilOffered`: then, as a user would, the step presses Escape and asks again until the menu shows
 * (for STEP_TIMEOUT at most), noting each retry. VS Code answers an invoked Ctrl+. with that message
 * not only when no provider offers an action but also when its request is superseded while the
 * providers answer (1.100's CodeActionModel: a marker change of the document, a provider registered
 * anywhere, or a cursor move starts a new request and the pending one resolves empty), which the
 * editor's own providers (Markdown's language server) can make take long on a loaded machine. A step
 * that asserts what the menu offers uses `untilOffered`, so only a menu that never shows fails it.
 */
export async function openQuickFix(
  page: Page,
  opts: { pick?: string | RegExp; at?: { line: number; column: number }; untilOffered?: boolean } = {},
): Promise<string[]> {
  const deadline = Date.now() + STEP_TIMEOUT;
  for (let attempt = 1; ; attempt++) {
    const titles = await showQuickFixMenu(page, opts.at);
    if (titles) return opts.pick === undefined ? titles : pickQuickFix(page, titles, opts.pick);
    if (!opts.untilOffered || Date.now() > deadline) {
      if (opts.pick) throw new Error(`no code actions at the cursor (wanted "${opts.pick}"${attempt > 1 ? `, asked ${attempt} times` : ''})`);
      return [];
    }
    console.warn(`      note: Ctrl+. answered "No code actions available" (attempt ${attempt}); asking again`);
    await page.keyboard.press('Escape');
    await page.locator(SEL.overlayMessage).filter({ visible: true }).first().waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  }
}

/** Ctrl+. at the cursor (or at `at`): the titles of the menu's actions, or undefined for the "none" message. */
async function showQuickFixMenu(page: Page, at: { line: number; column: number } | undefined): Promise<string[] | undefined> {
  if (at) await goTo(page, at.line, at.column);
  else await focusEditor(page);
  await page.keyboard.press('Control+.');
  const menu = page.locator(SEL.actionWidget).filter({ visible: true });
  const none = page.locator(SEL.overlayMessage).filter({ visible: true });
  const shown = await Promise.race([
    menu.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT }).then(() => 'menu' as const),
    none.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT }).then(() => 'none' as const),
  ]);
  if (shown === 'none') return undefined;
  return (await page.locator(SEL.actionRow).evaluateAll((rs: any[]) =>
    rs.map((r) => (r.querySelector('.title')?.textContent ?? r.textContent ?? '').replace(/\s+/g, ' ').trim()),
  )) as string[];
}

/** Picks the open menu's action titled `pick` with the keyboard and waits for the menu to close. */
async function pickQuickFix(page: Page, titles: string[], pick: string | RegExp): Promise<string[]> {
  const i = titles.findIndex((t) => matches(t, pick));
  if (i < 0) throw new Error(`no quick fix "${pick}" among ${JSON.stringify(titles)}`);
  // Pick with the keyboard, as a user of Ctrl+. does. (A mouse click first hits the action widget's
  // `.context-view-pointerBlock` overlay, which only goes away on a pointer move.)
  const target = page.locator(SEL.actionRow).nth(i);
  for (let n = 0; n <= titles.length + 2 && !(await target.evaluate((r: any) => r.classList.contains('focused'))); n++) {
    await page.keyboard.press('ArrowDown');
  }
  if (!(await target.evaluate((r: any) => r.classList.contains('focused')))) throw new Error(`could not focus quick fix "${titles[i]}"`);
  await page.keyboard.press('Enter');
  await page.locator(SEL.actionWidget).filter({ visible: true }).first().waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  return titles;
}

// ---------------------------------------------------------------------------------------------
// Status bar, notifications, views
// ---------------------------------------------------------------------------------------------

/**
 * Waits for a status bar item whose text contains `match` (string) or matches it (RegExp) and returns
 * that item's text (icons are not text). Checks the item's aria-label too.
 */
export async function statusBarText(page: Page, match: string | RegExp, timeoutMs = STEP_TIMEOUT): Promise<string> {
  return pollUntil(
    `a status bar item matching ${match}`,
    async () => {
      const items = (await page.locator(SEL.statusbarItem).evaluateAll((els: any[]) =>
        els.map((e) => ({
          text: (e.textContent ?? '').replace(/\s+/g, ' ').trim(),
          aria: e.querySelector('a')?.getAttribute('aria-label') ?? e.getAttribute('aria-label') ?? '',
        })),
      )) as { text: string; aria: string }[];
      const hit = items.find((i) =>
        typeof match === 'string' ? i.text.includes(match) || i.aria.includes(match) : match.test(i.text) || match.test(i.aria),
      );
      return hit ? hit.text || hit.aria : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

/** Texts of all status bar items, left to right (diagnostics). */
export async function statusBarItems(page: Page): Promise<string[]> {
  return (await page.locator(SEL.statusbarItem).allTextContents()).map(norm).filter(Boolean);
}

/** Messages of the notification toasts currently shown (bottom right). */
export async function notifications(page: Page): Promise<string[]> {
  return (await page.locator(`${SEL.notificationToast} .notification-list-item-message`).allTextContents()).map(norm);
}

/** Waits for a notification toast whose message contains / matches `match`; returns its message. */
export async function waitForNotification(page: Page, match: string | RegExp, timeoutMs = STEP_TIMEOUT): Promise<string> {
  return pollUntil(
    `a notification matching ${match}`,
    async () => (await notifications(page)).find((t) => (typeof match === 'string' ? t.includes(match) : match.test(t))),
    { timeoutMs, intervalMs: 100 },
  );
}

function paneByTitle(page: Page, viewTitle: string): Locator {
  const want = viewTitle.toLowerCase();
  return page.locator(SEL.pane).filter({
    has: page.locator('.pane-header .title').filter({ hasText: new RegExp(`^\\s*${escapeRe(want)}\\s*$`, 'i') }),
  });
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Opens a view by its name through "View: Open View" and waits for its pane to be visible. */
export async function openView(page: Page, viewTitle: string): Promise<void> {
  await runCommand(page, 'View: Open View');
  const input = page.locator(SEL.quickInputBox);
  await input.fill(`view ${viewTitle}`);
  await pickQuickInputRow(page, new RegExp(`^${escapeRe(viewTitle)}$`, 'i'), `view "${viewTitle}" in Open View`);
  await quickInput(page).waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  await paneByTitle(page, viewTitle).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
}

export interface TreeItem {
  label: string;
  description: string;
  /** 1 for top-level items. */
  level: number;
  /** undefined for leaves. */
  expanded?: boolean;
  /** The row's aria-label (a TreeItem's accessibilityInformation.label when it sets one). */
  ariaLabel: string;
  /** The codicon of the item's icon (`warning`, `sync`, `pass`, …), when it has one. */
  icon?: string;
}

/**
 * The rendered rows of a tree view found by its title (as declared, any case). Opens the view when it
 * is not visible and expands its pane when collapsed; waits for at least `minItems` rows (default 1)
 * and returns [] when none render within the timeout and minItems is 0.
 */
export async function treeItems(
  page: Page,
  viewTitle: string,
  opts: { minItems?: number; timeoutMs?: number } = {},
): Promise<TreeItem[]> {
  let pane = paneByTitle(page, viewTitle).filter({ visible: true }).first();
  if (!(await pane.isVisible())) {
    await openView(page, viewTitle);
    pane = paneByTitle(page, viewTitle).filter({ visible: true }).first();
  }
  const header = pane.locator('.pane-header').first();
  if ((await header.getAttribute('aria-expanded')) === 'false') {
    await header.click();
    await pollUntil(`pane "${viewTitle}" to expand`, async () => (await header.getAttribute('aria-expanded')) === 'true', {
      timeoutMs: STEP_TIMEOUT,
      intervalMs: 50,
    });
  }
  const read = () =>
    pane.locator('.pane-body .monaco-list-row').evaluateAll((rows: any[]) =>
      rows.map((r) => {
        const exp = r.getAttribute('aria-expanded');
        const iconEl = r.querySelector('.custom-view-tree-node-item-icon');
        const icon = iconEl ? [...iconEl.classList].find((c: string) => c.startsWith('codicon-'))?.slice('codicon-'.length) : undefined;
        return {
          label: (r.querySelector('.label-name')?.textContent ?? r.textContent ?? '').replace(/\s+/g, ' ').trim(),
          description: (r.querySelector('.label-description')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
          level: Number(r.getAttribute('aria-level') ?? 1),
          expanded: exp === null ? undefined : exp === 'true',
          ariaLabel: (r.getAttribute('aria-label') ?? '').replace(/\s+/g, ' ').trim(),
          icon,
          top: parseFloat(r.style.top) || 0,
        };
      }),
    );
  const minItems = opts.minItems ?? 1;
  const rows = await pollUntil(
    `${minItems} row(s) in view "${viewTitle}"`,
    async () => {
      const r = await read();
      return r.length >= minItems && r.length > 0 ? r : undefined;
    },
    { timeoutMs: opts.timeoutMs ?? STEP_TIMEOUT, intervalMs: 100 },
  ).catch((e) => {
    if (minItems === 0) return [];
    throw e;
  });
  return rows
    .sort((a, b) => a.top - b.top)
    .map(({ top: _top, ...item }) => item);
}

/** Expands (or collapses) a tree row of a view by its label and waits for aria-expanded to follow. */
export async function toggleTreeItem(page: Page, viewTitle: string, label: string, expand = true): Promise<void> {
  const row = paneByTitle(page, viewTitle)
    .locator('.pane-body .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: label }) })
    .first();
  await row.waitFor({ timeout: STEP_TIMEOUT });
  if ((await row.getAttribute('aria-expanded')) === String(expand)) return;
  await row.locator('.monaco-tl-twistie').click();
  await pollUntil(`"${label}" to ${expand ? 'expand' : 'collapse'}`, async () => (await row.getAttribute('aria-expanded')) === String(expand), {
    timeoutMs: STEP_TIMEOUT,
    intervalMs: 50,
  });
}

/** Saves a PNG of the page to test-output/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.join(testOutputDir(), 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  return file;
}

// ---------------------------------------------------------------------------------------------
// More workbench parts: status bar items by id, code lenses, dialogs, tree row actions, layout
// ---------------------------------------------------------------------------------------------

/**
 * The exact text of the status bar item with this entry id (for an extension's item:
 * `<publisher>.<name>.<item id>`), or undefined when it is not shown.
 */
export async function statusBarItemText(page: Page, entryId: string): Promise<string | undefined> {
  const item = page.locator(`${SEL.statusbar} [id="${entryId}"]`);
  if ((await item.count()) === 0) return undefined;
  return norm(await item.first().textContent());
}

/**
 * Waits until the status bar item `entryId` shows a text that equals `want` (string), matches it
 * (RegExp) or satisfies it (function); returns that text. On timeout the message holds the last text.
 */
export async function waitForStatusBarItem(
  page: Page,
  entryId: string,
  want: string | RegExp | ((text: string) => boolean),
  timeoutMs = STEP_TIMEOUT,
): Promise<string> {
  let last: string | undefined;
  return pollUntil(
    `status bar item ${entryId} to show ${typeof want === 'function' ? 'the awaited text' : want}`,
    async () => {
      last = await statusBarItemText(page, entryId);
      return last !== undefined && (typeof want === 'function' ? want(last) : matches(last, want)) ? last : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  ).catch((e) => {
    throw new Error(`${(e as Error).message}; last text: ${JSON.stringify(last)}`);
  });
}

/**
 * Hovers the status bar item `entryId` as a user does and returns its tooltip's text once it
 * satisfies `accept` (hovering again while it does not: the tooltip shows what the item holds when
 * the hover opens). The hover is closed before returning.
 */
export async function statusBarItemTooltip(page: Page, entryId: string, accept: (text: string) => boolean = () => true, timeoutMs = STEP_TIMEOUT): Promise<string> {
  const item = page.locator(`${SEL.statusbar} [id="${entryId}"]`).first();
  const tooltip = page.locator(SEL.workbenchHover).filter({ visible: true }).first();
  let last = '';
  try {
    return await pollUntil(
      `the tooltip of status bar item ${entryId}`,
      async () => {
        // Leave, then enter: the hover opens on a mouse that arrives.
        await page.mouse.move(1, 1);
        await tooltip.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT }).catch(() => {});
        await item.hover();
        await tooltip.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
        last = (await tooltip.innerText()).trim();
        return accept(last) ? last : undefined;
      },
      { timeoutMs, intervalMs: 200 },
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}; last tooltip: ${JSON.stringify(last)}`);
  } finally {
    await page.mouse.move(1, 1);
  }
}

/** The titles of the code lenses rendered in the active editor, top to bottom, left to right. */
export async function codeLensTitles(page: Page): Promise<string[]> {
  return activeEditor(page)
    .locator('.codelens-decoration a')
    .evaluateAll((as: any[]) => as.map((a) => (a.textContent ?? '').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim()));
}

/** Waits until the active editor's code lenses satisfy `accept` (e.g. a title matches); returns them. */
export async function waitForCodeLenses(
  page: Page,
  accept: (titles: string[]) => boolean,
  what = 'code lenses',
  timeoutMs = STEP_TIMEOUT,
): Promise<string[]> {
  let last: string[] = [];
  return pollUntil(
    what,
    async () => {
      last = await codeLensTitles(page);
      return last.length > 0 && accept(last) ? last : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  ).catch((e) => {
    throw new Error(`${(e as Error).message}; last lenses: ${JSON.stringify(last)}`);
  });
}

/** Clicks the code lens of the active editor whose title equals / matches `title`. */
export async function clickCodeLens(page: Page, title: string | RegExp): Promise<void> {
  const titles = await waitForCodeLenses(page, (t) => t.some((x) => matches(x, title)), `a code lens ${title}`);
  const index = titles.findIndex((x) => matches(x, title));
  await activeEditor(page).locator('.codelens-decoration a').nth(index).click();
}

/**
 * The content of `::before` decorations (`TextEditorDecorationType` with `before.contentText`)
 * rendered in the active editor's visible lines, top to bottom.
 */
export async function beforeDecorations(page: Page): Promise<string[]> {
  return activeEditor(page)
    .locator('.view-lines .view-line span')
    .evaluateAll((spans: any[]) => {
      const out: { top: number; text: string }[] = [];
      for (const s of spans) {
        const c = (globalThis as any).getComputedStyle(s, '::before').content as string;
        if (!c || c === 'none' || c === 'normal') continue;
        const line = s.closest('.view-line');
        out.push({ top: parseFloat(line?.style.top ?? '0') || 0, text: c.replace(/^"|"$/g, '') });
      }
      return out.sort((a, b) => a.top - b.top).map((o) => o.text);
    });
}

/** The modal dialog (e.g. `showWarningMessage(…, { modal: true })`) whose text matches; waits for it. */
export async function waitForDialog(page: Page, match: string | RegExp, timeoutMs = STEP_TIMEOUT): Promise<{ text: string; buttons: string[] }> {
  const dialog = page.locator(SEL.dialog).filter({ hasText: match }).first();
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  const text = (await dialog.locator('.dialog-message-row').first().innerText().catch(() => dialog.innerText())).trim();
  const buttons = (await dialog.locator('.dialog-buttons a.monaco-button').allTextContents()).map(norm);
  return { text, buttons };
}

/** Clicks `button` of the modal dialog whose text matches, and waits for the dialog to close. */
export async function answerDialog(page: Page, match: string | RegExp, button: string): Promise<void> {
  const dialog = page.locator(SEL.dialog).filter({ hasText: match }).first();
  await dialog.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await dialog.locator('.dialog-buttons a.monaco-button', { hasText: new RegExp(`^\\s*${escapeRe(button)}\\s*$`) }).first().click();
  await dialog.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
}

/** Clicks a button of the notification toast whose message matches, and waits for the toast to go. */
export async function clickNotificationButton(page: Page, match: string | RegExp, button: string): Promise<void> {
  const toast = page.locator(SEL.notificationToast).filter({ has: page.locator('.notification-list-item-message', { hasText: match }) }).first();
  await toast.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await toast.locator('a.monaco-button', { hasText: new RegExp(`^\\s*${escapeRe(button)}\\s*$`) }).first().click();
  await toast.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
}

/** Closes every notification toast (Notifications: Clear All Notifications) and waits until none shows. */
export async function clearNotifications(page: Page): Promise<void> {
  if ((await page.locator(SEL.notificationToast).count()) === 0) return;
  await runCommand(page, 'Notifications: Clear All Notifications');
  await pollUntil('notification toasts to close', async () => (await page.locator(SEL.notificationToast).count()) === 0, {
    timeoutMs: STEP_TIMEOUT,
    intervalMs: 100,
  });
}

function treeRow(page: Page, viewTitle: string, label: string): Locator {
  return paneByTitle(page, viewTitle)
    .locator('.pane-body .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRe(label)}\\s*$`) }) })
    .first();
}

/** Clicks a tree row by its label (runs the item's command, as a user's click does). */
export async function clickTreeItem(page: Page, viewTitle: string, label: string): Promise<void> {
  const row = treeRow(page, viewTitle, label);
  await row.waitFor({ timeout: STEP_TIMEOUT });
  await row.locator('.label-name').first().click();
}

/** The titles of the inline actions a tree row shows when hovered. */
export async function treeItemActions(page: Page, viewTitle: string, label: string): Promise<string[]> {
  const row = treeRow(page, viewTitle, label);
  await row.waitFor({ timeout: STEP_TIMEOUT });
  await row.hover();
  return (await row.locator('.actions a.action-label').evaluateAll((as: any[]) => as.map((a) => a.getAttribute('aria-label') ?? ''))) as string[];
}

/** Hovers a tree row and clicks its inline action with this title (aria-label). */
export async function clickTreeItemAction(page: Page, viewTitle: string, label: string, action: string): Promise<void> {
  const row = treeRow(page, viewTitle, label);
  await row.waitFor({ timeout: STEP_TIMEOUT });
  await row.hover();
  const button = row.locator(`.actions a.action-label[aria-label="${action.replace(/"/g, '\\"')}"]`).first();
  await button.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await button.click();
}

/**
 * Drags the sash between the primary side bar and the editor until the side bar is `width` px wide
 * (for screenshots where tree descriptions must not be cut). Waits for the new layout.
 */
export async function setSideBarWidth(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar').first();
  await sidebar.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const box = (await sidebar.boundingBox())!;
  const edge = box.x + box.width;
  const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((els: any[]) =>
    els.map((e, i) => {
      const r = e.getBoundingClientRect();
      return { i, x: r.left + r.width / 2, y: r.top + r.height / 2, h: r.height, visible: r.width > 0 && r.height > 0 };
    }),
  );
  const sash = sashes.filter((s) => s.visible && s.h > 200).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
  if (!sash || Math.abs(sash.x - edge) > 8) throw new Error(`no sash at the side bar's edge (x=${edge})`);
  await page.mouse.move(sash.x, sash.y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, sash.y, { steps: 8 });
  await page.mouse.up();
  await pollUntil(`side bar to be ${width}px wide`, async () => Math.abs(((await sidebar.boundingBox())?.width ?? 0) - width) <= 6, {
    timeoutMs: STEP_TIMEOUT,
    intervalMs: 50,
  });
}

/** Presses a key (or chord) in the active editor and returns the editor's overlay message once shown. */
export async function editorMessageAfter(page: Page, key: string): Promise<string> {
  await focusEditor(page);
  await page.keyboard.press(key);
  const message = page.locator(SEL.overlayMessage).filter({ visible: true }).first();
  await message.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  return norm(await message.innerText());
}

/**
 * Moves the mouse to an empty corner of the editor area, so no tooltip or hover (left by an earlier
 * step) covers a screenshot. Waits until no hover widget shows.
 */
export async function parkMouse(page: Page): Promise<void> {
  const editorPart = page.locator('.monaco-workbench .part.editor').first();
  const box = await editorPart.boundingBox();
  if (!box) return;
  await page.mouse.move(box.x + box.width - 40, box.y + box.height - 40);
  await page.locator('.monaco-hover:not(.hidden), .workbench-hover-container').filter({ visible: true }).first()
    .waitFor({ state: 'hidden', timeout: STEP_TIMEOUT })
    .catch(() => {});
}

/**
 * The document of the visible webview panel: VS Code puts an extension's page in an iframe
 * (`active-frame`) inside its own webview iframe.
 */
export function webviewContent(page: Page): FrameLocator {
  return page.locator('iframe.webview.ready').filter({ visible: true }).first().contentFrame().frameLocator('iframe#active-frame');
}
