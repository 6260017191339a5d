// A session the client already holds goes out as what changed: the fields whose JSON changed
// (changedSessionFields, compiled from the one field mapping in engine/reportJson.ts) and their new
// JSON, in the columns of the group of sessions that changed in the same fields
// (server/workspace/sessionPatches.ts). Merged into the JSON the client holds, a session's patch must give
// exactly the new JSON; it must carry no field whose JSON is the same, be nothing at all when no
// field changed, and never carry null. Checked on the demo home's real reports.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { generateDemoHome } from '../../../server/demo/demoHome';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { changedSessionFields, SESSION_JSON_FIELDS, sessionJson } from '../../../server/hermes/engine/reportJson';
import type { SessionReport } from '../../../server/hermes/engine/types';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { SessionPatchColumns } from '../../../server/workspace/sessionPatches';
import { patchesOf } from '../../support/sessionPatches';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_795_000_000;

/** JSON as the client receives it (JSON-RPC sends JSON). */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The names of the fields in a set. */
const namesOf = (set: number) => SESSION_JSON_FIELDS.filter((_, bit) => (set >>> bit) & 1);

/** What the server sends of `now` to a client holding `sent`: nothing, the whole session, or its patch (from the columns, as JSON). */
function update(sent: SessionReport, now: SessionReport): 'nothing' | 'whole' | Record<string, unknown> {
  const fields = changedSessionFields(sent, now);
  if (fields === 0) return 'nothing';
  const columns = new SessionPatchColumns();
  if (!columns.add(now, fields, 0)) {
    assert.deepEqual(columns.patches, [], 'nothing added');
    return 'whole';
  }
  const patches = patchesOf({ patched: wire(columns.patches), removed: [] }, [sent]);
  assert.equal(patches.length, 1);
  return patches[0]!;
}

