// What the e2e test files share: a code-server with the packaged extension on a generated Hermes
// home, a browser on it, the ids of the extension's UI, and a mocha guard for sequential steps
// (after a failed step the later ones are skipped; each failure leaves a screenshot and the tail of
// the extension host log).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { answerTrustDialog, openWorkbench, screenshot, treeItems, type BrowserSession, type TreeItem } from './support/browser';
import { pollUntil, projectVsix, startCodeServer, testOutputDir, type CodeServer } from './support/codeServer';
import type { FakeInstall } from '../../server/demo/hermesInstall';
import { createDemoHome, type DemoHome } from './support/hermesHome';

export { pollUntil };

/** The extension's status bar item (`<publisher>.<name>.<StatusBarItem id>`). */
export const STATUS_ITEM = 'hermes-lens.hermes-prompt-lens.hermesLens.status';
/** The tree view's name as package.json declares it. */
export const SESSIONS_VIEW = 'Sessions';
/** The extension activates, starts its server and reads the demo's sessions within this time. */
export const STARTUP_TIMEOUT = 90_000;

export interface LensWorkbench {
  readonly home: DemoHome;
  readonly server: CodeServer;
  readonly browser: BrowserSession;
  readonly page: Page;
  stop(): Promise<void>;
}

/**
 * Generates a demo home, installs the VSIX into a fresh code-server whose (remote machine) settings
 * point `hermesLens.home` at it, opens the root home as the workspace folder, and answers the workspace
 * trust dialog as told.
 */
export async function openLensWorkbench(opts: {
  trust: boolean;
  settings?: Record<string, unknown>;
  /** A fake Hermes installation in the home (else none is found). */
  hermes?: FakeInstall;
  /** Runs on the generated home before code-server starts (nothing has read it yet). */
  beforeStart?: (home: DemoHome) => void;
}): Promise<LensWorkbench> {
  const home = createDemoHome(opts.trust ? 'hl-e2e-trusted' : 'hl-e2e-restricted', opts.hermes);
  opts.beforeStart?.(home);
  let server: CodeServer | undefined;
  let browser: BrowserSession | undefined;
  try {
    server = await startCodeServer({
      folder: home.root,
      vsix: projectVsix(),
      // hermesLens.home is machine-overridable: in this remote window it belongs in the remote
      // machine's settings (User settings would lose it, racily, once the schema registers).
      machineSettings: { 'hermesLens.home': home.root },
      settings: opts.settings,
    });
    browser = await openWorkbench(server.url);
    await answerTrustDialog(browser.page, opts.trust);
  } catch (e) {
    await browser?.close();
    await server?.stop();
    home.dispose();
    throw e;
  }
  const s = server;
  const b = browser;
  return {
    home,
    server: s,
    browser: b,
    page: b.page,
    async stop() {
      await b.close();
      await s.stop();
      home.dispose();
    },
  };
}

/** Removes `<prefix>-*.png` left in test-output/screenshots by earlier runs (so what is there is this run's). */
export function clearScreenshots(prefix: string): void {
  const dir = path.join(testOutputDir(), 'screenshots');
  if (!fs.existsSync(dir)) return;
  for (const f of fs.readdirSync(dir)) if (f.startsWith(`${prefix}-`) && f.endsWith('.png')) fs.rmSync(path.join(dir, f));
}

/**
 * For the steps of one describe(): on a failure, saves a screenshot, prints the tail of the
 * extension's log and the page's console errors, and closes what the failed step may have left
 * open (menus, dialogs). The later steps still run: each computes what it expects from the CLI at
 * that moment, so one wrong figure does not hide the rest of the run.
 */
