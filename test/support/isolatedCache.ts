// Loaded before the tests (mocha --require): the lens's disk caches (token counts, analyses kept
// between status runs) go to a folder of this test run, so no run reads what another build left in
// the user's cache folder, and nothing of the tests' temporary homes stays there. A run given its
// own HERMES_LENS_TOKEN_CACHE keeps it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

if (!process.env.HERMES_LENS_TOKEN_CACHE) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-lens-test-cache-'));
  process.env.HERMES_LENS_TOKEN_CACHE = dir;
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
}
