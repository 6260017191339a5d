// Loaded before the tests (mocha --require, and first by the in-host runner test/vscode/runTests.ts):
// the lens's disk caches (token counts, analyses kept between status runs, the watches of refresh
// requests, the when-free schedule) go to a folder of this test run, so no run reads what another
// build left in the user's cache folder, and nothing of the tests' temporary homes stays there. The
// processes a tier starts (code-server and its extension host, VS Code, Neovim, the language server,
// the CLI) inherit the setting. A run given its own HERMES_LENS_TOKEN_CACHE keeps it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

if (!process.env.HERMES_LENS_TOKEN_CACHE) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-lens-test-cache-'));
  process.env.HERMES_LENS_TOKEN_CACHE = dir;
  // A language server the last test killed may still be writing its caches there as it exits:
  // retried, and left in the temporary folder rather than failing a run whose tests passed.
  process.once('exit', () => {
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    } catch {
      // left for the system's temporary-folder cleanup
    }
  });
}
