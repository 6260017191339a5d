// A live Hermes next to the lens. A child process writes like Hermes (WAL, short BEGIN IMMEDIATE,
// 1 s busy timeout with jittered retries: messages appended, counters raised, prompts replaced,
// refresh requests adopted) for ~10 s, while another child drives the engine through the CLI's entry
// point in a loop (profile-wide and per-session refresh requests, status reads) and the language
// server watches the home over stdio (it re-reads on every commit, answers hovers and records a
// refresh now and then). At the end:
//   - every write the writer counted is in the database (messages, counters, prompts, stamps);
//   - no SQLITE_BUSY reached anyone: the loop saw no failure, the writer had to give up no write, the
//     server logged no error and never reported the profile unavailable;
//   - every refresh got its own epoch, one above the one before (none lost, none doubled);
//   - `PRAGMA integrity_check` is ok; journal mode, application_id and db_file_generation unchanged.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HomeBuilder } from '../../server/demo/homeBuilder';
import { parseEpoch, PROFILE_EPOCH_KEY } from '../../server/hermes/refresh/epochs';
import { parseModelConfig } from '../../server/hermes/store/codec';
import { Commands, type RefreshResultDto, type SessionListResult, type StatusParams } from '../../shared/protocol';
import { TestLspClient } from '../support/lspClient';
import { headerJournal, identityOf, integrityOf, metaOf, readOnly } from './support/db';
import { cleanupTempDirs, sleep, spawnNode, SUPPORT_DIR, tempDir } from './support/env';
import type { WriterReport } from './support/hermesLikeWriter';
import type { LoopReport } from './support/refreshLoop';

const DURATION_MS = Number(process.env.HERMES_LENS_CONCURRENT_MS ?? 10_000);

function maxEpochOf(meta: Map<string, string>): number {
  let max = 0;
  for (const [key, value] of meta) if (key === PROFILE_EPOCH_KEY || key.startsWith(PROFILE_EPOCH_KEY + ':')) max = Math.max(max, parseEpoch(value));
  return max;
}

