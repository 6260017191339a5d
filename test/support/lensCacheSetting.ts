// The lens's cache folder setting (HERMES_LENS_TOKEN_CACHE) pointed at a folder of the test's own
// for each test of a suite, and put back after it: for tests of what the lens keeps on disk
// between runs (isolatedCache.ts gives the whole run one folder; these need one per test).
import * as path from 'node:path';
import { adoptionFiles } from '../../server/hermes/refresh/adoptionFiles';
import type { AdoptionWatch } from '../../server/hermes/refresh/adoption';
import { removeDir, tempDir } from '../unit/demo/support';

export function cacheSettingPerTest(folder: () => string): void {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.HERMES_LENS_TOKEN_CACHE;
    process.env.HERMES_LENS_TOKEN_CACHE = folder();
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.HERMES_LENS_TOKEN_CACHE;
    else process.env.HERMES_LENS_TOKEN_CACHE = saved;
  });
}

/**
 * A temp folder of each test's own, with the lens's cache folder set to `lens-cache` inside it, both
 * gone after the test. Call at the top of a suite; the getter answers the running test's folder.
 */
export function folderWithOwnCache(prefix: string): () => string {
  let dir = '';
  beforeEach(() => (dir = tempDir(prefix)));
  cacheSettingPerTest(() => path.join(dir, 'lens-cache'));
  afterEach(() => removeDir(dir));
  return () => dir;
}

/** The watches of refresh requests kept for `dbFile` in this test run's cache folder (isolatedCache.ts). */
export function keptWatches(dbFile: string): readonly AdoptionWatch[] {
  const folder = process.env.HERMES_LENS_TOKEN_CACHE;
  if (!folder) throw new Error('no cache folder of the test run: load test/support/isolatedCache.js first');
  return adoptionFiles({ HERMES_LENS_TOKEN_CACHE: folder })!.load(dbFile);
}