describe('workspace: what changed of a session (changedSessionFields, SessionPatchColumns)', function () {
  this.timeout(60000);
  let dir: string;
  let reports: SessionReport[];
  before(() => {
    dir = tempDir('hermes-patch-');
    const demo = generateDemoHome(dir, { now: NOW, writeManifest: false });
    const home = readHome({ root: demo.root, origin: 'argument' });
    reports = ['default', 'work'].flatMap((name) => analyzeProfile(selectProfile(home, name), { now: NOW, includeEnded: true }).report.sessions);
  });
  after(() => removeDir(dir));

  const staleOne = () => reports.find((r) => r.state === 'stale' && r.reasons.length > 0 && r.refreshCostUsd !== undefined)!;

  it('property: the fields that changed are those whose JSON differs; merged into the JSON held, their patch gives the new JSON', () => {
    const fields = Object.keys(sessionJson(reports[0]!)) as Array<keyof SessionReport>;
    assert.deepEqual(fields, SESSION_JSON_FIELDS, 'the JSON has the fields of the mapping, in its order');
    // A new version of a session: some of its fields taken from any report of the demo (values of
    // every kind: undefined ones, other states, other reasons, other costs), the id kept.
    const options = Object.fromEntries(fields.map((f) => [f, fc.constantFrom(...reports.map((r) => r[f]))])) as Record<string, fc.Arbitrary<unknown>>;
    const version = fc.record(options, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.constantFrom(...reports), version, (sent, picked) => {
        const now = { ...sent, ...picked, id: sent.id } as SessionReport;
        const held = wire(sessionJson(sent));
        const after = wire(sessionJson(now));
        const differing = fields.filter((f) => JSON.stringify(held[f as keyof typeof held]) !== JSON.stringify(after[f as keyof typeof after]));
        assert.deepEqual(namesOf(changedSessionFields(sent, now)), differing);
        const sentNow = update(sent, now);
        if (differing.length === 0) return assert.equal(sentNow, 'nothing');
        if (differing.some((f) => after[f as keyof typeof after] === null)) return assert.equal(sentNow, 'whole', 'a field became null');
        assert.ok(typeof sentNow === 'object');
        assert.deepEqual(Object.keys(sentNow).sort(), ['id', ...differing].sort());
        assert.deepEqual({ ...held, ...sentNow }, after);
      }),
      { numRuns: 500 },
    );
  });

  it('a field that became unknown makes no patch: the session goes whole', () => {
    const sent = staleOne();
    const unknown = { ...sent, refreshCostUsd: undefined, refreshCostColdUsd: undefined };
    assert.deepEqual(namesOf(changedSessionFields(sent, unknown)), ['refreshCostUsd', 'refreshCostColdUsd']);
    assert.equal(update(sent, unknown), 'whole');
    assert.deepEqual(update(sent, { ...sent, deltaTokens: sent.deltaTokens + 1 }), { id: sent.id, deltaTokens: sent.deltaTokens + 1 });
  });

  it('groups sessions by the fields they changed, in columns; one that must go whole leaves its group as it was', () => {
    const [a, b, c, d] = reports.filter((r) => r.refreshCostUsd !== undefined);
    const columns = new SessionPatchColumns();
    const costs = (s: SessionReport, n: number) => ({ ...s, deltaTokens: s.deltaTokens + n, refreshCostUsd: s.refreshCostUsd! + n });
    // At positions 0, 1 and 2 of the client's list.
    for (const [position, [sent, now]] of ([[a!, costs(a!, 1)], [b!, { ...b!, title: 'renamed' }], [c!, costs(c!, 2)]] as const).entries()) {
      assert.ok(columns.add(now, changedSessionFields(sent, now), position));
    }
    // Same fields as a and c, but the cost became unknown: not added, and nothing of it stays behind.
    const unknown = { ...d!, deltaTokens: d!.deltaTokens + 3, refreshCostUsd: undefined };
    assert.equal(columns.add(unknown, changedSessionFields(d!, unknown), 3), false);
    assert.deepEqual(wire(columns.patches), [
      { fields: ['deltaTokens', 'refreshCostUsd'], at: [0, 1, 2, 1], values: [[a!.deltaTokens + 1, c!.deltaTokens + 2], [sessionJson(costs(a!, 1)).refreshCostUsd, sessionJson(costs(c!, 2)).refreshCostUsd]] },
      { fields: ['title'], at: [1, 1], values: [['renamed']] },
    ]);
    const lonely = new SessionPatchColumns();
    assert.equal(lonely.add(unknown, changedSessionFields(d!, unknown), 0), false);
    assert.deepEqual(lonely.patches, [], 'no empty group');
  });

  it('names sessions at consecutive positions by one run', () => {
    const columns = new SessionPatchColumns();
    const costed = reports.filter((r) => r.refreshCostUsd !== undefined).slice(0, 5);
    for (const [position, sent] of costed.entries()) {
      const now = { ...sent, deltaTokens: sent.deltaTokens + 7 };
      assert.ok(columns.add(now, changedSessionFields(sent, now), position === 4 ? 9 : position));
    }
    assert.deepEqual(columns.patches.map((g) => g.at), [[0, 4, 9, 1]], 'positions 0–3 and 9');
  });

  it('reasons: the same content in a new array is no change; another reason is', () => {
    const sent = staleOne();
    assert.equal(changedSessionFields(sent, { ...sent, reasons: sent.reasons.map((r) => ({ ...r })) }), 0);
    const other = { ...sent.reasons[0]!, detail: `${sent.reasons[0]!.detail} (again)` };
    const reasons = [other, ...sent.reasons.slice(1)];
    assert.deepEqual(update(sent, { ...sent, reasons }), { id: sent.id, reasons: wire(sessionJson({ ...sent, reasons }).reasons) });
    assert.deepEqual(update(sent, { ...sent, reasons: [] }), { id: sent.id, reasons: [] });
  });

  it('costs: a difference below the JSON precision of dollars is no change', () => {
    const sent = staleOne();
    assert.equal(changedSessionFields(sent, { ...sent, refreshCostUsd: sent.refreshCostUsd! + 1e-12 }), 0);
    assert.deepEqual(namesOf(changedSessionFields(sent, { ...sent, refreshCostUsd: sent.refreshCostUsd! + 1e-6 })), ['refreshCostUsd']);
  });

  it('a new report with the same values is no change', () => {
    for (const sent of reports) assert.equal(changedSessionFields(sent, { ...sent }), 0, sent.id);
  });
});
