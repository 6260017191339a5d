// Telling how a session took up a refresh request from what Hermes writes anyway (refresh/adoption.ts):
// its stamp, another model_config key taking the epoch, its stored prompt, its turns; a turn seen in
// a touched read decides nothing until a full read; what Hermes recorded for the deciding turn; and
// the watches kept in the cache folder, merged between processes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SessionRecord } from '../../../server/hermes/model';
import { newWatch, observe, recordedByHermes, type AdoptionWatch } from '../../../server/hermes/refresh/adoption';
import { adoptionFiles, mergeWatches } from '../../../server/hermes/refresh/adoptionFiles';
import { DEFAULT_REFRESH_KEYS } from '../../../server/hermes/refresh/epochs';

const NOW = 1_795_000_000;
const KEYS = DEFAULT_REFRESH_KEYS;

function record(over: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id: 's1', source: 'cli', model: 'claude-sonnet-4-5', modelConfig: { max_tokens: 3 }, promptKey: 'hash:old', parentSessionId: undefined,
    startedAt: NOW - 3600, endedAt: undefined, endReason: undefined, messageCount: 10, cwd: undefined, billingProvider: undefined,
    billingMode: undefined, title: 'Fix the build', lastActivityAt: NOW - 600, toolNames: [],
    inputTokens: 1000, cacheReadTokens: 50_000, cacheWriteTokens: 20_000, ...over,
  };
}

/** A watch of epoch 3 for `before`, then what the session looks like after. */
function judge(after: Partial<SessionRecord>, options: { full?: boolean; prompt?: string } = {}): AdoptionWatch {
  const before = record();
  const watch = newWatch(before, 3, KEYS, 'hash:old', NOW, 'lens', { costUsd: 0.12, prefixTokens: 41_000, cacheWarm: true });
  const now = record({ ...after });
  return observe(watch, now, KEYS, options.prompt ?? now.promptKey, options.full ?? true, NOW + 60);
}

