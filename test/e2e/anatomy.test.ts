// End to end in code-server + headless Chromium: the prompt anatomy view of the packaged extension,
// opened from the Sessions tree, a profile row and the hover of SOUL.md. What it draws is
// checked against the CLI (status and prompt-size) and the files; a click and an Enter on a block
// must open the right file at the right line. Its screenshot is the README's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { formatInt, formatUsd } from '../../client/format';
import { byRecentActivity } from '../../shared/sessionOrder';
import {
  clickTreeItemAction,
  cursorPosition,
  hoverAt,
  openFile,
  parkMouse,
  runCommand,
  screenshot,
  SEL,
  setSideBarWidth,
  treeItems,
  waitForStatusBarItem,
  webviewContent,
} from './support/browser';
import { cliPrefixes, cliProfile, cliPromptSize, cliStatus, type CliSession } from './support/hermesHome';
import { sharedPrefixOf, sharedPrefixText } from '../../client/anatomy/sharedPrefix';
import { clearScreenshots, openLensWorkbench, pollUntil, reportFailures, SESSIONS_VIEW, STARTUP_TIMEOUT, STATUS_ITEM, type LensWorkbench } from './lensWorkbench';

/** HH:MM in UTC: the browser runs in UTC (support/browser.ts), and the view shows local times. */
const clock = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(11, 16);

/** The 1-based line a file's text starts at in the prompt: its first non-blank line after a `.hermes.md` frontmatter. */
function firstContentLine(file: string): number {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const from = path.basename(file) === '.hermes.md' && lines[0] === '---' ? lines.indexOf('---', 1) + 1 : 0;
  return lines.findIndex((l, i) => i >= from && l.trim() !== '') + 1;
}

async function blockLabels(view: FrameLocator): Promise<string[]> {
  await view.locator('.bar .block').first().waitFor({ timeout: 20_000 });
  return view.locator('.bar .block').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label') ?? ''));
}

/** The cache timeline's rows, term → value. */
async function timeline(view: FrameLocator): Promise<Map<string, string>> {
  const terms = await view.locator('.cache dt').allInnerTexts();
  const values = await view.locator('.cache dd').allInnerTexts();
  return new Map(terms.map((t, i) => [t.trim(), values[i]!.trim()]));
}

/** Waits until the active editor is `file` with the cursor at the start of `line` (1-based). */
async function waitForEditorAt(page: Page, file: string, line: number): Promise<void> {
  await page.locator(SEL.activeTab).filter({ has: page.locator('.label-name', { hasText: path.basename(file) }) }).waitFor({ timeout: 20_000 });
  await pollUntil(`the cursor at ${path.basename(file)}:${line}`, async () => {
    const at = await cursorPosition(page);
    return at?.line === line && at.column === 1;
  }, { timeoutMs: 20_000 });
}

