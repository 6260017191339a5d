// The walkthrough (contributes.walkthroughs) against what exists: its commands, views, settings,
// context keys and media files. The in-host suite (test/vscode) checks the same commands against a
// running VS Code, where the built-in ones are known for real.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS, CONTEXT_KEYS, FOCUS_SESSIONS_COMMAND } from '../../../client/ids';
import { Commands } from '../../../shared/protocol';
import { commandLinks, completionEvents, stepCommands, walkthroughCommands, type Walkthrough } from '../../support/walkthrough';
import { packageJson, readRootFile, rootDir } from './packageJson';

/** VS Code's own commands the walkthrough uses (the in-host suite finds each in VS Code). */
const BUILT_IN_COMMANDS = ['workbench.action.files.openFolder', 'workbench.action.openSettings', 'workbench.action.quickOpen'];

/** The completion events VS Code's walkthroughs understand. */
const EVENT_KINDS = ['onCommand', 'onLink', 'onView', 'onSettingChanged', 'onContext', 'onExtensionInstalled', 'onStepSelected'];

describe('client: the walkthrough', () => {
  const pkg = packageJson();
  const walkthroughs: Walkthrough[] = pkg.contributes.walkthroughs;
  const [walkthrough] = walkthroughs;
  const steps = walkthrough!.steps;

  it('is one walkthrough with a title, a description and steps of their own ids, each with a markdown page', () => {
    assert.equal(walkthroughs.length, 1);
    assert.ok(walkthrough!.id && walkthrough!.title && walkthrough!.description);
    assert.equal(new Set(steps.map((s) => s.id)).size, steps.length, 'step ids');
    for (const step of steps) {
      assert.ok(step.title && step.description, step.id);
      // VS Code shows a step's description as plain text with links: no code spans, no emphasis.
      assert.doesNotMatch(step.description.replace(/\[[^\]]*\]\([^)]*\)/g, ''), /[`*_]/, `${step.id}: markdown in the description`);
      assert.ok(step.media.markdown && fs.existsSync(path.join(rootDir(), step.media.markdown)), `${step.id}: ${step.media.markdown}`);
    }
  });

  it('refers only to commands that exist: ours, the language server’s, a view’s focus command or VS Code’s', () => {
    const views: Array<{ id: string }> = Object.values(pkg.contributes.views as Record<string, Array<{ id: string }>>).flat();
    const known = new Set<string>([
      ...pkg.contributes.commands.map((c: { command: string }) => c.command),
      ...Object.values(Commands),
      ...views.map((v) => `${v.id}.focus`),
      ...BUILT_IN_COMMANDS,
    ]);
    const used = walkthroughCommands(walkthrough!, readRootFile);
    assert.ok(used.length > 0);
    assert.deepEqual(used.filter((c) => !known.has(c)), [], 'unknown commands');
  });

  it('waits only for events VS Code knows, on views, settings and context keys that exist', () => {
    const views = Object.values(pkg.contributes.views as Record<string, Array<{ id: string }>>).flat().map((v) => v.id);
    const settings = Object.keys(pkg.contributes.configuration.properties);
    const contextKeys = new Set<string>(Object.values(CONTEXT_KEYS));
    for (const step of steps) {
      assert.ok((step.completionEvents ?? []).length > 0, `${step.id} has completion events`);
      for (const event of step.completionEvents!) assert.ok(EVENT_KINDS.includes(event.split(':')[0]!), `${step.id}: ${event}`);
      for (const view of completionEvents(step, 'onView')) assert.ok(views.includes(view), `${step.id}: onView:${view}`);
      for (const setting of completionEvents(step, 'onSettingChanged')) assert.ok(settings.includes(setting), `${step.id}: onSettingChanged:${setting}`);
      for (const expression of completionEvents(step, 'onContext')) {
        for (const key of expression.match(/hermesLens\.[\w.]+/g) ?? []) assert.ok(contextKeys.has(key), `${step.id}: context key ${key}`);
      }
    }
  });

  it('goes from opening the Hermes home, through the sessions and a stale SOUL.md, to a refresh', () => {
    const first = stepCommands(steps[0]!);
    assert.ok(first.includes('workbench.action.files.openFolder'), 'the first step opens a folder');
    assert.ok(steps[0]!.description.includes(`command:workbench.action.openSettings?${encodeURIComponent(JSON.stringify(['hermesLens.home']))}`), 'and offers hermesLens.home');
    assert.ok(completionEvents(steps[0]!, 'onSettingChanged').includes('hermesLens.home'));
    assert.ok(steps.some((s) => stepCommands(s).includes(FOCUS_SESSIONS_COMMAND) && completionEvents(s, 'onView').length > 0), 'a step shows the sessions view');
    assert.ok(steps.some((s) => /SOUL\.md/.test(s.title) && /lens/.test(s.description)), 'a step edits SOUL.md and points at the lens');
    const last = steps[steps.length - 1]!;
    assert.ok(commandLinks(last.description).includes(COMMANDS.refreshProfile), 'the last step refreshes');
    assert.ok(completionEvents(last, 'onCommand').includes(COMMANDS.refreshProfile));
    assert.ok(completionEvents(last, 'onCommand').includes(Commands.refresh), 'a refresh from the lens or the quick fix counts too');
  });

  it('ships its pages and their images, which exist, have alt text and stay small', () => {
    const ignore = readRootFile('.vscodeignore').split('\n').map((l) => l.trim());
    let bytes = 0;
    for (const step of steps) {
      const page = step.media.markdown!;
      assert.ok(page.startsWith('media/walkthrough/') && ignore.includes('!media/walkthrough/**'), `${page} ships`);
      for (const [, alt, src] of readRootFile(page).matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)) {
        assert.ok(alt!.length > 10, `${page}: alt text of ${src}`);
        const image = path.join(rootDir(), path.dirname(page), src!);
        assert.ok(image.startsWith(path.join(rootDir(), 'media', 'walkthrough') + path.sep) && fs.existsSync(image), `${page}: ${src}`);
      }
    }
    for (const f of fs.readdirSync(path.join(rootDir(), 'media', 'walkthrough'))) bytes += fs.statSync(path.join(rootDir(), 'media', 'walkthrough', f)).size;
    assert.ok(bytes < 250_000, `media/walkthrough holds ${bytes} bytes`);
  });
});
