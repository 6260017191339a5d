// End to end in a real VS Code (code-server 4.100.3 in Debian's headless Chromium), trusted
// workspace: the packaged extension on a generated Hermes home, driven the way a user drives it.
// Every figure the UI shows is checked against what the CLI (the engine outside the editor) or the
// demo's manifest says, and every write against Hermes' state.db read directly from here.
// The steps build on each other (edit → refresh → Hermes adopts), so they run in order.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { savedSourceMessage } from '../../client/format';
import { writeHermesInstall, WITH_REFRESH, WITHOUT_REFRESH } from '../../server/demo/hermesInstall';
import { appendMessages, startSession, takeTurn } from '../../server/demo/hermes';
import { keptWatches } from '../support/lensCacheSetting';
import {
  answerDialog,
  beforeDecorations,
  clearNotifications,
  clickNotificationButton,
  clickTreeItem,
  clickTreeItemAction,
  dismissHover,
  hoverAt,
  openFile,
  openQuickFix,
  parkMouse,
  runCommand,
  save,
  screenshot,
  SEL,
  setSideBarWidth,
  statusBarItemTooltip,
  toggleTreeItem,
  treeItems,
  typeInEditor,
  waitForCodeLenses,
  waitForDialog,
  waitForNotification,
  waitForStatusBarItem,
} from './support/browser';
import {
  cliPrefixes,
  cliProfile,
  cliStatus,
  expectedStatusText,
  holdsStoredPrompt,
  readModelConfig,
  readStateMeta,
  requestedEpochOf,
  staleBecauseOf,
  totals,
  usd,
  type CliStatus,
} from './support/hermesHome';
import {
  endOf,
  endOfLine,
  reportFailures,
  clearScreenshots,
  openLensWorkbench,
  pollUntil,
  rowState,
  sessionRows,
  SESSIONS_VIEW,
  STARTUP_TIMEOUT,
  STATUS_ITEM,
  waitForFile,
  waitForTreeStates,
  type LensWorkbench,
} from './lensWorkbench';

/** The code lens at the top of a source file, as the README words it, from the CLI's figures. */
function lensTitles(stale: { sessions: unknown[]; cost: number; unknown: number }): string[] {
  const n = stale.sessions.length;
  return [`${n} session${n === 1 ? '' : 's'} stale · ${usd(stale.cost)} now${stale.unknown ? ` + ${stale.unknown} unknown` : ''}`, 'Refresh'];
}

