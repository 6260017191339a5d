// The SQLite binding as the editor learns it from the language server over stdio: the status
// notification names the binding `hermes-lens status --json` names in the same Node.js, the Output
// channel (window/logMessage) says which one reads state.db, and where none loads the status says so
// with each binding tried, which the status item's tooltip shows.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../server/demo/demoHome';
import { SQLITE_DRIVER_ENV, SQLITE_DRIVERS } from '../../server/hermes/store/connection';
import type { StatusParams } from '../../shared/protocol';
import { TestLspClient } from '../support/lspClient';
import { cliStatus } from '../e2e/support/hermesHome';

interface LogMessage {
  type: number;
  message: string;
}

describe('language server over stdio: the SQLite binding', function () {
  this.timeout(60000);
  let dir: string;
  let demo: DemoManifest;
  let client: TestLspClient | undefined;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-lsp-sqlite-'));
    demo = generateDemoHome(path.join(dir, 'demo'));
  });
  afterEach(() => client?.kill());
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names the binding that reads state.db in the status and in the Output channel, with its SQLite version', async () => {
    const cli = cliStatus(demo.root).sqlite;
    client = new TestLspClient({ home: demo.root });
    await client.initialize({ isTrusted: true });
    const status = await client.waitFor<StatusParams>('hermes/status', (s) => s.stale > 0);
    assert.equal(status.driver, cli.driver);
    // In the matrix's runs with one binding forced, it is the one the server reads with.
    if (process.env[SQLITE_DRIVER_ENV]) assert.equal(status.driver, process.env[SQLITE_DRIVER_ENV]);
    const log = await client.waitFor<LogMessage>('window/logMessage', (m) => m.message.startsWith('SQLite binding: '));
    assert.match(log.message, new RegExp(`^SQLite binding: ${cli.driver!.replace(/[/.]/g, '\\$&')} \\(SQLite ${cli.version!.replace(/\./g, '\\.')}\\) in Node\\.js ${process.version.replace(/\./g, '\\.')}, `));
  });

  it('where no binding loads, says so with each binding tried, in the status and as a warning in the Output channel, and stays up', async () => {
    client = new TestLspClient({ home: demo.root }, { ...process.env, [SQLITE_DRIVER_ENV]: 'no-such-binding' });
    await client.initialize({ isTrusted: true });
    const status = await client.waitFor<StatusParams>('hermes/status');
    assert.equal(status.driver, null);
    assert.equal(status.severity, 'error');
    for (const driver of SQLITE_DRIVERS) assert.ok(status.detail.includes(driver), status.detail);
    const warning = await client.waitFor<LogMessage>('window/logMessage', (m) => m.message.includes(SQLITE_DRIVER_ENV));
    assert.equal(warning.type, 2, 'a warning');
    assert.equal(await client.shutdown(), 0);
  });
});
