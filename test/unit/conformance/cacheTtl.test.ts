// `prompt_caching.cache_ttl` read as Hermes reads it: each case of the fixture was put in a
// config.yaml and answered by Hermes' own readers (scripts/hermes-corpus/cache_ttl.py) at two
// builds — whether caching is off, and which tier applies.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readProfileConfig } from '../../../server/hermes/profile/config';
import { MemoryFs } from '../../../server/hermes/fs/memoryFs';
import { CORPUS_DIR } from '../../support/hermesCorpus';

interface HermesAnswer {
  readonly disabled: boolean;
  /** The value Hermes' config loader hands its readers. */
  readonly loaded: unknown;
  /** `configured_cache_ttl()`, in builds that have it (null: the default, 5m). */
  readonly configuredTtl?: string | null;
}

interface Fixture {
  readonly cases: ReadonlyArray<string | null>;
  readonly builds: Readonly<Record<string, { readonly commit: string; readonly answers: readonly HermesAnswer[] }>>;
}

const fixture = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'cache-ttl.json'), 'utf8')) as Fixture;

/** What Hermes caches with: nothing, or the tier agent_init takes (exactly 5m or 1h, else 5m). */
function hermesTtl(answer: HermesAnswer): string {
  if (answer.disabled) return 'off';
  if (answer.configuredTtl !== undefined) return answer.configuredTtl ?? '5m';
  return answer.loaded === '5m' || answer.loaded === '1h' ? answer.loaded : '5m';
}

describe('conformance: prompt_caching.cache_ttl as Hermes reads it', () => {
  for (const [version, { answers }] of Object.entries(fixture.builds)) {
    it(`reads every case as Hermes ${version} does`, () => {
      assert.equal(answers.length, fixture.cases.length);
      assert.ok(answers.some((a) => a.disabled) && answers.some((a) => !a.disabled), 'the cases turn caching both on and off');
      fixture.cases.forEach((section, i) => {
        const file = '/home/config.yaml';
        const config = readProfileConfig(file, new MemoryFs({ [file]: `model:\n  default: anthropic/claude-sonnet-4.6\n${section ? `${section}\n` : ''}` }));
        const want = hermesTtl(answers[i]!);
        // `auto` is the tier builds after these add; these builds take it for the default.
        if (section?.endsWith('cache_ttl: auto')) assert.deepEqual([want, config.cacheTtl], ['5m', 'auto'], String(section));
        else assert.equal(config.cacheTtl, want, JSON.stringify(section));
      });
    });
  }
});
