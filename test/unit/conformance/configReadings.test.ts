// config.yaml keys read as Hermes reads them: each case of the fixture was put in a config.yaml and
// answered by Hermes' own readers at two builds (scripts/hermes-corpus/config_readings.py) —
// `prompt_caching.cache_ttl` (whether caching is off, which tier applies) and `skills.disabled` /
// `skills.platform_disabled` (the names left out of the skills index, with no platform and on telegram).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readProfileConfig, type ProfileConfig } from '../../../server/hermes/profile/config';
import { MemoryFs } from '../../../server/hermes/fs/memoryFs';
import { CORPUS_DIR } from '../../support/hermesCorpus';

interface CacheTtlAnswer {
  readonly disabled: boolean;
  /** The value Hermes' config loader hands its readers. */
  readonly loaded: unknown;
  /** `configured_cache_ttl()`, in builds that have it (null: the default, 5m). */
  readonly configuredTtl?: string | null;
}

/** `get_disabled_skill_names()` for no platform and for telegram, sorted. */
interface SkillsAnswer {
  readonly none: readonly string[];
  readonly telegram: readonly string[];
}

interface Readings<A> {
  readonly cases: ReadonlyArray<string | null>;
  readonly builds: Readonly<Record<string, { readonly commit: string; readonly answers: readonly A[] }>>;
}

const fixture = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'config-readings.json'), 'utf8')) as { cacheTtl: Readings<CacheTtlAnswer>; skills: Readings<SkillsAnswer> };

function configOf(section: string | null): ProfileConfig {
  const file = '/home/config.yaml';
  return readProfileConfig(file, new MemoryFs({ [file]: `model:\n  default: anthropic/claude-sonnet-4.6\n${section ? `${section}\n` : ''}` }));
}

/** What Hermes caches with: nothing, or the tier agent_init takes (exactly 5m or 1h, else 5m). */
function hermesTtl(answer: CacheTtlAnswer): string {
  if (answer.disabled) return 'off';
  if (answer.configuredTtl !== undefined) return answer.configuredTtl ?? '5m';
  return answer.loaded === '5m' || answer.loaded === '1h' ? answer.loaded : '5m';
}

/** The names the lens leaves out of a session's skills index, with no platform and on telegram. */
function lensSkills(config: ProfileConfig): SkillsAnswer {
  const none = [...new Set(config.disabledSkills)].sort();
  return { none, telegram: [...new Set([...none, ...(config.platformDisabledSkills.get('telegram') ?? [])])].sort() };
}

describe('conformance: config.yaml as Hermes reads it', () => {
  for (const [version, { answers }] of Object.entries(fixture.cacheTtl.builds)) {
    it(`reads prompt_caching.cache_ttl as Hermes ${version} does`, () => {
      const { cases } = fixture.cacheTtl;
      assert.equal(answers.length, cases.length);
      assert.ok(answers.some((a) => a.disabled) && answers.some((a) => !a.disabled), 'the cases turn caching both on and off');
      cases.forEach((section, i) => {
        const want = hermesTtl(answers[i]!);
        const got = configOf(section).cacheTtl;
        // `auto` is the tier builds after these are said to add; these builds take it for the default.
        if (section?.endsWith('cache_ttl: auto')) assert.deepEqual([want, got], ['5m', 'auto'], String(section));
        else assert.equal(got, want, JSON.stringify(section));
      });
    });
  }

  it('reads skills.disabled and skills.platform_disabled as Hermes 0.20.3 and the 0.20.4 fork do, and as 0.19.1 but for list literals in strings and mappings', () => {
    const { cases, builds } = fixture.skills;
    const newest = builds['0.20.3']!.answers;
    const oldest = builds['0.19.1']!.answers;
    assert.deepEqual(builds['0.20.4 (a fork)']!.answers, newest, 'the fork reads them as 0.20.3 does');
    assert.ok(newest.some((a) => a.none.length > 0) && newest.some((a, i) => a.telegram.length > newest[i]!.none.length), 'the cases disable skills globally and per platform');
    let differing = 0;
    cases.forEach((section, i) => {
      const got = lensSkills(configOf(section));
      assert.deepEqual(got, newest[i], String(section));
      if (JSON.stringify(oldest[i]) === JSON.stringify(newest[i])) return;
      // Before 0.20.3 a `[…]` string was one name, and a mapping's keys were names.
      differing++;
      assert.match(section!, /'\s*\[|"\[|\{/, `0.19.1 differs only there: ${section}`);
    });
    assert.ok(differing > 0, 'the builds differ on some case');
  });
});
