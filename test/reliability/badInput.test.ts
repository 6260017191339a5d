// The bad-input corpus (test/fixtures/bad): every case builds a real broken home and runs the CLI on
// it; each run must end with the exit code and the message its expected.json names (the file and
// what to do), without a stack trace, without touching state.db unless it is a successful refresh,
// and with the healthy profile still listed. A subset is then served by the language server at once:
// each broken profile reports its problem by file, and the server keeps answering.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyOverlay, buildBaseHome, fillPlaceholders, runSteps, type CaseContext } from '../fixtures/bad/generators';
import { SessionListRequest, type SessionListResult, type StatusParams } from '../../shared/protocol';
import { TestLspClient } from '../support/lspClient';
import { checkRun, loadCorpus, prepareCase, undoCase } from './support/corpus';
import { canUseMountNamespace, cleanupTempDirs, isRoot, tempDir } from './support/env';

const corpus = loadCorpus();

describe('reliability: the bad-input corpus through the CLI', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);
  let mountOk: boolean | undefined;

  it(`has at least 50 cases, each with a description and runs (${corpus.length} cases)`, () => {
    assert.ok(corpus.length >= 50, `only ${corpus.length} cases`);
    for (const c of corpus) {
      assert.ok(c.spec.description && c.spec.runs.length > 0, c.name);
      // Every case names what it must produce.
      assert.ok(c.spec.runs.some((r) => (r.out?.length ?? 0) + (r.err?.length ?? 0) + (r.text?.length ?? 0) > 0 || r.listsHealthy), `${c.name}: no expected output`);
    }
  });

  for (const c of corpus) {
    it(`${c.name}: ${c.spec.description}`, async function () {
      if (c.spec.runs.some((r) => r.mount)) {
        mountOk ??= canUseMountNamespace();
        if (!mountOk) this.skip(); // needs CAP_SYS_ADMIN or user namespaces for a real read-only mount
      }
      if (c.spec.runs.some((r) => r.as === 'nobody') && !isRoot()) this.skip(); // needs root to hand the files to uid 65534
      const ctx = await prepareCase(c);
      try {
        for (const run of c.spec.runs) await checkRun(c.name, ctx, run);
      } finally {
        await undoCase(ctx);
        fs.rmSync(ctx.dir, { recursive: true, force: true });
      }
    });
  }
});

function profileNameOf(caseName: string): string {
  return ('c' + caseName.toLowerCase().replace(/[^a-z0-9_-]/g, '-')).slice(0, 60);
}

describe('reliability: the bad-input corpus through the language server (subset)', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  it('reports each broken profile by file, lists the healthy ones and still answers hover', async () => {
    const subset = corpus.filter((c) => c.spec.lsp);
    assert.ok(subset.length >= 10, `only ${subset.length} cases in the subset`);
    const dir = tempDir('hermes-bad-lsp-');
    const base = buildBaseHome(dir, {});
    const contexts: Array<{ name: string; profile: string; ctx: CaseContext; message: string[] }> = [];
    for (const c of subset) {
      const profile = profileNameOf(c.name);
      const ctx = buildBaseHome(dir, { ...c.spec.base, targetName: profile, withHealthy: false, home: base.home });
      ctx.vars.dir = dir;
      applyOverlay(c.dir, ctx);
      await runSteps(ctx, c.spec.steps ?? [], 'build');
      await runSteps(ctx, c.spec.steps ?? [], 'arm');
      contexts.push({ name: c.name, profile, ctx, message: c.spec.lsp!.message });
    }
    const client = new TestLspClient({ home: base.root });
    try {
      await client.initialize({ isTrusted: true });
      const list = await client.waitFor<SessionListResult>('hermes/sessionListChanged');
      assert.equal(list.problem, null);
      for (const { name, profile, ctx, message } of contexts) {
        const dto = list.profiles.find((p) => p.name === profile);
        assert.ok(dto, `${name}: profile ${profile} not listed`);
        const text = [dto.unavailable ?? '', ...dto.problems].join('\n');
        for (const m of message) assert.ok(text.includes(fillPlaceholders(m, ctx.vars)), `${name}: ${JSON.stringify(fillPlaceholders(m, ctx.vars))} not in\n${text}`);
      }
      const healthy = list.profiles.find((p) => p.name === 'healthy');
      assert.deepEqual(healthy?.sessions.map((s) => s.id), ['healthy-0001']);
      assert.ok(list.profiles.find((p) => p.name === 'default')?.sessions.some((s) => s.id === base.targetSessionId));

      const status = await client.waitFor<StatusParams>('hermes/status');
      for (const { profile } of contexts) {
        const dto = list.profiles.find((p) => p.name === profile)!;
        if (dto.unavailable) assert.ok(status.detail.includes(`${profile}: ${dto.unavailable}`), `status detail lacks ${profile}`);
      }
      // The explicit request answers the same, and the server still serves a healthy file.
      const again = await client.connection.sendRequest(SessionListRequest, {});
      assert.equal(again.profiles.length, list.profiles.length);
      const soul = path.join(base.root, 'profiles', 'healthy', 'SOUL.md');
      const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
      const hover = await client.hover(uri, 0, 1);
      assert.ok(hover && JSON.stringify(hover.contents).includes('Hermes'), 'no hover on a healthy file');
      assert.doesNotMatch(client.stderr, /^\s+at .+:\d+:\d+\)?$/m, client.stderr);
      assert.equal(await client.shutdown(), 0);
    } finally {
      client.kill();
      for (const { ctx } of contexts) await undoCase(ctx);
    }
  });

  it('with no home, says which path it looked at, and serves again once pointed at a home', async () => {
    const dir = tempDir('hermes-bad-lsp-');
    const missing = path.join(dir, 'nowhere');
    const client = new TestLspClient({ home: missing });
    try {
      await client.initialize({ isTrusted: true });
      const status = await client.waitFor<StatusParams>('hermes/status');
      assert.equal(status.severity, 'warning');
      assert.ok(status.detail.includes(`No Hermes home at ${missing}`), status.detail);
      const list = await client.connection.sendRequest(SessionListRequest, {});
      assert.ok(list.problem?.includes(missing));
      // A hover on any file still gets an answer (nothing to say), then a real home works.
      const stray = path.join(dir, 'SOUL.md');
      fs.writeFileSync(stray, 'You are nobody.');
      assert.equal(await client.hover(await client.open(stray, 'You are nobody.'), 0, 0), null);
      const ctx = buildBaseHome(path.join(dir, 'later'), {});
      const mark = client.mark();
      await client.changeSettings({ home: ctx.root });
      await client.waitFor<SessionListResult>('hermes/sessionListChanged', (l) => l.home === ctx.root, { since: mark });
      const soul = path.join(ctx.root, 'SOUL.md');
      const hover = await client.hover(await client.open(soul, fs.readFileSync(soul, 'utf8')), 0, 0);
      assert.ok(hover, 'no hover once the home exists');
      assert.equal(await client.shutdown(), 0);
    } finally {
      client.kill();
    }
  });
});
