// A session the client already holds goes out as what changed: its id and the fields whose JSON
// changed (server/lsp/dto.ts, on changedSessionFields, compiled from the one field mapping in
// engine/reportJson.ts). Merged into the
// JSON the client holds, the changes must give exactly the new JSON; they must carry no field whose
// JSON is the same, and be nothing at all when no field changed. Checked on the demo home's real
// reports.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { generateDemoHome } from '../../../server/demo/demoHome';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { SESSION_JSON_FIELDS, sessionJson } from '../../../server/hermes/engine/reportJson';
import type { SessionReport } from '../../../server/hermes/engine/types';
import { readHome, selectProfile } from '../../../server/hermes/home';
import { isPatch, sessionFieldChanges } from '../../../server/lsp/dto';
import { removeDir, tempDir } from '../demo/support';

const NOW = 1_795_000_000;

/** JSON as the client receives it (JSON-RPC sends JSON). */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('lsp: what changed of a session (sessionFieldChanges)', function () {
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

  it('property: merged into the JSON held, the changes give the new JSON, and carry only fields that differ', () => {
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
        const patch = sessionFieldChanges(sent, now);
        const differing = fields.filter((f) => JSON.stringify(held[f as keyof typeof held]) !== JSON.stringify(after[f as keyof typeof after]));
        if (differing.length === 0) return assert.equal(patch, undefined);
        assert.ok(patch);
        assert.deepEqual(Object.keys(patch).sort(), ['id', ...differing].sort());
        assert.deepEqual({ ...held, ...wire(patch) }, after);
      }),
      { numRuns: 500 },
    );
  });

  it('a field that became unknown is null, and such changes are no patch', () => {
    const sent = staleOne();
    const changes = sessionFieldChanges(sent, { ...sent, refreshCostUsd: undefined, refreshCostColdUsd: undefined })!;
    assert.deepEqual(wire(changes), { id: sent.id, refreshCostUsd: null, refreshCostColdUsd: null });
    assert.equal(isPatch(changes), false);
    assert.equal(isPatch(sessionFieldChanges(sent, { ...sent, deltaTokens: sent.deltaTokens + 1 })!), true);
  });

  it('reasons: the same content in a new array is no change; another reason is', () => {
    const sent = staleOne();
    assert.equal(sessionFieldChanges(sent, { ...sent, reasons: sent.reasons.map((r) => ({ ...r })) }), undefined);
    const other = { ...sent.reasons[0]!, detail: `${sent.reasons[0]!.detail} (again)` };
    const patch = wire(sessionFieldChanges(sent, { ...sent, reasons: [other, ...sent.reasons.slice(1)] }));
    assert.deepEqual(patch, { id: sent.id, reasons: wire(sessionJson({ ...sent, reasons: [other, ...sent.reasons.slice(1)] }).reasons) });
    assert.deepEqual(wire(sessionFieldChanges(sent, { ...sent, reasons: [] })), { id: sent.id, reasons: [] });
  });

  it('costs: a difference below the JSON precision of dollars is no change', () => {
    const sent = staleOne();
    assert.equal(sessionFieldChanges(sent, { ...sent, refreshCostUsd: sent.refreshCostUsd! + 1e-12 }), undefined);
    assert.deepEqual(Object.keys(sessionFieldChanges(sent, { ...sent, refreshCostUsd: sent.refreshCostUsd! + 1e-6 })!), ['id', 'refreshCostUsd']);
  });

  it('a new report with the same values is no change', () => {
    for (const sent of reports) assert.equal(sessionFieldChanges(sent, { ...sent }), undefined, sent.id);
  });
});
