// Pending that tells the truth: a session is pending only while its build reads the request it
// must satisfy. With a build that cannot adopt it, the session keeps the state its prompt has
// (stale or fresh, counted and priced as such) and says "requested, but this Hermes build cannot
// adopt it"; the language server's kept reports follow when the build changes.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import { AnalysisCache } from '../../../server/hermes/engine/analysisCache';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import type { ProfileReport } from '../../../server/hermes/engine/types';
import type { Profile } from '../../../server/hermes/model';
import { PROFILE_EPOCH_KEY } from '../../../server/hermes/refresh/epochs';
import { removeDir, tempDir } from '../demo/support';
import { KeptConnection } from '../../../server/hermes/engine/keptConnection';

const NOW = 1_795_000_000;

describe('engine: a refresh request the Hermes build cannot adopt', function () {
  this.timeout(30000);
  let dir: string;
  let p: ProfileBuilder;
  let profile: Profile;
  const ids = { stale: '', fresh: '', none: '' };

  beforeEach(() => {
    dir = tempDir('hermes-unadoptable-');
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 81 });
    p = home.profile();
    p.writeSoul('You are Kit.\n');
    const spec = { source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 120, messages: 4, promptFromCurrentFiles: true };
    ids.stale = p.addSession(spec);
    p.writeSoul('You are Kit. Answer briefly.\n');
    ids.fresh = p.addSession(spec);
    ids.none = p.addSession({ ...spec, promptFromCurrentFiles: false });
    p.setStateMeta(PROFILE_EPOCH_KEY, '1');
    profile = { name: 'default', dir: home.root, isActive: true };
  });
  afterEach(() => removeDir(dir));

  const byId = (report: ProfileReport) => new Map(report.sessions.map((s) => [s.id, s]));

  it('with a build that adopts it, every session holding a prompt is pending', () => {
    const report = analyzeProfile(profile, { now: NOW, adoptsRefreshRequests: true }).report;
    const s = byId(report);
    assert.deepEqual([s.get(ids.stale)!.state, s.get(ids.fresh)!.state, s.get(ids.none)!.state], ['pending', 'pending', 'no-prompt']);
    assert.ok(report.sessions.every((x) => !x.unadoptableRequest));
    assert.equal(report.totals.pending, 2);
  });

  it('with a build that cannot, the sessions stay stale or fresh, priced as such, and say the request cannot be adopted', () => {
    const report = analyzeProfile(profile, { now: NOW, adoptsRefreshRequests: false }).report;
    const s = byId(report);
    assert.deepEqual([s.get(ids.stale)!.state, s.get(ids.fresh)!.state, s.get(ids.none)!.state], ['stale', 'fresh', 'no-prompt']);
    assert.deepEqual([s.get(ids.stale)!.unadoptableRequest, s.get(ids.fresh)!.unadoptableRequest, s.get(ids.none)!.unadoptableRequest], [true, true, false]);
    assert.deepEqual([report.totals.pending, report.totals.stale, report.totals.fresh], [0, 1, 1]);
    assert.ok(s.get(ids.stale)!.refreshCostUsd! > 0, 'a stale session still costs its refresh');
    assert.equal(report.totals.staleRefreshCostUsd, s.get(ids.stale)!.refreshCostUsd);
  });

  it('a session that satisfies the request already is not flagged', () => {
    const adopted = p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 60, messages: 2, promptFromCurrentFiles: true, modelConfig: { prompt_refresh_epoch: 1 } });
    const s = byId(analyzeProfile(profile, { now: NOW, adoptsRefreshRequests: false }).report).get(adopted)!;
    assert.deepEqual([s.state, s.unadoptableRequest], ['fresh', false]);
  });

  it('kept reports (the language server) follow a change of build both ways', () => {
    const cache = new AnalysisCache();
    const connection = new KeptConnection();
    try {
      const evaluate = (adopts: boolean) => byId(analyzeProfile(profile, { now: NOW, cache, sessions: connection.reading(), adoptsRefreshRequests: adopts }).report).get(ids.stale)!;
      assert.deepEqual([evaluate(true).state, evaluate(true).unadoptableRequest], ['pending', false]);
      const downgraded = evaluate(false);
      assert.deepEqual([downgraded.state, downgraded.unadoptableRequest], ['stale', true]);
      const upgraded = evaluate(true);
      assert.deepEqual([upgraded.state, upgraded.unadoptableRequest], ['pending', false]);
    } finally {
      connection.close();
    }
  });
});