describe('refresh: watching a request land', () => {
  it('no turn yet: pending, and the very same watch', () => {
    const before = record();
    const watch = newWatch(before, 3, KEYS, 'hash:old', NOW, 'lens', null);
    assert.equal(observe(watch, before, KEYS, 'hash:old', true, NOW), watch);
    assert.equal(watch.state, 'pending');
  });

  it('adopted: the stamp in use reached the epoch (a rebuilt prompt, or the same bytes when its sources had not changed)', () => {
    const rebuilt = judge({ modelConfig: { max_tokens: 3, prompt_refresh_epoch: 3 }, promptKey: 'hash:new', messageCount: 12, lastActivityAt: NOW });
    assert.deepEqual([rebuilt.state, rebuilt.stampKey, rebuilt.decidedAt], ['adopted', 'prompt_refresh_epoch', NOW + 60]);
    const same = judge({ modelConfig: { prompt_refresh_epoch: '3' }, messageCount: 12 });
    assert.equal(same.state, 'adopted');
  });

  it('adopted, stamp unread: another model_config key took the epoch’s value (learned), not one that held it already', () => {
    const w = judge({ modelConfig: { max_tokens: 3, refresh_rev: 3 }, messageCount: 12 });
    assert.deepEqual([w.state, w.stampKey, w.note], ['adopted-stamp-unread', 'refresh_rev', null]);
    // max_tokens held 3 before the request: it is no stamp.
    const unmoved = judge({ modelConfig: { max_tokens: 3 }, promptKey: 'hash:new', messageCount: 12 });
    assert.deepEqual([unmoved.state, unmoved.stampKey], ['adopted-stamp-unread', null]);
    assert.match(unmoved.note!, /no model_config key took the epoch's value/);
    const two = judge({ modelConfig: { a_epoch: 3, b_epoch: '3' }, promptKey: 'hash:new', messageCount: 12 });
    assert.deepEqual([two.state, two.stampKey], ['adopted-stamp-unread', null]);
    assert.match(two.note!, /several model_config keys took the epoch's value \(a_epoch, b_epoch\)/);
  });

  it('not adopted: a turn on the very same prompt, no stamp moved; told on a full read only', () => {
    const touched = judge({ messageCount: 12, lastActivityAt: NOW }, { full: false });
    assert.deepEqual([touched.state, touched.after?.messages], ['pending', 12], 'the turn is seen, the verdict waits');
    const settled = observe(touched, record({ messageCount: 12, lastActivityAt: NOW }), KEYS, 'hash:old', true, NOW + 90);
    assert.deepEqual([settled.state, settled.after?.messages, settled.decidedAt], ['not-adopted', 12, NOW + 90]);
    // The rebuild's commit landing after the touched read: adopted after all.
    const late = observe(touched, record({ messageCount: 12, lastActivityAt: NOW, modelConfig: { prompt_refresh_epoch: 3 } }), KEYS, 'hash:new', true, NOW + 90);
    assert.equal(late.state, 'adopted');
  });

  it('what Hermes recorded for the deciding turn: its counters’ change between the read before and the first read after', () => {
    const w = judge({ modelConfig: { prompt_refresh_epoch: 3 }, messageCount: 12, inputTokens: 1300, cacheReadTokens: 50_000, cacheWriteTokens: 61_500 });
    assert.deepEqual(recordedByHermes(w), { inputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 41_500 });
    assert.deepEqual(w.predicted, { costUsd: 0.12, prefixTokens: 41_000, cacheWarm: true });
    // Decided by the stamp before the turn's messages landed: the turn's own read replaces the one after.
    const early = judge({ modelConfig: { prompt_refresh_epoch: 3 } });
    assert.equal(early.after!.messages, 10);
    const turn = observe(early, record({ modelConfig: { prompt_refresh_epoch: 3 }, messageCount: 12, cacheWriteTokens: 61_500 }), KEYS, 'hash:old', false, NOW + 120);
    assert.deepEqual([turn.state, turn.after!.messages, recordedByHermes(turn)!.cacheWriteTokens], ['adopted', 12, 41_500]);
    assert.equal(observe(turn, record({ messageCount: 14, modelConfig: { prompt_refresh_epoch: 3 } }), KEYS, 'hash:old', true, NOW + 200), turn, 'the first read after the turn stays');
  });

  it('kept in the cache folder: merged with what another process kept (a later request wins; the first decision stays)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-adoption-files-'));
    try {
      const files = adoptionFiles({ HERMES_LENS_TOKEN_CACHE: dir })!;
      const db = path.join(dir, 'state.db');
      const pending = newWatch(record(), 3, KEYS, 'hash:old', NOW, 'lens', null);
      const decided = judge({ messageCount: 12 });
      files.save(db, [pending]);
      assert.deepEqual(files.load(db), [pending]);
      files.save(db, [decided]);
      assert.deepEqual(files.load(db), [decided]);
      files.save(db, [pending]);
      assert.deepEqual(files.load(db), [decided], 'a pending watch does not undo a decision');
      const next = newWatch(record({ id: 's1' }), 4, KEYS, 'hash:old', NOW + 500, 'lens', null);
      assert.deepEqual(mergeWatches([decided], [next]), [next]);
      assert.deepEqual(mergeWatches([decided], [], new Set(['other'])), [], 'a session gone is dropped');
      for (const f of fs.readdirSync(path.join(dir, 'refresh-adoption-v1'))) {
        const text = fs.readFileSync(path.join(dir, 'refresh-adoption-v1', f), 'utf8');
        assert.ok(!text.includes('Fix the build'), 'no session text is kept');
        assert.equal(fs.statSync(path.join(dir, 'refresh-adoption-v1', f)).mode & 0o777, 0o600);
      }
      fs.writeFileSync(path.join(dir, 'refresh-adoption-v1', fs.readdirSync(path.join(dir, 'refresh-adoption-v1'))[0]!), '{"format":1,');
      assert.deepEqual(files.load(db), [], 'a damaged file is ignored');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
