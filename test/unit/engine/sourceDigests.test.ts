// Status keeps the judging digest of each session cwd with what rendering the sources read: a later
// run takes it without rendering while those reads still hold, renders again when any source
// changed, and keeps nothing from a run that had problems to report or saw a change in its last
// seconds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_CONFIG } from '../../../server/hermes/profile/config';
import { judgingDigest } from '../../../server/hermes/engine/judgingDigest';
import { PersistedAnalyses } from '../../../server/hermes/engine/persistedAnalyses';
import { SourceDigests } from '../../../server/hermes/engine/sourceDigests';
import { renderSources } from '../../../server/hermes/sources/renderSources';
import { profileFixture } from '../anatomy/profileFixture';
import { cacheSettingPerTest } from '../../support/lensCacheSetting';
import { cleanup, tempDir } from '../sources/fixtures';

/** Later than anything the test wrote, so the racy check lets a recording be kept. */
const LATER = () => Date.now() + 60_000;

describe('engine: source digests kept between status runs', () => {
  cacheSettingPerTest(() => tempDir('hermes-digests-'));
  after(cleanup);

  /** One status run's part: the digest of the fixture's cwd, and whether it had to render. */
  function run(f: ReturnType<typeof profileFixture>, save: { problems?: boolean; nowMs?: number } = {}): { digest: string; rendered: boolean; fromDisk: boolean } {
    const dbFile = path.join(f.profileDir, 'state.db');
    if (!fs.existsSync(dbFile)) fs.writeFileSync(dbFile, '');
    const persisted = PersistedAnalyses.open(dbFile)!;
    const digests = new SourceDigests(persisted);
    let rendered = false;
    const digest = digests.digest(f.cwd, () => {
      rendered = true;
      return judgingDigest(DEFAULT_CONFIG, digests.render((fs) => renderSources({ dir: f.profileDir }, DEFAULT_CONFIG, f.cwd, { fs, stopAt: f.top, platform: 'linux' })));
    });
    digests.save(save.problems ?? false, save.nowMs ?? LATER());
    persisted.save();
    return { digest, rendered, fromDisk: digests.fromDisk };
  }

  it('takes the kept digest while the reads hold, and renders again after an edit', () => {
    const f = profileFixture();
    const first = run(f);
    assert.equal(first.rendered, true);
    const second = run(f);
    assert.deepEqual(second, { digest: first.digest, rendered: false, fromDisk: true });

    fs.appendFileSync(path.join(f.profileDir, 'memories', 'MEMORY.md'), '\n§\nDeploys freeze on Fridays.');
    const third = run(f);
    assert.equal(third.rendered, true);
    assert.notEqual(third.digest, first.digest);
    const fresh = judgingDigest(DEFAULT_CONFIG, renderSources({ dir: f.profileDir }, DEFAULT_CONFIG, f.cwd, { stopAt: f.top, platform: 'linux' }));
    assert.equal(third.digest, fresh, 'what the kept digest stands for is the rendering of today');
    assert.equal(run(f).rendered, false, 'kept again after the edit');
  });

  it('keeps nothing from a run that saw a change in its last seconds, or had problems to report', () => {
    const f = profileFixture();
    run(f, { nowMs: Date.now() });
    assert.equal(run(f, { problems: true }).rendered, true, 'the racy run kept nothing');
    assert.equal(run(f).rendered, true, 'the run with problems kept nothing');
    assert.equal(run(f).rendered, false);
  });
});
