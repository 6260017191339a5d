// `hermes-lens prefixes` on homes Hermes wrote: the JSON the issue asks for (families per breakpoint,
// partings with where, why and the cost a day), the text a person reads, several homes at once, and
// the usage errors.
import * as assert from 'node:assert/strict';
import { copyCorpusHome, type CorpusHome } from '../../support/hermesCorpus';
import { pinTools } from '../../support/sharedFamilies';
import { cli } from './support';

describe('cli: hermes-lens prefixes', function () {
  this.timeout(60000);
  let fetched: CorpusHome;
  let derived: CorpusHome;
  before(() => {
    fetched = copyCorpusHome('families-v0.20.3-schema26');
    derived = copyCorpusHome('families-derived-0.20.3-profile-line-volatile');
  });
  after(() => {
    fetched.remove();
    derived.remove();
  });

  it('--json: families with their breakpoint, tokens, profiles, platforms, sessions and warmth; partings with where, why and what they cost', () => {
    const run = cli(['prefixes', '--home', fetched.home, '--json']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    const out = JSON.parse(run.stdout);
    assert.deepEqual(out.homes, [fetched.home]);
    assert.deepEqual([...new Set(out.families.map((f: { breakpoint: string }) => f.breakpoint))], ['tools', 'stable', 'system']);
    for (const f of out.families) {
      for (const key of ['id', 'breakpoint', 'tokens', 'profiles', 'platforms', 'sessions', 'warm']) assert.ok(key in f, `family.${key}`);
      assert.equal(typeof f.tokens, 'number');
      assert.equal(f.sessions, f.members.length);
      assert.equal(f.warm, false, 'the corpus sessions are long cold at the test clock');
    }
    assert.equal(out.partings.length, 10);
    for (const p of out.partings) {
      for (const key of ['a', 'b', 'offset', 'block', 'source', 'reason', 'extraWritesPerDay', 'extraUsdPerDay']) assert.ok(key in p, `parting.${key}`);
      assert.ok(out.families.some((f: { id: string }) => f.id === p.a) && out.families.some((f: { id: string }) => f.id === p.b));
    }
  });

  it('prints the entries and where they part, and says the tools are inferred', () => {
    const run = cli(['prefixes', '--home', fetched.home]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Prefix sharing: 9 live sessions in 3 profiles write 8 stable-tier cache entries \(6 tools arrays\)\./);
    assert.match(run.stdout, /Tools inferred from each session's platform, config and Hermes build/);
    assert.match(run.stdout, /default · cli {2}↔ {2}work · cli/);
    assert.match(run.stdout, /then stable tier, system prompt byte 6,676: Active Hermes profile line/);
    assert.match(run.stdout, /moves it to the end of the volatile tier, but the tools would still part them\./);
  });

  it('several homes at once: profiles of two homes part at the tools (skill_manage names each home)', () => {
    const run = cli(['prefixes', '--home', fetched.home, '--home', derived.home, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(out.homes, [fetched.home, derived.home]);
    assert.ok(out.families.filter((f: { breakpoint: string }) => f.breakpoint === 'stable').every((f: { homes: string[] }) => f.homes.length === 1));
  });

  it('a home whose profiles pin the same tools: one entry where they share, and no parting between them', () => {
    const shared = copyCorpusHome('families-derived-0.20.3-profile-line-volatile');
    try {
      pinTools(shared);
      const out = JSON.parse(cli(['prefixes', '--home', shared.home, '--json']).stdout);
      const both = out.families.filter((f: { breakpoint: string; profiles: string[] }) => f.breakpoint === 'stable' && f.profiles.join() === 'default,work');
      assert.equal(both.length, 3, 'cli in two folders and telegram');
      assert.ok(out.partings.every((p: { block: string }) => p.block === 'tools' || p.block !== 'active-profile'));
    } finally {
      shared.remove();
    }
  });

  it('status ends with the same in one line, and its --json carries the counts', () => {
    const text = cli(['status', '--home', fetched.home, '--all-profiles']);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.endsWith('Prefix sharing: 9 live sessions write 8 stable-tier cache entries (6 tools arrays); none is shared by two profiles. `hermes-lens prefixes` says where they part.'), text.stdout.slice(-300));
    const json = JSON.parse(cli(['status', '--home', fetched.home, '--all-profiles', '--json']).stdout);
    assert.deepEqual(json.prefixSharing, { sessions: 9, entries: { tools: 6, stable: 8, system: 8 }, sharedAcrossProfiles: 0, sharedBySessions: 1 });
    const shared = copyCorpusHome('families-derived-0.20.3-profile-line-volatile');
    try {
      pinTools(shared);
      const pinned = JSON.parse(cli(['status', '--home', shared.home, '--all-profiles', '--json']).stdout);
      assert.equal(pinned.prefixSharing.sharedAcrossProfiles, 3, 'default and work share an entry on the CLI in two folders and on telegram');
    } finally {
      shared.remove();
    }
  });

  it('usage: the same home twice, an unknown option', () => {
    assert.equal(cli(['prefixes', '--home', fetched.home, '--home', fetched.home]).code, 2);
    assert.equal(cli(['prefixes', '--nope']).code, 2);
  });
});
