// End to end in a real VS Code, untrusted workspace (the trust dialog answered "No"): everything
// reads, nothing writes, and each way to ask for a refresh says why it is unavailable.
import * as assert from 'node:assert/strict';
import { RESTRICTED_MODE_MESSAGE } from '../../client/ids';
import {
  clearNotifications,
  clickCodeLens,
  editorMessageAfter,
  openFile,
  openQuickFix,
  parkMouse,
  runCommand,
  screenshot,
  SEL,
  setSideBarWidth,
  statusBarItemText,
  treeItemActions,
  treeItems,
  waitForCodeLenses,
  waitForNotification,
  waitForStatusBarItem,
} from './support/browser';
import { cliStatus, digest, expectedStatusText, readStateMeta, staleBecauseOf } from './support/hermesHome';
import { clearScreenshots, reportFailures, openLensWorkbench, SESSIONS_VIEW, STARTUP_TIMEOUT, STATUS_ITEM, type LensWorkbench } from './lensWorkbench';

describe('e2e (code-server + Chromium): Restricted Mode (untrusted workspace)', function () {
  this.timeout(120_000);
  let w: LensWorkbench | undefined;
  const page = () => w!.page;
  /** Hermes' databases and their WAL files: what must stay byte for byte the same. */
  const dbFiles = () => w!.home.manifest.profiles.flatMap((p) => [p.dbFile, `${p.dbFile}-wal`]);
  let baseline: { digests: string[]; meta: string[] } | undefined;

  before(async function () {
    this.timeout(STARTUP_TIMEOUT + 180_000);
    clearScreenshots('restricted');
    w = await openLensWorkbench({
      trust: false,
      beforeStart: (home) => {
        const files = home.manifest.profiles.flatMap((p) => [p.dbFile, `${p.dbFile}-wal`]);
        baseline = { digests: files.map(digest), meta: home.manifest.profiles.map((p) => JSON.stringify([...readStateMeta(p.dbFile)].sort())) };
      },
    });
  });
  after(async () => {
    await w?.stop();
  });
  reportFailures(() => w, 'restricted');

  it('reads: the status item, the tree and the code lens show the stale sessions', async () => {
    const cli = cliStatus(w!.home.root);
    const shown = await waitForStatusBarItem(page(), STATUS_ITEM, /\d+ stale/, STARTUP_TIMEOUT);
    await setSideBarWidth(page(), 560);
    const rows = await treeItems(page(), SESSIONS_VIEW, { minItems: 3 });
    assert.ok(rows.some((r) => r.label === 'default' && /\d+ stale/.test(r.description)), JSON.stringify(rows.slice(0, 3)));
    await openFile(page(), 'SOUL.md');
    const stale = staleBecauseOf(cli, 'default', w!.home.soul);
    const lenses = await waitForCodeLenses(page(), (t) => /stale/.test(t[0] ?? ''), 'the SOUL.md code lens');
    assert.match(lenses[0]!, new RegExp(`^${stale.sessions.length} sessions stale · `));
    assert.equal(shown, expectedStatusText(cli), 'the status item');
  });

  it('7a. the quick-fix menu offers no refresh, and Auto Fix says why', async () => {
    // VS Code leaves disabled quick fixes out of the Ctrl+. menu…
    const titles = await openQuickFix(page(), { at: { line: 1, column: 1 } });
    assert.deepEqual(titles.filter((t) => t.startsWith('Refresh')), [], JSON.stringify(titles));
    await page().keyboard.press('Escape');
    // …and shows their reason when the preferred one is applied directly (Auto Fix, Shift+Alt+.).
    let message = await editorMessageAfter(page(), 'Shift+Alt+Period');
    if (message === 'No auto fixes available') {
      // Seen once in ~15 runs, not reproduced since: say what the views showed, then ask once more
      // as a user would. A second "No auto fixes available" fails the step.
      const status = await statusBarItemText(page(), STATUS_ITEM);
      const rows = (await treeItems(page(), SESSIONS_VIEW, { minItems: 1 })).filter((r) => r.level === 1).map((r) => `${r.label}: ${r.description}`);
      console.warn(`      note: the first Auto Fix found no fix (status ${JSON.stringify(status)}, profiles ${JSON.stringify(rows)}); asking again`);
      await page().keyboard.press('Escape');
      await page().locator(SEL.overlayMessage).filter({ visible: true }).first().waitFor({ state: 'hidden', timeout: 20_000 });
      message = await editorMessageAfter(page(), 'Shift+Alt+Period');
    }
    assert.equal(message, RESTRICTED_MODE_MESSAGE);
    await screenshot(page(), 'restricted-01-autofix-reason');
    await page().keyboard.press('Escape');
  });

  it('7b. the code lens, the palette command and the tree do not refresh, and say why', async () => {
    await clickCodeLens(page(), 'Refresh');
    assert.equal(await waitForNotification(page(), 'Restricted Mode'), RESTRICTED_MODE_MESSAGE);
    await parkMouse(page());
    await screenshot(page(), 'restricted-02-lens-refused');
    await clearNotifications(page());

    await runCommand(page(), 'Hermes: Refresh Stale Sessions in Profile…');
    assert.equal(await waitForNotification(page(), 'Restricted Mode'), RESTRICTED_MODE_MESSAGE);
    await clearNotifications(page());

    // The tree keeps its read-only actions; the refresh actions are not offered.
    const profileActions = await treeItemActions(page(), SESSIONS_VIEW, 'default');
    assert.ok(!profileActions.includes('Refresh Stale Sessions in Profile…'), JSON.stringify(profileActions));
    const sessionActions = await treeItemActions(page(), SESSIONS_VIEW, 'Review the deploy pipeline');
    assert.ok(sessionActions.includes('Compare Stored Prompt with Refreshed Prompt'), JSON.stringify(sessionActions));
    assert.ok(!sessionActions.includes('Refresh Session Prompt'), JSON.stringify(sessionActions));
  });

  it('wrote nothing to any state.db', () => {
    assert.deepEqual(dbFiles().map(digest), baseline!.digests);
    assert.deepEqual(
      w!.home.manifest.profiles.map((p) => JSON.stringify([...readStateMeta(p.dbFile)].sort())),
      baseline!.meta,
    );
  });
});
