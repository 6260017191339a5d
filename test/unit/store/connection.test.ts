// The SQLite bindings (server/hermes/store/connection.ts), as a user meets them through the CLI in a
// fresh process: the first of SQLITE_DRIVERS that loads is used and `status --json` names it;
// HERMES_LENS_SQLITE_DRIVER makes one binding the only one tried; every binding that loads reads the
// same sessions and verdicts (of the demo home and of every home Hermes' own code wrote) and reports
// SQLite's failures in the same words.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SQLITE_DRIVER_ENV, SQLITE_DRIVERS } from '../../../server/hermes/store/connection';
import { copyCorpusHome, corpusFolders } from '../../support/hermesCorpus';
import { removeDir, tempDir } from '../demo/support';
import { runBinary } from '../cli/support';

interface StatusJson {
  sqlite: { driver: string | null; version: string | null; problem: string | null };
  profiles: Array<{ name: string; sessions: Array<{ id: string; state: string; reasons: Array<{ source: string }>; systemPromptTokens: number }> }>;
}

/** node:sqlite is in Node.js from 22.5 on. */
const NODE_HAS_SQLITE = (() => {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 5);
})();
const LOADABLE = SQLITE_DRIVERS.filter((d) => d !== 'node:sqlite' || NODE_HAS_SQLITE);

describe(`store: the SQLite bindings under Node.js ${process.version}`, function () {
  this.timeout(60000);
  let dir: string;
  let root: string;
  before(async () => {
    dir = tempDir('hermes-sqlite-drivers-');
    root = (JSON.parse((await runBinary(['demo', '--dir', dir, '--json'])).stdout) as { home: string }).home;
  });
  after(() => removeDir(dir));

  const status = async (driver?: string, home = root) => {
    const run = await runBinary(['status', '--home', home, '--json', '--all-profiles', '--all'], { [SQLITE_DRIVER_ENV]: driver });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    return JSON.parse(run.stdout) as StatusJson;
  };
  const sessions = (s: StatusJson) =>
    s.profiles.map((p) => `${p.name}: ${p.sessions.map((x) => `${x.id} ${x.state} ${x.systemPromptTokens} [${x.reasons.map((r) => r.source).join(' ')}]`).join(', ')}`);

  it('uses the first binding that loads, better-sqlite3 where npm built it, and names it with its SQLite version', async () => {
    const s = await status();
    assert.equal(s.sqlite.driver, 'better-sqlite3');
    assert.match(s.sqlite.version ?? '', /^3\.\d+\.\d+$/);
    assert.equal(s.sqlite.problem, null);
  });

  it(`reads the same sessions with each binding that loads here (${LOADABLE.join(', ')}), named by ${SQLITE_DRIVER_ENV}`, async () => {
    const expected = sessions(await status());
    assert.ok(expected.join('').includes('stale'), 'the demo home has stale sessions');
    for (const driver of LOADABLE) {
      const s = await status(driver);
      assert.equal(s.sqlite.driver, driver);
      assert.deepEqual(sessions(s), expected, driver);
    }
  });

  it(`reads each home Hermes' own code wrote (${corpusFolders().join(', ')}) the same with each binding`, async () => {
    for (const folder of corpusFolders()) {
      const corpus = copyCorpusHome(folder);
      try {
        const expected = sessions(await status(undefined, corpus.home));
        assert.ok(expected.some((p) => p.includes(' fresh ')), `${folder}: ${expected.join('; ')}`);
        for (const driver of LOADABLE) assert.deepEqual(sessions(await status(driver, corpus.home)), expected, `${folder} with ${driver}`);
      } finally {
        corpus.remove();
      }
    }
  });

  it('reports, under each binding, a state.db that is not SQLite in the same words, in one line, and leaves the file as it was', async () => {
    const broken = path.join(dir, 'broken');
    fs.mkdirSync(broken, { recursive: true });
    const db = path.join(broken, 'state.db');
    fs.writeFileSync(db, 'this is not an SQLite database '.repeat(200));
    const before = fs.readFileSync(db);
    const messages = new Set<string>();
    for (const driver of LOADABLE) {
      const run = await runBinary(['refresh', '--home', broken], { [SQLITE_DRIVER_ENV]: driver });
      assert.equal(run.code, 1, `${driver}: ${run.stderr}`);
      assert.equal(run.stderr.trimEnd().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, /is not an SQLite database/, driver);
      messages.add(run.stderr);
    }
    assert.equal(messages.size, 1, [...messages].join(''));
    assert.deepEqual(fs.readFileSync(db), before);
  });

  it(`names every binding tried, and what to set, when ${SQLITE_DRIVER_ENV} names none that loads`, async () => {
    const s = await status('no-such-binding');
    assert.equal(s.sqlite.driver, null);
    for (const driver of SQLITE_DRIVERS) assert.ok(s.sqlite.problem?.includes(driver), s.sqlite.problem ?? '');
    if (!NODE_HAS_SQLITE) {
      const missing = await status('node:sqlite');
      assert.equal(missing.sqlite.driver, null);
      assert.match(missing.sqlite.problem ?? '', /node:sqlite: .*hermesLens\.server\.runtime/);
    }
  });
});