export function reportFailures(get: () => LensWorkbench | undefined, prefix: string): void {
  afterEach(async function () {
    const t = this.currentTest;
    if (t?.state !== 'failed') return;
    const w = get();
    if (!w) return;
    const shot = await screenshot(w.page, `${prefix}-FAILED-${t.title.slice(0, 40)}`).catch(() => undefined);
    if (shot) console.error(`      screenshot: ${path.relative(process.cwd(), shot)}`);
    console.error(`      logs: ${path.relative(process.cwd(), w.server.logDir)}`);
    console.error(`      extension log (tail):\n${lensLogTail(w.server.extensionHostLog(), 25)}`);
    if (w.browser.consoleErrors.length) console.error(`      console errors:\n        ${w.browser.consoleErrors.slice(-5).join('\n        ')}`);
    for (let i = 0; i < 3; i++) await w.page.keyboard.press('Escape').catch(() => undefined);
  });
}

export type SessionState = 'fresh' | 'stale' | 'pending' | 'no-prompt' | 'ended';

/** A session row's state, from its accessible label (`<title>, <state>, <description>`). */
export function rowState(row: TreeItem): SessionState | undefined {
  return /, (fresh|stale|pending|no-prompt|ended), /.exec(row.ariaLabel)?.[1] as SessionState | undefined;
}

/** The session rows under a profile row of the Sessions tree (the profile expanded). */
export function sessionRows(rows: TreeItem[], profile: string): TreeItem[] {
  const start = rows.findIndex((r) => r.level === 1 && r.label === profile);
  if (start < 0) return [];
  const out: TreeItem[] = [];
  for (const r of rows.slice(start + 1)) {
    if (r.level === 1) break;
    if (r.level === 2 && rowState(r)) out.push(r);
  }
  return out;
}

/**
 * Waits until the tree shows, under `profile`, each of `titles` in state `state`; returns the rows.
 * The tree redraws by itself when the server pushes a session list: nothing is clicked to get there.
 */
export async function waitForTreeStates(page: Page, profile: string, titles: string[], state: SessionState, timeoutMs = 20_000): Promise<TreeItem[]> {
  let last: TreeItem[] = [];
  return pollUntil(
    `${titles.length} session(s) of ${profile} to show ${state} in the tree`,
    async () => {
      last = sessionRows(await treeItems(page, SESSIONS_VIEW, { minItems: 2 }), profile);
      return titles.every((t) => last.some((r) => r.label === t && rowState(r) === state)) ? last : undefined;
    },
    { timeoutMs, intervalMs: 200 },
  ).catch((e) => {
    throw new Error(`${(e as Error).message}; rows: ${JSON.stringify(last.map((r) => `${r.label}=${rowState(r)}`))}`);
  });
}

/** 1-based line and column just after the last character of a file (to type a new last line). */
export function endOf(file: string): { line: number; column: number } {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** 1-based position just after the end of the first line that starts with `prefix`. */
export function endOfLine(file: string, prefix: string): { line: number; column: number } {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.startsWith(prefix));
  if (i < 0) throw new Error(`no line starting with ${JSON.stringify(prefix)} in ${file}`);
  return { line: i + 1, column: lines[i]!.length + 1 };
}

/** Polls a file until `accept` holds for its text (after a save in the browser reaches the disk). */
export function waitForFile(file: string, accept: (text: string) => boolean, what: string): Promise<string> {
  return pollUntil(what, () => {
    const text = fs.readFileSync(file, 'utf8');
    return accept(text) ? text : undefined;
  }, { timeoutMs: 20_000, intervalMs: 100 });
}

/** The tail of our extension's output channel and of the extension host log, from extensionHostLog(). */
export function lensLogTail(all: string, lines: number): string {
  const sections = all.split(/^(?===> )/m).filter((sec) => /hermes-lens|Hermes Prompt Lens|exthost\.log/.test(sec.split('\n')[0] ?? ''));
  return sections
    .map((sec) => {
      const [head, ...body] = sec.trimEnd().split('\n');
      return [head, ...body.filter((l) => !/\[(trace|debug)\]/.test(l)).slice(-lines)].map((l) => `        ${l}`).join('\n');
    })
    .join('\n');
}
