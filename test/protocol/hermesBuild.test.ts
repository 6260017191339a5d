// The Hermes build through the bundled server over stdio, on the demo home with a fake installation:
// the status names it, a request it cannot adopt is refused with nothing written (what a client
// without a confirmation, such as Neovim, meets), the setting names another installation, and an
// upgrade is seen at the next refresh preview.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { CodeAction } from 'vscode-languageserver-protocol/node';
import { writeHermesInstall, WITH_REFRESH, WITHOUT_REFRESH } from '../../server/demo/hermesInstall';
import { RefreshPreviewRequest, RefreshRequest, type SessionListResult, type StatusParams } from '../../shared/protocol';
import { demoServerPerTest } from './support/demoServer';

const STATUS = 'hermes/status';

function dbState(dbFile: string): string {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return JSON.stringify([db.prepare('SELECT key, value FROM state_meta ORDER BY key').all(), db.prepare('SELECT id, system_prompt_hash FROM sessions ORDER BY id').all()]);
  } finally {
    db.close();
  }
}

describe('language server over stdio: the Hermes build', function () {
  this.timeout(60_000);
  const fixture = demoServerPerTest('hl-protocol-build-');
  let install: string;
  beforeEach(() => {
    install = writeHermesInstall(path.join(fixture.demo.root, 'hermes-agent'), WITHOUT_REFRESH);
  });

  it('names v0.22.5 in the status, refuses a request it cannot adopt (nothing written), and offers clearing instead', async () => {
    const { client, demo } = fixture;
    await client.initialize({ isTrusted: true });
    const status = await client.waitFor<StatusParams>(STATUS);
    assert.deepEqual([status.hermes.version, status.hermes.path, status.hermes.refresh, status.severity], ['0.22.5', install, false, 'warning']);
    assert.ok(status.detail.includes(`Hermes 0.22.5 (${install}) cannot adopt a refresh request`), status.detail);

    const dbFile = path.join(demo.root, 'state.db');
    const before = dbState(dbFile);
    await assert.rejects(client.connection.sendRequest(RefreshRequest, { profile: 'default', onlyStale: true, strategy: 'epoch' }), (e: Error) =>
      /^Hermes 0\.22\.5 .* cannot adopt a refresh request: .* Nothing was written\.$/.test(e.message),
    );
    assert.equal(dbState(dbFile), before);

    const soul = path.join(demo.root, 'SOUL.md');
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const [all] = (await client.codeActions(uri)) as CodeAction[];
    assert.match(all!.title, /^Clear the stored prompts of \d+ stale sessions in profile default \(.*; Hermes 0\.22\.5 cannot adopt a refresh request\)$/);
    const since = client.mark();
    await client.executeCommand(all!.command!.command, all!.command!.arguments!);
    const list = await client.waitFor<SessionListResult>('hermes/sessionListChanged', (l) => l.profiles.find((p) => p.name === 'default')!.stale === 0, { since });
    assert.ok(list.profiles.find((p) => p.name === 'default')!.sessions.some((s) => s.state === 'no-prompt'));
  });

  it('reads the installation hermesLens.hermesInstall names, and sees an upgrade at the next refresh preview', async () => {
    const { client, demo } = fixture;
    const elsewhere = writeHermesInstall(path.join(fixture.dir, 'src', 'hermes-agent'), WITHOUT_REFRESH);
    client.settings = { home: demo.root, hermesInstall: elsewhere };
    await client.initialize({ isTrusted: true });
    const status = await client.waitFor<StatusParams>(STATUS);
    assert.equal(status.hermes.path, elsewhere);

    writeHermesInstall(elsewhere, WITH_REFRESH);
    const since = client.mark();
    const preview = await client.connection.sendRequest(RefreshPreviewRequest, { profile: 'default', onlyStale: true, strategy: 'epoch' });
    assert.deepEqual([preview.hermes.version, preview.hermes.refresh, preview.requestBlocked], ['0.23.0', true, null]);
    const published = await client.waitFor<StatusParams>(STATUS, (s) => s.hermes.refresh === true, { since });
    assert.equal(published.severity, 'ok');
  });
});
