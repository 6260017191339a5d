// The language server's view of the Hermes build, on homes with fake installations: the status item
// names it, the refresh preview carries it, the actions offer the older way where the build cannot
// adopt a request (and the service writes none there), and an upgrade seen later changes all of it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CodeAction } from 'vscode-languageserver/node';
import { writeHermesInstall, WITH_REFRESH, WITHOUT_REFRESH } from '../../../server/demo/hermesInstall';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import { HermesError } from '../../../server/hermes/errors';
import { PROFILE_EPOCH_KEY } from '../../../server/hermes/refresh/epochs';
import { statusOf } from '../../../server/workspace/dto';
import { provideCodeActions } from '../../../server/lsp/features/codeActions';
import { provideCodeLenses } from '../../../server/lsp/features/codeLens';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { RefreshService } from '../../../server/workspace/refreshService';
import { pathToUri } from '../../../server/lsp/uri';
import type { RefreshParams } from '../../../shared/protocol';
import { inspect, removeDir, tempDir, type RawRow } from '../demo/support';

const NOW = 1_795_000_000;

describe('lsp: the Hermes build in the status, the preview and the refresh actions', function () {
  this.timeout(30000);
  let dir: string;
  let home: HomeBuilder;
  let def: ProfileBuilder;
  let soul: string;
  let install: string;
  let model: HermesModel;
  let service: RefreshService;
  const stale: string[] = [];

  beforeEach(() => {
    dir = tempDir('hermes-lsp-build-');
    home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 91 });
    def = home.profile();
    def.writeSoul('You are Kit.\n');
    stale.length = 0;
    for (const minutes of [2, 5]) {
      stale.push(def.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - minutes * 60, messages: 4, promptFromCurrentFiles: true }));
    }
    def.writeSoul('You are Kit. Answer briefly.\n');
    soul = path.join(home.root, 'SOUL.md');
    install = writeHermesInstall(path.join(home.root, 'hermes-agent'), WITHOUT_REFRESH);
    model = new HermesModel(() => NOW);
    // A PATH and HOME of the test's own: no hermes command of this machine plays a part.
    model.configure({ home: home.root, profiles: [], env: { PATH: '', HOME: dir } });
    service = new RefreshService(model, () => true, () => 'epoch');
  });
  afterEach(() => {
    model.dispose();
    removeDir(dir);
  });

  const actions = (): CodeAction[] =>
    provideCodeActions(model, { textDocument: { uri: pathToUri(soul) }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } }, true);
  const prompts = () => inspect(def.dbFile, (db) => db.prepare('SELECT id, system_prompt_hash FROM sessions ORDER BY id').all() as RawRow[]);
  const meta = () => inspect(def.dbFile, (db) => db.prepare('SELECT key, value FROM state_meta').all() as RawRow[]);

  it('names the build in the status item, as a warning when it cannot adopt a refresh request', () => {
    const status = statusOf(model, 'better-sqlite3', undefined);
    assert.deepEqual([status.hermes.version, status.hermes.path, status.hermes.refresh], ['0.22.5', install, false]);
    assert.equal(status.detail.split('\n')[1], `Hermes 0.22.5 (${install}) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after v0.22.5.`);
    assert.equal(status.severity, 'warning');
  });

  it('offers clearing the stored prompts, with the reason in the title, instead of a request nothing would read', () => {
    const [all, ...one] = actions();
    assert.match(all!.title, /^Clear the stored prompts of 2 stale sessions in profile default \(≈ \$[\d.]+; Hermes 0\.22\.5 cannot adopt a refresh request\)$/);
    assert.deepEqual(all!.command!.arguments, [{ profile: 'default', onlyStale: true, strategy: 'clear-prompt' }]);
    assert.equal(one.length, 2);
    for (const a of one) {
      assert.match(a.title, /^Clear the stored prompt of session /);
      assert.equal((a.command!.arguments![0] as RefreshParams).strategy, 'clear-prompt');
    }
    const lens = provideCodeLenses(model, { textDocument: { uri: pathToUri(soul) } })[1]!;
    assert.equal(lens.command!.title, 'Clear stored prompts');
  });

  it('previews the build and why no request is written; refuses one, writing nothing; clears the stale prompts when asked', () => {
    const preview = service.preview({ profile: 'default', onlyStale: true, strategy: 'epoch' });
    assert.equal(preview.hermes.version, '0.22.5');
    assert.equal(preview.requestBlocked, `Hermes 0.22.5 (${install}) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after v0.22.5, so a request would never be read.`);
    const clearing = service.preview({ profile: 'default', onlyStale: true, strategy: 'clear-prompt' });
    assert.match(clearing.effect, /^Clears the stored prompt of each session, the older way for Hermes builds without refresh-prompts: each rebuilds it on its next turn, but it also fires the on_session_start hooks, and an agent a running gateway holds in memory does not see it until the gateway restarts\.$/);

    const before = [meta(), prompts()];
    assert.throws(
      () => service.run({ profile: 'default', onlyStale: true, strategy: 'epoch' }),
      (e: unknown) => e instanceof HermesError && e.code === 'hermes-build' && /Nothing was written\.$/.test(e.message),
    );
    assert.deepEqual([meta(), prompts()], before, 'state.db unchanged');

    const result = service.run({ profile: 'default', onlyStale: true, strategy: 'clear-prompt' });
    assert.deepEqual([...result.sessionIds].sort(), [...stale].sort());
    assert.ok(prompts().every((r) => r.system_prompt_hash === null));
  });

  it('sees an upgrade: the request is offered again, and sessions carrying one turn from stale to pending', () => {
    def.setStateMeta(PROFILE_EPOCH_KEY, '1');
    model.databaseChanged([home.root], 'full');
    const stateOf = () => model.profileByName('default')!.report.sessions.map((s) => `${s.state}${s.unadoptableRequest ? ' (requested, not adoptable)' : ''}`);
    assert.deepEqual(stateOf(), ['stale (requested, not adoptable)', 'stale (requested, not adoptable)']);
    assert.equal(model.redetectBuild(), false, 'nothing changed yet');

    writeHermesInstall(install, WITH_REFRESH);
    assert.equal(model.redetectBuild(), true);
    assert.deepEqual(stateOf(), ['pending', 'pending']);
    assert.equal(statusOf(model, 'better-sqlite3', undefined).severity, 'ok');
    assert.equal(service.preview({ profile: 'default', strategy: 'epoch' }).requestBlocked, null);
  });

  it('offers the request where the build has refresh-prompts, and where no installation is found', () => {
    for (const arrange of [() => writeHermesInstall(install, WITH_REFRESH), () => fs.rmSync(install, { recursive: true })]) {
      arrange();
      model.redetectBuild();
      const [all] = actions();
      assert.match(all!.title, /^Refresh 2 stale sessions in profile default \(≈ \$[\d.]+\)$/);
      assert.deepEqual(all!.command!.arguments, [{ profile: 'default', onlyStale: true }]);
    }
    assert.equal(statusOf(model, 'better-sqlite3', undefined).hermes.refresh, null, 'none found');
  });
});