describe('e2e (code-server + Chromium): the packaged extension in a trusted workspace', function () {
  this.timeout(120_000);
  let w: LensWorkbench | undefined;
  const page = () => w!.page;
  const home = () => w!.home;
  const soulStale = (s: CliStatus) => staleBecauseOf(s, 'default', home().soul);

  before(async function () {
    this.timeout(STARTUP_TIMEOUT + 180_000); // the first run on a machine may install code-server (~90 s)
    clearScreenshots('lens');
    // Hermes 0.23.0 where its installer puts it: a build that adopts refresh requests.
    w = await openLensWorkbench({ trust: true, hermes: WITH_REFRESH });
  });
  after(async () => {
    await w?.stop();
  });
  reportFailures(() => w, 'lens');

  it('1. the status item shows the demo’s stale count and refresh cost; the tree lists the sessions', async () => {
    const cli = cliStatus(home().root);
    const manifestStale = Object.values(home().manifest.sessions).filter((s) => s.state === 'stale').length;
    assert.equal(totals(cli).stale, manifestStale, 'the CLI and the demo manifest agree on the stale count');

    const shown = await waitForStatusBarItem(page(), STATUS_ITEM, /\d+ stale/, STARTUP_TIMEOUT);

    await setSideBarWidth(page(), 560);
    const rows = await treeItems(page(), SESSIONS_VIEW, { minItems: 3 });
    for (const p of cli.profiles) {
      const row = rows.find((r) => r.level === 1 && r.label === p.name);
      assert.ok(row, `profile row ${p.name} in ${JSON.stringify(rows.map((r) => r.label))}`);
      if (p.totals.stale > 0) assert.match(row.description, new RegExp(`${p.totals.stale} stale · ${escape(usd(p.totals.staleRefreshCostUsd))}`));
      if (p.totals.pending > 0) assert.match(row.description, new RegExp(`${p.totals.pending} pending`));
    }
    const def = cliProfile(cli, 'default');
    const live = def.sessions.filter((s) => s.state !== 'ended');
    const shownRows = sessionRows(rows, 'default');
    assert.deepEqual(
      shownRows.map((r) => `${r.label}=${rowState(r)}`).sort(),
      live.map((s) => `${s.title}=${s.state}`).sort(),
      'the default profile lists every live session with the state the CLI computes',
    );
    for (const r of shownRows) {
      const icon = { stale: 'warning', fresh: 'pass', pending: 'sync', 'no-prompt': 'circle-slash', ended: 'archive' }[rowState(r)!];
      assert.equal(r.icon, icon, `icon of ${r.label}`);
    }
    await parkMouse(page());
    await screenshot(page(), 'lens-01-status-and-tree');
    assert.equal(shown, expectedStatusText(cli), 'the status item');
    // Its tooltip names the Hermes build serving the home, as the CLI finds it.
    assert.equal(cli.hermes.summary, `Hermes 0.23.0 (${home().hermesInstall}) adopts refresh requests.`);
    const tooltip = await statusBarItemTooltip(page(), STATUS_ITEM, (t) => t.includes('Hermes 0.23.0'));
    assert.ok(tooltip.includes(cli.hermes.summary), tooltip);
  });

  it('1b. the Prefix sharing section lists the stable-tier cache entries and where they part, as the CLI finds them', async () => {
    const cli = cliPrefixes(home().root);
    const stable = cli.families.filter((f) => f.breakpoint === 'stable');
    const sessions = new Set(stable.flatMap((f) => f.members.map((m) => `${m.profile}/${m.sessionId}`))).size;
    const profiles = new Set(stable.flatMap((f) => f.members.map((m) => m.profile))).size;
    const rows = await treeItems(page(), SESSIONS_VIEW, { minItems: 3 });
    const section = rows.find((r) => r.level === 1 && r.label === 'Prefix sharing');
    assert.ok(section, `a Prefix sharing row in ${JSON.stringify(rows.map((r) => r.label))}`);
    assert.equal(section.description, `${stable.length} cache entries · ${sessions} sessions · ${profiles} profiles`);
    await toggleTreeItem(page(), SESSIONS_VIEW, 'Prefix sharing');
    const expanded = await pollUntil('the stable-tier entries under Prefix sharing', async () => {
      const r = await treeItems(page(), SESSIONS_VIEW, { minItems: 3 });
      const at = r.findIndex((x) => x.label === 'Prefix sharing');
      const below = r.slice(at + 1).filter((x) => x.level === 2);
      return below.length >= Math.min(stable.length, 50) ? below : undefined;
    });
    const families = expanded.filter((r) => !r.label.startsWith('Where they part'));
    assert.deepEqual(families.map((r) => r.label).sort(), stable.slice(0, 50).map((f) => `${f.profiles.join(', ')} · ${f.platforms.join(', ')}`).sort());
    const partings = expanded.find((r) => r.label.startsWith('Where they part'));
    assert.equal(partings?.label, `Where they part (${cli.partings.length})`);
    await parkMouse(page());
    await screenshot(page(), 'lens-01b-prefix-sharing');
    await toggleTreeItem(page(), SESSIONS_VIEW, 'Prefix sharing', false);
  });

  it('2. editing and saving SOUL.md changes the stale count and the code lens', async () => {
    const soul = home().soul;
    const before = cliStatus(home().root);
    await openFile(page(), 'SOUL.md');
    const lenses = await waitForCodeLenses(page(), (t) => /stale|current/.test(t[0] ?? ''), 'the SOUL.md code lens');
    assert.deepEqual(lenses, lensTitles(soulStale(before)));

    const added = 'Always name the ticket in the commit message.';
    await typeInEditor(page(), `\n${added}`, endOf(soul));
    // Unsaved, the lens and the status item say what saving would do (checked against the CLI once saved).
    const [previewLens] = await waitForCodeLenses(page(), (t) => /^Preview \(unsaved\): /.test(t[0] ?? ''), 'the preview lens of the unsaved SOUL.md');
    const previewStatus = await waitForStatusBarItem(page(), STATUS_ITEM, /^Hermes \(unsaved\): saving makes /);
    await parkMouse(page());
    await screenshot(page(), 'lens-02a-unsaved-preview');
    await save(page());
    await waitForFile(soul, (t) => t.endsWith(`\n${added}`), 'SOUL.md saved to disk');

    const after = cliStatus(home().root);
    const newly = soulStale(after).sessions.filter((s) => !soulStale(before).sessions.some((b) => b.id === s.id));
    assert.ok(newly.length > 0, 'the demo has fresh sessions that a SOUL.md edit makes stale');
    assert.equal(totals(after).stale, totals(before).stale + newly.length);
    const preview = `saving makes ${soulStale(after).sessions.length} sessions stale · ≈ $`;
    assert.ok(previewLens!.startsWith(`Preview (unsaved): ${preview}`), previewLens);
    assert.ok(previewStatus.startsWith(`Hermes (unsaved): ${preview}`), previewStatus);

    // One click after a save: the notification names the count and the cost, with Refresh / Not now.
    const message = savedSourceMessage({
      uri: pathToFileURL(soul).toString(),
      profile: 'default',
      newlyStale: newly.length,
      staleRefreshCostUsd: cliProfile(after, 'default').totals.staleRefreshCostUsd,
    });
    assert.deepEqual(await waitForCodeLenses(page(), (t) => t[0] === lensTitles(soulStale(after))[0], 'the updated code lens'), lensTitles(soulStale(after)));
    const stale = new RegExp(`\\b${totals(after).stale} stale\\b`);
    await waitForStatusBarItem(page(), STATUS_ITEM, stale);
    assert.equal(await waitForNotification(page(), /^Saving SOUL\.md made/), message);
    await screenshot(page(), 'lens-02-saved-soul-notification');
    await clickNotificationButton(page(), /^Saving SOUL\.md made/, 'Not now');
    assert.equal(await waitForStatusBarItem(page(), STATUS_ITEM, stale), expectedStatusText(after), 'the status item');
  });

  it('3. hovering a line of SOUL.md shows its tier and what refreshing costs', async () => {
    const cli = cliStatus(home().root);
    const stale = soulStale(cli);
    const live = cliProfile(cli, 'default').sessions.filter((s) => s.state !== 'ended' && s.state !== 'no-prompt');
    const text = (await hoverAt(page(), 2, 5)).replace(/\s+/g, ' ');
    assert.match(text, /Hermes · stable tier/);
    assert.match(text, /This file puts [\d,]+ bytes \(≈?[\d,]+ tokens\) into the prompt · \d+% of the system prompt\./);
    assert.ok(text.includes(`Carried by ${live.length} live sessions in 1 profile.`), text);
    assert.ok(text.includes(`${stale.sessions.length} stale because of this file · refreshing them now: ${usd(stale.cost)}`), text);
    await screenshot(page(), 'lens-03-hover');
    await dismissHover(page());
  });

  it('a session’s stored prompt opens with its tiers marked, and the diff shows what a refresh changes', async () => {
    const id = home().id('atlas-tui');
    const title = 'Review the deploy pipeline';
    await clickTreeItem(page(), SESSIONS_VIEW, title);
    await page().locator(SEL.activeTab).filter({ hasText: `${id}.hermes-prompt` }).waitFor({ timeout: 20_000 });
    await pollUntil('the language mode Hermes Prompt', async () => (await page().locator('#status\\.editor\\.mode').textContent())?.trim() === 'Hermes Prompt', {
      timeoutMs: 20_000,
    });
    const tiers = await pollUntil('tier decorations in the stored prompt', async () => {
      const d = await beforeDecorations(page());
      // Decorations render as the editor lays out: wait for all three boundaries.
      return ['stable', 'context', 'volatile'].every((t) => d.some((x) => x.startsWith(`── ${t} tier`))) ? d : undefined;
    }, { timeoutMs: 20_000 });
    // The demo's prompts are short enough that all three tier boundaries are on the first screen.
    assert.deepEqual(tiers.map((t) => /^── (\w+) tier · [\d.]+ (B|KB) · (≈ )?[\d,]+ tokens ──$/.exec(t)?.[1]), ['stable', 'context', 'volatile'], JSON.stringify(tiers));
    await parkMouse(page());
    await screenshot(page(), 'lens-04-stored-prompt-tiers');

    await clickTreeItemAction(page(), SESSIONS_VIEW, title, 'Compare Stored Prompt with Refreshed Prompt');
    const diff = page().locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 20_000 });
    await page().locator(SEL.activeTab).filter({ hasText: `${title}: stored ↔ after refresh` }).waitFor({ timeout: 20_000 });
    // The modified side holds the sentence typed into SOUL.md in step 2, marked as inserted.
    await pollUntil('the inserted SOUL.md line in the diff', async () => {
      const lines = await diff.locator('.editor.modified .view-line').allTextContents();
      return lines.some((l) => l.replace(/\u00a0/g, ' ').includes('Always name the ticket in the commit message.'));
    }, { timeoutMs: 20_000 });
    assert.ok((await diff.locator('.editor.modified .line-insert, .editor.modified .char-insert').count()) > 0, 'insertions are marked');
    await parkMouse(page());
    await screenshot(page(), 'lens-05-diff');
    await runCommand(page(), 'View: Close All Editors');
  });

  it('4. the quick fix on SOUL.md refreshes the stale sessions after a modal confirmation, writing the profile-wide request', async () => {
    // Hermes starts a session after the edit: its prompt holds today's SOUL.md, so it is fresh.
    const def = home().profile('default');
    const now = Date.now() / 1000;
    startSession(def.dbFile, def.dir, { source: 'cli', model: 'claude-sonnet-4-5', title: 'Started after the edit', startedAt: now - 30, lastActivityAt: now - 20, messages: 2 });
    await waitForTreeStates(page(), 'default', ['Started after the edit'], 'fresh');
    const cli = cliStatus(home().root);
    const stale = soulStale(cli);
    const n = stale.sessions.length;
    const profile = cliProfile(cli, 'default');
    assert.equal(profile.totals.stale, n, 'in the demo SOUL.md made every stale session of default stale');
    const fresh = profile.sessions.filter((s) => s.state === 'fresh').length;
    const db = def.dbFile;
    const metaBefore = readStateMeta(db);

    await openFile(page(), 'SOUL.md');
    const expectedTitle = `Refresh ${n} stale sessions in profile default (${usd(stale.cost)}${stale.unknown ? `, ${stale.unknown} of unknown cost` : ''})`;
    const titles = await openQuickFix(page(), { at: { line: 1, column: 1 }, untilOffered: true });
    assert.equal(titles[0], expectedTitle, 'the profile-wide refresh comes first');
    assert.equal(titles.length, 1 + n, 'plus one action per stale session');
    await screenshot(page(), 'lens-06-quick-fix');
    await page().keyboard.press('Escape');
    await page().locator(SEL.actionWidget).filter({ visible: true }).first().waitFor({ state: 'hidden', timeout: 20_000 });
    await openQuickFix(page(), { at: { line: 1, column: 1 }, pick: expectedTitle, untilOffered: true });

    // The real modal: count and the warm/cold split of the cost, and why the fresh sessions are not counted.
    const dialog = await waitForDialog(page(), `Refresh ${n} stale sessions in profile default?`);
    const warm = stale.sessions.filter((s) => s.cacheWarm).length;
    if (warm > 0) assert.match(dialog.text, new RegExp(`${warm} sessions? with a warm cache: `));
    if (warm < n) assert.match(dialog.text, new RegExp(`${n - warm} sessions? with an expired cache: `));
    assert.equal(fresh, 1, 'the session started after the edit');
    assert.ok(dialog.text.includes(cli.hermes.summary), `the build in the confirmation: ${dialog.text}`);
    assert.ok(dialog.text.includes("Records Hermes' profile-wide refresh request."), dialog.text);
    assert.ok(dialog.text.includes('The fresh session rebuilds the same prompt and keeps its cache: no cost, not counted above.'), dialog.text);
    assert.ok(dialog.buttons.includes('Refresh'), JSON.stringify(dialog.buttons));
    if (warm > 0) {
      assert.ok(dialog.buttons.includes('Refresh When Free'), JSON.stringify(dialog.buttons));
      assert.match(dialog.text, /Refresh When Free: each session's request waits until its prompt cache expires/);
    }
    await screenshot(page(), 'lens-07-confirm-refresh');
    await answerDialog(page(), `Refresh ${n} stale sessions in profile default?`, 'Refresh');

    const message = await waitForNotification(page(), /^Requested a system prompt refresh/);
    assert.match(message, /^Requested a system prompt refresh for every session in this profile \(\d+ session\(s\) with a stored prompt\)/);
    // The confirmation counts how the request stands: every session it concerns waits for its turn.
    assert.match(message, /The lens watches each: \d+ waiting for a turn\.$/);

    // The tree follows by itself: the sessions turn pending.
    await waitForTreeStates(page(), 'default', [...stale.sessions.map((s) => s.title!), 'Started after the edit'], 'pending');

    // The state.db, read from here: the profile-wide request, ahead of every stamp, and no key per session.
    const meta = readStateMeta(db);
    const requested = Number(meta.get('prompt_refresh_epoch'));
    assert.ok(requested > Number(metaBefore.get('prompt_refresh_epoch') ?? 0), `prompt_refresh_epoch ${meta.get('prompt_refresh_epoch')}`);
    for (const s of stale.sessions) assert.ok(requested > s.stampedEpoch, `${s.id}: requested ${requested} > stamped ${s.stampedEpoch}`);
    const perSession = (m: Map<string, string>) => [...m].filter(([k]) => k.startsWith('prompt_refresh_epoch:')).map((e) => e.join('='));
    assert.deepEqual(perSession(meta), perSession(metaBefore));
    const after = cliStatus(home().root);
    for (const s of stale.sessions) assert.equal(cliProfile(after, 'default').sessions.find((x) => x.id === s.id)?.state, 'pending');
    await parkMouse(page());
    await screenshot(page(), 'lens-08-refreshed-pending');
    const text = await waitForStatusBarItem(page(), STATUS_ITEM, new RegExp(`\\b${totals(after).pending} pending\\b`));
    assert.equal(text, expectedStatusText(after), 'the status item');
  });

  it('5. when Hermes takes a turn that adopts the refresh (rebuilds the prompt, stamps the epoch) the tree shows the session fresh and adopted', async () => {
    const def = home().profile('default');
    const id = home().id('atlas-tui');
    const { adopted } = takeTurn(def.dbFile, id, def.dir, { now: Date.now() / 1000, seed: 5 });
    assert.ok(adopted && adopted.epoch > 0);
    assert.equal(readModelConfig(def.dbFile, id).prompt_refresh_epoch, adopted.epoch);
    // No click, no command: the server watches state.db, sees the turn, and pushes the new list.
    const rows = await waitForTreeStates(page(), 'default', ['Review the deploy pipeline'], 'fresh');
    const row = await pollUntil('the row to say adopted', async () => {
      const found = sessionRows(await treeItems(page(), SESSIONS_VIEW, { minItems: 2 }), 'default').find((r) => r.label === 'Review the deploy pipeline');
      return found && / · adopted$/.test(found.ariaLabel) ? found : undefined;
    }).catch((e) => {
      throw new Error(`${(e as Error).message}: ${JSON.stringify(rows.map((r) => r.ariaLabel))}`);
    });
    assert.match(row.ariaLabel, /^Review the deploy pipeline, fresh, .* · adopted$/);
    // status follows from what the editor's server keeps in the cache folder (written within a second): the same verdict.
    const after = await pollUntil('status to tell the adoption', async () => {
      const status = cliStatus(home().root);
      return cliProfile(status, 'default').sessions.find((x) => x.id === id)?.adoption?.state === 'adopted' ? status : undefined;
    });
    assert.equal(cliProfile(after, 'default').sessions.find((x) => x.id === id)!.state, 'fresh');
    assert.ok(keptWatches(def.dbFile).some((w) => w.sessionId === id), "the editor's server keeps the watch in this test run's cache folder");
    await parkMouse(page());
    await screenshot(page(), 'lens-09-adopted-fresh');
    const text = await waitForStatusBarItem(page(), STATUS_ITEM, new RegExp(`\\b${totals(after).pending} pending\\b`));
    assert.equal(text, expectedStatusText(after), 'the status item');
  });

  it('6. a skill body edit leaves the stale count unchanged; a description edit raises it', async () => {
    const work = home().profile('work');
    const skill = path.join(work.dir, 'skills', 'ops', 'ticket-triage', 'SKILL.md');
    const rel = path.relative(home().root, skill);
    const before = cliStatus(home().root);
    const statusBefore = await waitForStatusBarItem(page(), STATUS_ITEM, /./);

    await openFile(page(), rel);
    await typeInEditor(page(), '\nEscalate anything that blocks a release.', endOf(skill));
    await save(page());
    await waitForFile(skill, (t) => t.includes('Escalate anything that blocks a release.'), 'the body edit on disk');
    // The hover is answered after the server handled the save (one ordered connection): a barrier.
    const hover = (await hoverAt(page(), endOf(skill).line, 2)).replace(/\s+/g, ' ');
    assert.match(hover, /skill's body: it is not in the system prompt/);
    await dismissHover(page());
    const afterBody = cliStatus(home().root);
    assert.equal(totals(afterBody).stale, totals(before).stale, 'the CLI agrees: a body edit changes no session');
    assert.equal(await waitForStatusBarItem(page(), STATUS_ITEM, /./), statusBefore, 'the status item did not change');

    const fresh = cliProfile(before, 'work').sessions.filter((s) => s.state === 'fresh');
    assert.ok(fresh.length > 0, 'profile work has fresh sessions');
    await typeInEditor(page(), ', then link the runbook', endOfLine(skill, 'description:'));
    await save(page());
    await waitForFile(skill, (t) => t.includes('owner, then link the runbook'), 'the description edit on disk');
    const afterDescription = cliStatus(home().root);
    assert.equal(totals(afterDescription).stale, totals(before).stale + fresh.length, 'the CLI: every fresh work session is now stale');
    assert.match(await waitForNotification(page(), /^Saving SKILL\.md made/), new RegExp(`made ${fresh.length} sessions? stale in profile work`));
    const text = await waitForStatusBarItem(page(), STATUS_ITEM, new RegExp(`\\b${totals(afterDescription).stale} stale\\b`));
    await parkMouse(page());
    await screenshot(page(), 'lens-10-skill-description-edit');
    assert.equal(text, expectedStatusText(afterDescription), 'the status item');
  });

  it('7. "Refresh When Free" waits for each warm cache: the tree counts down, state.db waits; a refresh by other means ends the wait', async () => {
    const work = home().profile('work');
    // Hermes takes a turn in one stale session: its cache is warm for the next five minutes.
    const active = cliProfile(cliStatus(home().root), 'work').sessions.find((s) => s.state === 'stale')!;
    appendMessages(work.dbFile, active.id, 2);
    const stale = cliProfile(cliStatus(home().root), 'work').sessions.filter((s) => s.state === 'stale');
    const warm = stale.filter((s) => s.cacheWarm);
    const cold = stale.filter((s) => !s.cacheWarm);
    assert.ok(warm.some((s) => s.id === active.id), 'the active session is stale with a warm cache');
    const before = readStateMeta(work.dbFile);
    // The server has seen the turn once the tree shows it.
    await toggleTreeItem(page(), SESSIONS_VIEW, 'work', true);
    await pollUntil('the turn in the tree', async () => {
      const row = sessionRows(await treeItems(page(), SESSIONS_VIEW, { minItems: 2 }), 'work').find((r) => r.label === active.title);
      return row && /just now/.test(row.description) ? row : undefined;
    }, { timeoutMs: 20_000 });

    await clickTreeItemAction(page(), SESSIONS_VIEW, 'work', 'Refresh Stale Sessions in Profile…');
    const question = `Refresh ${stale.length} stale session${stale.length === 1 ? '' : 's'} in profile work?`;
    const dialog = await waitForDialog(page(), question);
    assert.ok(dialog.buttons.includes('Refresh When Free'), JSON.stringify(dialog.buttons));
    await screenshot(page(), 'lens-11-confirm-when-free');
    await answerDialog(page(), question, 'Refresh When Free');
    const message = await waitForNotification(page(), /^Scheduled \d+ refresh request/);
    assert.match(message, new RegExp(`^Scheduled ${warm.length} refresh requests? in profile work for when each session's prompt cache expires`));

    // Each warm session counts down in the tree; a cold one is refreshed at once (pending).
    await pollUntil('the countdown on each warm session', async () => {
      const shown = sessionRows(await treeItems(page(), SESSIONS_VIEW, { minItems: 2 }), 'work');
      return warm.every((s) => shown.some((r) => r.label === s.title && /· refresh in \d+[hms]/.test(r.description))) ? shown : undefined;
    }, { timeoutMs: 20_000 });
    if (cold.length > 0) await waitForTreeStates(page(), 'work', cold.map((s) => s.title!), 'pending');
    const meta = readStateMeta(work.dbFile);
    for (const s of warm) assert.equal(meta.get(`prompt_refresh_epoch:${s.id}`), before.get(`prompt_refresh_epoch:${s.id}`), `nothing written yet for ${s.title}`);
    for (const s of cold) assert.ok(requestedEpochOf(meta, s.id) > s.stampedEpoch, `${s.title} written now`);
    await parkMouse(page());
    await screenshot(page(), 'lens-12-refresh-when-free-countdown');

    // Refreshed now by other means (Refresh instead): the wait ends and the countdowns go.
    await clickTreeItemAction(page(), SESSIONS_VIEW, 'work', 'Refresh Stale Sessions in Profile…');
    const again = `Refresh ${warm.length} stale session${warm.length === 1 ? '' : 's'} in profile work?`;
    await answerDialog(page(), again, 'Refresh');
    await waitForTreeStates(page(), 'work', warm.map((s) => s.title!), 'pending');
    await pollUntil('the countdowns gone', async () => {
      const shown = sessionRows(await treeItems(page(), SESSIONS_VIEW, { minItems: 2 }), 'work');
      return shown.every((r) => !/refresh in/.test(r.description)) ? shown : undefined;
    }, { timeoutMs: 20_000 });
  });

  it('8. with Hermes back at v0.22.5, the status item and the tree say a request cannot be adopted, and the refresh offers clearing the prompts instead', async () => {
    const def = home().profile('default');
    writeHermesInstall(home().hermesInstall, WITHOUT_REFRESH);
    // Hermes (now 0.22.5) runs a turn: once its writes settle, the lens reads the build again.
    appendMessages(def.dbFile, home().id('atlas-tui'), 2);
    const cli = cliStatus(home().root);
    assert.equal(cli.hermes.summary, `Hermes 0.22.5 (${home().hermesInstall}) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after v0.22.5.`);
    const tooltip = await statusBarItemTooltip(page(), STATUS_ITEM, (t) => t.includes('Hermes 0.22.5'));
    assert.ok(tooltip.includes(cli.hermes.summary), tooltip);

    // The sessions step 4 left pending are stale again, with a request their build cannot adopt.
    const profile = cliProfile(cli, 'default');
    const stale = profile.sessions.filter((s) => s.state === 'stale');
    assert.ok(stale.length > 0 && stale.every((s) => s.unadoptableRequest), JSON.stringify(profile.sessions.map((s) => [s.title, s.state, s.unadoptableRequest])));
    assert.equal(profile.totals.pending, 0);
    const rows = await waitForTreeStates(page(), 'default', stale.map((s) => s.title!), 'stale');
    // The demo holds one session an older build wrote (its skills index in the stable tier): the tree says so after the request.
    for (const s of stale) {
      const other = s.otherBuild === null ? '' : ' · other build';
      assert.ok(rows.find((r) => r.label === s.title)!.description.endsWith(`requested, but this Hermes build cannot adopt it${other}`), s.title ?? s.id);
    }
    await parkMouse(page());
    await screenshot(page(), 'lens-11-build-cannot-adopt');

    // The profile's refresh from the tree: the older way is offered (always asked), with its drawbacks.
    await clearNotifications(page());
    await clickTreeItemAction(page(), SESSIONS_VIEW, 'default', 'Refresh Stale Sessions in Profile…');
    const title = `Clear the stored prompt of ${stale.length} stale sessions in profile default instead?`;
    const dialog = await waitForDialog(page(), title);
    assert.ok(dialog.text.includes(`Hermes 0.22.5 (${home().hermesInstall}) cannot adopt a refresh request`), dialog.text);
    assert.match(dialog.text, /it also fires the on_session_start hooks, and an agent a running gateway holds in memory does not see it until the gateway restarts/);
    assert.ok(dialog.buttons.includes('Clear Stored Prompts') && !dialog.buttons.includes('Refresh'), JSON.stringify(dialog.buttons));
    await screenshot(page(), 'lens-12-older-way-offer');
    await answerDialog(page(), title, 'Clear Stored Prompts');
    assert.match(await waitForNotification(page(), /^Requested a system prompt refresh/), /Stored prompts cleared/);

    // state.db, read from here: the stale sessions' prompts are cleared, no request was added.
    await waitForTreeStates(page(), 'default', stale.map((s) => s.title!), 'no-prompt');
    for (const s of stale) assert.equal(holdsStoredPrompt(def.dbFile, s.id), false, `${s.id} still holds its prompt`);
    assert.equal(readStateMeta(def.dbFile).get('prompt_refresh_epoch'), String(profile.requestedEpoch), 'no new request');
  });
});

function escape(s: string): string {  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
