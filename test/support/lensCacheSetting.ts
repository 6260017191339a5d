// The lens's cache folder setting (HERMES_LENS_TOKEN_CACHE) pointed at a folder of the test's own
// for each test of a suite, and put back after it: for tests of what the lens keeps on disk
// between runs (isolatedCache.ts gives the whole run one folder; these need one per test).
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