describe('e2e (code-server + Chromium): the prompt anatomy view', function () {
  this.timeout(120_000);
  let w: LensWorkbench | undefined;
  const page = () => w!.page;
  const home = () => w!.home;
  const session = (profile: string, id: string): CliSession => cliProfile(cliStatus(home().root), profile).sessions.find((s) => s.id === id)!;

  before(async function () {
    this.timeout(STARTUP_TIMEOUT + 180_000); // the first run on a machine may install code-server (~90 s)
    clearScreenshots('anatomy');
    w = await openLensWorkbench({ trust: true });
    await waitForStatusBarItem(page(), STATUS_ITEM, /\d+ stale/, STARTUP_TIMEOUT);
    await treeItems(page(), SESSIONS_VIEW, { minItems: 3 });
    await setSideBarWidth(page(), 380);
  });
  after(async () => {
    await w?.stop();
  });
  reportFailures(() => w, 'anatomy');

  it('opens from a session row of the tree and draws each block with its size, share, tier and stale mark', async () => {
    const id = home().id('beacon-cron');
    const cli = session('default', id);
    const size = cliPromptSize(home().root, 'default', id);
    await clickTreeItemAction(page(), SESSIONS_VIEW, 'Nightly link check', 'Show Prompt Anatomy');
    await page().locator(SEL.activeTab).filter({ hasText: 'Prompt Anatomy: Nightly link check' }).waitFor({ timeout: 20_000 });
    const view = webviewContent(page());
    const labels = await blockLabels(view);

    assert.equal(await view.locator('h1').innerText(), 'Prompt anatomy: Nightly link check');
    assert.match(await view.locator('#prompt-heading').innerText(), new RegExp(`^System prompt: (≈ )?${formatInt(size.totalTokens)} tokens`), 'the total the CLI measures');
    const tiers = await view.locator('.tiers li').allInnerTexts();
    for (const name of ['stable', 'context', 'volatile']) {
      const tokens = size.rows.find((r) => r.label === `${name} tier`)!.tokens;
      assert.ok(tiers.some((t) => t.startsWith(`${name} tier · ${formatInt(tokens)} tokens · `)), `${name}: ${tiers.join(' | ')}`);
    }
    // Each block says its kind, file, tokens, bytes, share and tier; the shares make the whole prompt.
    const shape = /^[A-Z][^,]*, [^,]+, (about )?[\d,]+ tokens, [\d.]+ (B|KB), (\d+\.\d)% of the prompt, (stable|context|volatile) tier(, stale: .+)?$/;
    for (const l of labels) assert.match(l, shape);
    const shares = labels.map((l) => Number(shape.exec(l)![3]));
    assert.equal(Math.round(shares.reduce((a, b) => a + b, 0) * 10), 1000, labels.join('\n'));
    // Stale marks: the files the CLI names as reasons, on their blocks, and nowhere else.
    const stale = labels.filter((l) => l.includes(', stale: '));
    assert.deepEqual(stale.map((l) => l.split(', ')[1]).sort(), ['SOUL.md', 'skills/']);
    for (const r of cli.reasons) assert.ok(stale.some((l) => l.includes(`${path.basename(r.path)} ${r.change}: ${r.detail}`)), `${r.path}: ${stale.join('\n')}`);
    assert.ok(labels.some((l) => l.startsWith('Project context, .hermes.md, ') && !l.includes('stale')), labels.join('\n'));
    // The cached prefix starts with the tool schemas: the first block, the CLI's figures, its toolsets on hover.
    const tools = view.locator('.bar > :first-child');
    assert.equal(await tools.getAttribute('class'), 'toolblock');
    const toolsTitle = (await tools.getAttribute('title')) ?? '';
    assert.match(toolsTitle, new RegExp(`^Tool schemas, sent before the system prompt by every request: ${size.tools.count} tools[^\n]*, (≈ )?${formatInt(size.tools.tokens)} tokens`));
    assert.match(toolsTitle, new RegExp(`\nToolsets by size:\n${size.toolsets_breakdown[0]!.toolset}: `));
    // What of its cached prefix other sessions share, as `hermes-lens prefixes` groups them (the families come in after the map).
    const shared = sharedPrefixText(sharedPrefixOf(cliPrefixes(home().root), 'default', id));
    await pollUntil(`the shared part: ${shared}`, async () => (await view.locator('.shared-text').first().innerText().catch(() => '')) === shared, { timeoutMs: 20_000 });
    await parkMouse(page());
    await screenshot(page(), 'anatomy-01-stale-session');
  });

  it('a click on a block opens its file at the line its text starts at', async () => {
    const hermesMd = path.join(home().manifest.root, '..', 'projects', 'beacon', '.hermes.md');
    await webviewContent(page()).locator('.bar .block', { hasText: '.hermes.md' }).click();
    await waitForEditorAt(page(), hermesMd, firstContentLine(hermesMd));
    assert.ok(firstContentLine(hermesMd) > 1, 'past its frontmatter');
  });

  it('the arrow keys move between the blocks; Enter on a skill of the index opens its SKILL.md at its description', async () => {
    const view = webviewContent(page());
    const labels = await blockLabels(view);
    const focused = async () => (await view.locator('.bar .block:focus').getAttribute('aria-label')) ?? '';
    await view.locator('.bar .block').first().focus();
    await page().keyboard.press('End');
    assert.equal(await focused(), labels[labels.length - 1]);
    await page().keyboard.press('Home');
    assert.equal(await focused(), labels[0]);
    const skills = labels.findIndex((l) => l.startsWith('Skills index, skills/'));
    for (let i = 0; i < skills; i++) await page().keyboard.press('ArrowRight');
    assert.equal(await focused(), labels[skills]);
    assert.match(await view.locator('.details h3').innerText(), /^Skills index · skills\/$/, 'the details follow the focus');

    const skill = path.join(home().root, 'skills', 'devops', 'incident-triage', 'SKILL.md');
    const entry = view.locator('.details .entry', { hasText: 'incident-triage' });
    assert.match((await entry.getAttribute('aria-label')) ?? '', /stale: SKILL\.md changed: incident-triage: description/);
    await entry.press('Enter');
    const description = fs.readFileSync(skill, 'utf8').split('\n').findIndex((l) => l.startsWith('description:')) + 1;
    assert.ok(description > 1);
    await waitForEditorAt(page(), skill, description);
  });

  it('beside the blocks, the cache timeline: last activity, TTL, expiry, when a refresh is free and what it costs', async () => {
    const view = webviewContent(page());
    const expired = session('default', home().id('beacon-cron'));
    let rows = await timeline(view);
    assert.equal(rows.get('Cache lifetime (TTL)'), '5 min');
    assert.equal(rows.get('Cache expires'), `expired at ${clock(expired.cacheExpiresAt!)}`);
    assert.equal(rows.get('Refresh is free'), 'now: the cache expired (but for the prompt change)');
    assert.equal(rows.get('Last activity')?.slice(0, 5), clock(expired.lastActivityAt!));

    // Another session of the profile, picked in the view: a warm one-hour cache.
    const warmId = home().id('atlas-tui');
    const warm = session('default', warmId);
    assert.ok(warm.cacheWarm && warm.cacheExpiresAt, 'the demo keeps this cache warm for the run');
    await view.locator('#session').selectOption(warmId);
    await view.locator('h1', { hasText: 'Review the deploy pipeline' }).waitFor({ timeout: 20_000 });
    await pollUntil('the timeline of the picked session', async () => ((rows = await timeline(view)).get('Cache lifetime (TTL)') === '1 h' ? rows : undefined), { timeoutMs: 20_000 });
    assert.equal(rows.get('Cache expires'), clock(warm.cacheExpiresAt!));
    assert.equal(rows.get('Refresh is free'), `from ${clock(warm.cacheExpiresAt!)} (but for the prompt change)`);
    assert.equal(rows.get('Refresh now'), formatUsd(warm.refreshCostUsd));
    assert.equal(rows.get('Once expired'), formatUsd(warm.refreshCostColdUsd));
    await page().locator(SEL.activeTab).filter({ hasText: 'Prompt Anatomy: Review the deploy pipeline' }).waitFor({ timeout: 20_000 });
    // The README's picture, the view alone in the editor area: the project's AGENTS.md made this one stale too.
    await page().locator(SEL.activeTab).click();
    await runCommand(page(), 'View: Close Editors in Other Groups');
    await pollUntil('the cache timeline beside the blocks', async () => {
      const [blocks, cache] = await Promise.all([view.locator('.prompt').boundingBox(), view.locator('.cache').boundingBox()]);
      return blocks && cache && cache.x >= blocks.x + blocks.width;
    }, { timeoutMs: 20_000 });
    await view.locator('.bar .block', { hasText: 'AGENTS.md' }).focus();
    await view.locator('.details h3', { hasText: 'AGENTS.md' }).waitFor({ timeout: 20_000 });
    await screenshot(page(), 'anatomy-02-prompt-anatomy');
  });

  it('opens for a profile on its newest live session, and from the hover of SOUL.md with SOUL.md selected', async () => {
    const live = (profile: string) =>
      cliProfile(cliStatus(home().root), profile).sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt').sort(byRecentActivity);
    await clickTreeItemAction(page(), SESSIONS_VIEW, 'work', 'Show Prompt Anatomy');
    const view = webviewContent(page());
    const newestWork = live('work')[0]!;
    await view.locator('.which', { hasText: `The newest live session of profile work · ${newestWork.id}` }).waitFor({ timeout: 20_000 });
    assert.equal(await view.locator('h1').innerText(), `Prompt anatomy: ${newestWork.title}`);

    await openFile(page(), 'SOUL.md');
    const hover = await hoverAt(page(), 1, 3);
    assert.match(hover, /Show the prompt anatomy/);
    await page().locator(SEL.hover).locator('a', { hasText: 'Show the prompt anatomy' }).first().click();
    const newest = live('default')[0]!;
    await view.locator('.which', { hasText: newest.id }).waitFor({ timeout: 20_000 });
    assert.equal(await view.locator('.details h3').innerText(), 'Identity · SOUL.md', 'the hovered file’s block is selected');
    assert.match((await view.locator('.bar .block.selected').getAttribute('aria-label')) ?? '', /^Identity, SOUL\.md, /);
  });

  it('opens from the command palette on the session picked there', async () => {
    await runCommand(page(), 'Hermes: Show Prompt Anatomy');
    await page().locator(SEL.quickInputBox).fill('Standup notes');
    await page().locator(SEL.quickInputRow).filter({ has: page().locator('.label-name', { hasText: /^Standup notes$/ }) }).first().click();
    const view = webviewContent(page());
    await view.locator('h1', { hasText: 'Prompt anatomy: Standup notes' }).waitFor({ timeout: 20_000 });
    assert.equal(await view.locator('.which').innerText(), `A session of profile default · ${home().id('telegram-fresh')}`);
    assert.deepEqual(await view.locator('.bar .block.stale').count(), 0, 'stored after the edits: nothing stale');
  });
});