describe('reliability: a live Hermes writer, the refresh loop and the language server at once', function () {
  this.timeout(DURATION_MS + 120_000);
  after(cleanupTempDirs);

  it('loses no write, surfaces no SQLITE_BUSY and keeps the file Hermes knows', async () => {
    const dir = tempDir('hermes-live-');
    const home = HomeBuilder.create(path.join(dir, 'home'), { seed: 11 });
    const p = home.profile();
    p.writeSoul('# Persona\n\nYou are Kit, a careful engineer.\n');
    p.addSkill({ category: 'ops', name: 'triage', description: 'Sort incoming work by urgency' });
    p.writeMemory(['The project uses pnpm.', 'CI runs on GitHub Actions.']);
    const project = home.addProject(path.join(dir, 'project'));
    project.agentsMd('', '# Rules\n\nRun the tests.\n');
    const now = Date.now() / 1000;
    for (let i = 0; i < 24; i++) {
      p.addSession({
        source: i % 3 === 0 ? 'telegram' : 'cli',
        model: i % 4 === 0 ? 'gpt-5' : 'claude-sonnet-4-5',
        startedAt: now - 3600 + i * 10,
        messages: 4,
        promptFromCurrentFiles: true,
        ...(i % 2 ? { cwd: project.dir } : {}),
      });
    }
    const before = readOnly(p.dbFile, (db) => ({
      identity: identityOf(db),
      maxEpoch: maxEpochOf(metaOf(db)),
      counts: new Map((db.prepare('SELECT id, message_count AS n FROM sessions').all() as Array<{ id: string; n: number }>).map((r) => [r.id, r.n])),
    }));
    assert.equal(before.identity.journalMode, 'wal');

    // The language server watches the home the whole time.
    const client = new TestLspClient({ home: home.root });
    const lsp = { refreshes: [] as number[], errors: [] as string[], hovers: 0 };
    try {
      await client.initialize({ isTrusted: true });
      await client.waitFor<SessionListResult>('hermes/sessionListChanged');
      const soul = path.join(home.root, 'SOUL.md');
      const soulUri = await client.open(soul, fs.readFileSync(soul, 'utf8'));

      const writer = spawnNode(path.join(SUPPORT_DIR, 'hermesLikeWriter.js'), [p.dbFile, String(DURATION_MS), '5'], { timeoutMs: DURATION_MS + 60_000 });
      const loop = spawnNode(path.join(SUPPORT_DIR, 'refreshLoop.js'), [home.root, String(DURATION_MS), '9'], { timeoutMs: DURATION_MS + 60_000 });
      let running = true;
      const both = Promise.all([writer, loop]).finally(() => (running = false));
      // The user: hovers, and a refresh from the editor about every second.
      const user = (async () => {
        let tick = 0;
        while (running) {
          await sleep(250);
          if (!running) break;
          const hover = await client.hover(soulUri, 0, 2);
          if (hover) lsp.hovers++;
          if (++tick % 4 === 0) {
            try {
              const r = (await client.executeCommand(Commands.refresh, [{ profile: 'default' }])) as RefreshResultDto;
              lsp.refreshes.push(r.epoch!);
            } catch (error) {
              lsp.errors.push((error as Error).message);
            }
          }
        }
      })();
      const [w, l] = await both;
      await user;
      assert.equal(w.code, 0, `writer failed: ${w.stdout}${w.stderr}`);
      assert.equal(l.code, 0, `refresh loop failed: ${l.stdout}${l.stderr}`);
      const written = JSON.parse(w.stdout) as WriterReport;
      const looped = JSON.parse(l.stdout) as LoopReport;

      // Nobody saw SQLITE_BUSY (or anything else).
      assert.deepEqual(written.errors, [], 'the writer had to give up writes');
      const failed = looped.runs.filter((r) => r.code !== 0);
      assert.deepEqual(failed, [], 'the refresh loop saw failures');
      assert.deepEqual(lsp.errors, [], 'refreshes from the editor failed');
      // A round trip: the server answers only after handling everything sent before it.
      await client.connection.sendRequest('hermes/sessionList', {});
      const logs = client.notifications.filter((n) => n.method === 'window/logMessage').map((n) => n.params as { type: number; message: string });
      assert.deepEqual(logs.filter((m) => m.type === 1 || /busy|locked/i.test(m.message)), [], 'the server logged errors');
      const lists = client.notifications.filter((n) => n.method === 'hermes/sessionListChanged').map((n) => n.params as SessionListResult);
      assert.ok(lists.length > 3, 'the server did not follow the writes');
      for (const list of lists) assert.equal(list.profiles[0]!.unavailable, null, 'the server reported the profile unavailable');
      const statuses = client.notifications.filter((n) => n.method === 'hermes/status').map((n) => n.params as StatusParams);
      assert.ok(statuses.every((s) => s.severity !== 'error'), 'an error status reached the user');

      // Every committed write is there.
      const after = readOnly(p.dbFile, (db) => {
        const markers = new Map(
          (db.prepare("SELECT content, session_id FROM messages WHERE content LIKE 'rel-writer:%'").all() as Array<{ content: string; session_id: string }>).map((r) => [
            r.content.replace(/ done\.$/, ''),
            r.session_id,
          ]),
        );
        const sessions = db.prepare('SELECT id, message_count AS n, model_config FROM sessions').all() as Array<{ id: string; n: number; model_config: string }>;
        const prompts = db.prepare('SELECT s.id AS id, COALESCE(sp.prompt, s.system_prompt) AS prompt FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash').all() as Array<{ id: string; prompt: string }>;
        return {
          markers,
          counts: new Map(sessions.map((s) => [s.id, s.n])),
          configs: new Map(sessions.map((s) => [s.id, parseModelConfig(s.model_config)])),
          prompts: new Map(prompts.map((r) => [r.id, String(r.prompt)])),
          integrity: integrityOf(db),
          identity: identityOf(db),
          meta: metaOf(db),
        };
      });
      assert.equal(after.markers.size, written.appended.length, 'appended messages missing');
      for (const [marker, sessionId] of written.appended) assert.equal(after.markers.get(marker), sessionId, `message ${marker} lost`);
      const appendedPer = new Map<string, number>();
      for (const [, id] of written.appended) appendedPer.set(id, (appendedPer.get(id) ?? 0) + 1);
      for (const [id, n] of before.counts) assert.equal(after.counts.get(id), n + (appendedPer.get(id) ?? 0), `message_count of ${id}`);
      const lastPrompt = new Map(written.prompts);
      for (const [id, marker] of lastPrompt) assert.ok(after.prompts.get(id)!.endsWith(`<!-- ${marker} -->`), `prompt of ${id} lost its last update`);
      const lastStamp = new Map(written.adopted);
      for (const [id, epoch] of lastStamp) {
        if (epoch > 0) assert.equal(after.configs.get(id)!.prompt_refresh_epoch, epoch, `stamp of ${id}`);
        assert.ok(after.configs.get(id)!.model, `model_config of ${id} lost its other keys`);
      }

      // Every refresh got its own epoch: before+1 … before+N, none lost, none doubled.
      const epochs = [...looped.runs.filter((r) => r.epoch !== undefined).map((r) => r.epoch!), ...lsp.refreshes].sort((a, b) => a - b);
      const expected = epochs.map((_, i) => before.maxEpoch + i + 1);
      assert.deepEqual(epochs, expected, 'refresh epochs are not a gapless sequence');
      assert.equal(maxEpochOf(after.meta), before.maxEpoch + epochs.length);

      // The file Hermes knows.
      assert.equal(after.integrity, 'ok');
      assert.deepEqual(after.identity, before.identity);
      assert.equal(headerJournal(p.dbFile), 'wal');
      const summary = {
        writerCommits: written.committed,
        appended: written.appended.length,
        prompts: written.prompts.length,
        adopted: written.adopted.length,
        writerBusyRetries: written.busyRetries,
        cliRefreshes: looped.runs.filter((r) => r.kind !== 'status').length,
        cliStatus: looped.runs.filter((r) => r.kind === 'status').length,
        slowestCliRunMs: Math.max(...looped.runs.map((r) => r.ms)),
        lspRefreshes: lsp.refreshes.length,
        lspHovers: lsp.hovers,
        lspReloads: lists.length,
      };
      // eslint-disable-next-line no-console
      console.log(`      live run (${DURATION_MS / 1000} s): ${JSON.stringify(summary)}`);
      assert.ok(written.committed > 100 && summary.cliRefreshes > 10 && lsp.refreshes.length > 2 && lsp.hovers > 5, 'too little happened to prove anything');
      assert.equal(await client.shutdown(), 0);
    } finally {
      client.kill();
    }
  });
});
