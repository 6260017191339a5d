// The walkthrough in a running VS Code: every command it links to or waits for exists here (ours,
// the language server's, the view's focus command and VS Code's own), and the workbench registered
// each of its steps: `welcome.markStepComplete` finds a step by `<extension id>#<walkthrough
// id>#<step id>` and fails on one it does not know.
//
// The workbench creates its walkthroughs service on first use (the test settings open no Welcome
// page) and registers the extensions' walkthroughs a few turns later, after asking the experiment
// service, which may take up to 5 s: the first step is waited for, the others must then be there.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HermesLensApi } from '../../../client/api';
import { pollUntil } from '../../e2e/support/codeServer';
import { walkthroughCommands, type Walkthrough } from '../../support/walkthrough';

const EXTENSION_ID = 'hermes-lens.hermes-prompt-lens';

describe('the walkthrough in the extension host', function () {
  this.timeout(60_000);
  let ext: vscode.Extension<HermesLensApi>;
  let walkthroughs: Walkthrough[];

  before(async function () {
    this.timeout(120_000);
    const found = vscode.extensions.getExtension<HermesLensApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is loaded in this host`);
    ext = found;
    // The language client registers the server's commands once the server has started.
    await (await ext.activate()).ready;
    walkthroughs = ext.packageJSON.contributes.walkthroughs;
    assert.ok(walkthroughs?.length, 'the extension contributes a walkthrough');
  });

  it('links to and waits for commands that exist in VS Code', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    const read = (file: string) => fs.readFileSync(path.join(ext.extensionPath, file), 'utf8');
    for (const walkthrough of walkthroughs) {
      const used = walkthroughCommands(walkthrough, read);
      assert.ok(used.length > 0, walkthrough.id);
      assert.deepEqual(used.filter((c) => !all.has(c)), [], `${walkthrough.id}: commands VS Code does not have`);
    }
  });

  it('is registered with the workbench, step by step', async () => {
    for (const walkthrough of walkthroughs) {
      const id = `${ext.id}#${walkthrough.id}`;
      const markComplete = async (step: string) => void (await vscode.commands.executeCommand('welcome.markStepComplete', `${id}#${step}`));
      const [first, ...rest] = walkthrough.steps;
      await pollUntil(`the workbench to know ${id}#${first!.id}`, () => markComplete(first!.id).then(() => true), { timeoutMs: 10_000, intervalMs: 50 });
      for (const step of rest) await markComplete(step.id);
      await assert.rejects(Promise.resolve(markComplete('no-such-step')), /does not exist/, 'a step the workbench does not know is refused');
    }
  });
});
