// The refresh schedule file shared by every language server of a user (two editor windows on one
// home): changes made at the same time by several processes all land, a lock file left behind by
// a process that died does not block the schedule (nor is taken by two at once), and one held
// throughout is named.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { takeOver, withLock } from '../../../server/hermes/lockFile';
import { scheduleFiles } from '../../../server/hermes/refresh/scheduleFiles';
import { removeDir, tempDir } from '../demo/support';

const SCHEDULE_FILES = path.resolve(__dirname, '../../../server/hermes/refresh/scheduleFiles.js');

/** A process adding `count` entries of its own to the schedule of `dbFile`, one change at a time. */
function adder(cacheDir: string, dbFile: string, name: string, count: number): Promise<void> {
  const script = `
    const { scheduleFiles } = require(${JSON.stringify(SCHEDULE_FILES)});
    const files = scheduleFiles({ HERMES_LENS_TOKEN_CACHE: ${JSON.stringify(cacheDir)} });
    for (let i = 0; i < ${count}; i++) files.update(${JSON.stringify(dbFile)}, (kept) => [...kept, { sessionId: '${name}-' + i, dueAt: i }]);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`adder ${name} exited with ${code}: ${stderr}`))));
  });
}

describe('refresh: the schedule file several language servers share', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-schedule-shared-')));
  afterEach(() => removeDir(dir));

  it('keeps every change that processes make at the same time', async () => {
    const cacheDir = path.join(dir, 'lens-cache');
    const dbFile = path.join(dir, 'state.db');
    const names = ['a', 'b', 'c', 'd'];
    await Promise.all(names.map((name) => adder(cacheDir, dbFile, name, 40)));
    const kept = scheduleFiles({ HERMES_LENS_TOKEN_CACHE: cacheDir })!.load(dbFile);
    assert.equal(kept.problem, undefined);
    assert.equal(kept.entries.length, names.length * 40, 'no process lost another one\'s change');
    assert.deepEqual(fs.readdirSync(path.join(cacheDir, 'refresh-schedule-v1')).filter((f) => f.endsWith('.lock')), [], 'no lock left behind');
  });

  it('takes over a lock file left behind by a process that died', () => {
    const lock = path.join(dir, 'schedule.json.lock');
    fs.writeFileSync(lock, '');
    const longAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, longAgo, longAgo);
    assert.equal(withLock(lock, () => 'ran'), 'ran');
    assert.ok(!fs.existsSync(lock));
  });

  it('of two processes taking over one left-behind lock, the second leaves the lock the first has made', () => {
    const lock = path.join(dir, 'schedule.json.lock');
    fs.writeFileSync(lock, '');
    const longAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, longAgo, longAgo);
    const judgedByBoth = fs.statSync(lock);
    // The first takes it over and makes its own lock (held, with its holder's mark in it)...
    takeOver(lock, judgedByBoth);
    fs.writeFileSync(lock, 'the first one holds it', { flag: 'wx' });
    // ...then the second acts on what it judged before: the first one's lock stays.
    takeOver(lock, judgedByBoth);
    assert.equal(fs.readFileSync(lock, 'utf8'), 'the first one holds it');
    assert.deepEqual(fs.readdirSync(dir), ['schedule.json.lock'], 'nothing moved aside is left');
  });

  it('names a lock file held throughout, and says what to do', () => {
    const lock = path.join(dir, 'schedule.json.lock');
    fs.writeFileSync(lock, '');
    let ran = false;
    assert.throws(
      () => withLock(lock, () => (ran = true)),
      (error: Error) => error.message.includes(lock) && /remove it if no editor window or hermes-lens is running/.test(error.message),
    );
    assert.equal(ran, false);
    assert.ok(fs.existsSync(lock), 'another process\'s lock is left to it');
  });
});
