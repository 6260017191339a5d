// The demo manifest is the contract for the README and the engine tests: the engine must report
// exactly the states, reasons and compaction tips the manifest lists.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { readHome } from '../../../server/hermes/profile/home';
import { removeDir, tempDir } from './support';

const NOW = 1_795_000_000;

describe('demo: the engine agrees with the demo manifest', function () {
  this.timeout(30000);
  let dir: string;
  let manifest: DemoManifest;
  before(() => {
    dir = tempDir();
    manifest = generateDemoHome(path.join(dir, 'demo'), { now: NOW });
  });
  after(() => removeDir(dir));

  it('reports each session in the expected state, for the expected reasons', () => {
    const home = readHome({ root: manifest.root, origin: 'argument' });
    const seen = new Set<string>();
    for (const profile of home.profiles) {
      const { report } = analyzeProfile(profile, { includeEnded: true, now: NOW });
      assert.equal(report.unavailable, undefined);
      for (const s of report.sessions) {
        const expected = manifest.sessions[s.id];
        assert.ok(expected, `unexpected session ${s.id}`);
        seen.add(s.id);
        assert.equal(s.state, expected.state, expected.label);
        const reasons = (list: ReadonlyArray<{ source: string; path: string }>) => list.map((r) => `${r.source}:${r.path}`).sort();
        assert.deepEqual(reasons(s.reasons), reasons(expected.reasons), expected.label);
        assert.equal(s.tipSessionId, expected.tipSessionId, expected.label);
        assert.equal(s.requestedEpoch, expected.requestedEpoch, expected.label);
        assert.equal(s.stampedEpoch, expected.stampedEpoch, expected.label);
      }
    }
    assert.equal(seen.size, Object.keys(manifest.sessions).length);
  });
});
