// What the in-host test files share: the generated demo home's manifest (the runner names it) and
// the extension under test, activated and ready.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { HermesLensApi } from '../../../client/api';
import type { DemoManifest } from '../../../server/demo/demoHome';

const EXTENSION_ID = 'hermes-lens.hermes-prompt-lens';

export function manifest(): DemoManifest {
  const file = process.env.HERMES_LENS_TEST_MANIFEST;
  if (!file || !fs.existsSync(file)) throw new Error(`HERMES_LENS_TEST_MANIFEST does not name the demo manifest (${file})`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as DemoManifest;
}

/** Activates the extension and waits for its server and first session list (its API's `ready`). */
export async function activateLens(): Promise<HermesLensApi> {
  const ext = vscode.extensions.getExtension<HermesLensApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is loaded in this host`);
  const api = await ext.activate();
  await api.ready;
  return api;
}
