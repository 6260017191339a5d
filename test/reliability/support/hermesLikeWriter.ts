// A child process that writes to a state.db the way Hermes does (FACTS §2): one long-lived
// connection, WAL left as it is, `PRAGMA foreign_keys=ON`, a 1 s busy timeout, and each write one
// short BEGIN IMMEDIATE transaction with jittered retries. It appends messages (raising the session
// counters), replaces stored prompts and adopts refresh requests (stamping
// `model_config.prompt_refresh_epoch`, keeping the other keys), for `durationMs`, then prints one
// JSON line: every write it committed, and every error that surfaced (a write it had to give up).
//
//   node hermesLikeWriter.js <state.db> <durationMs> <seed>
import { requestedEpoch, stampedEpoch } from '../../../server/hermes/refresh/epochs';
import { parseModelConfig } from '../../../server/hermes/store/codec';
import type { SqliteConnection } from '../../../server/hermes/store/connection';
import { isBusy } from '../../../server/hermes/store/transaction';
import { SimulatedHermes } from '../../../server/demo/hermes';
import { layoutOf } from '../../../server/demo/hermes/schema';
import { createRng } from '../../../server/demo/prng';
import { storePrompt } from '../../../server/demo/hermes/rows';

export interface WriterReport {
  /** Committed appends: message marker → session id. */
  readonly appended: Array<[marker: string, sessionId: string]>;
  /** Committed prompt replacements, in order: [session id, marker in the new prompt]. */
  readonly prompts: Array<[sessionId: string, marker: string]>;
  /** Committed adoptions: [session id, stamped epoch]. */
  readonly adopted: Array<[sessionId: string, epoch: number]>;
  committed: number;
  /** BEGIN IMMEDIATE attempts that hit the busy timeout and were retried (invisible to a user). */
  busyRetries: number;
  /** Errors that surfaced (retries exhausted or anything else): must stay empty. */
  readonly errors: string[];
}

const ATTEMPTS = 5;

function main(): void {
  const [file, durationText, seedText] = process.argv.slice(2);
  const duration = Number(durationText);
  const rng = createRng(Number(seedText ?? 1));
  const db = SimulatedHermes.open(file!).db;
  const layout = layoutOf(db);
  const sessions = (db.prepare('SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
  const report: WriterReport = { appended: [], prompts: [], adopted: [], committed: 0, busyRetries: 0, errors: [] };
  const deadline = Date.now() + duration;
  let seq = 0;
  while (Date.now() < deadline) {
    seq++;
    const sessionId = rng.pick(sessions);
    const roll = rng.next();
    const marker = `rel-writer:${process.pid}:${seq}`;
    try {
      if (roll < 0.7) {
        write(db, report, () => appendMessage(db, sessionId, marker));
        report.appended.push([marker, sessionId]);
      } else if (roll < 0.85) {
        write(db, report, () => replacePrompt(db, layout, sessionId, marker));
        report.prompts.push([sessionId, marker]);
      } else {
        const epoch = write(db, report, () => adopt(db, sessionId));
        report.adopted.push([sessionId, epoch]);
      }
      report.committed++;
    } catch (error) {
      report.errors.push(`${(error as { code?: string }).code ?? ''} ${(error as Error).message}`);
    }
    // Hermes writes per message and per turn, not in a tight loop; a short pause lets others in.
    pause(rng.int(0, 12));
  }
  db.close();
  process.stdout.write(JSON.stringify(report) + '\n');
}

/** One BEGIN IMMEDIATE transaction with Hermes' retries; counts the retries it rode out. */
function write<T>(db: SqliteConnection, report: { busyRetries: number }, body: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (!isBusy(error) || attempt >= ATTEMPTS) throw error;
      report.busyRetries++;
      pause(20 + Math.random() * 130);
      continue;
    }
    try {
      const result = body();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      try {
        db.exec('ROLLBACK');
      } catch {
        /* already rolled back */
      }
      throw error;
    }
  }
}

function appendMessage(db: SqliteConnection, sessionId: string, marker: string): void {
  const now = Date.now() / 1000;
  db.prepare(
    `INSERT INTO messages (session_id, role, content, timestamp, token_count, active, compacted)
     VALUES (?, 'assistant', ?, ?, ?, 1, 0)`,
  ).run(sessionId, `${marker} done.`, now, 7);
  db.prepare(
    `UPDATE sessions SET message_count = message_count + 1, api_call_count = api_call_count + 1,
       input_tokens = input_tokens + 11, output_tokens = output_tokens + 7, cache_read_tokens = cache_read_tokens + 1000,
       last_activity_at = ? WHERE id = ?`,
  ).run(now, sessionId);
}

function replacePrompt(db: SqliteConnection, layout: ReturnType<typeof layoutOf>, sessionId: string, marker: string): void {
  const row = db
    .prepare(
      layout === 'v30'
        ? 'SELECT COALESCE(sp.prompt, s.system_prompt) AS prompt FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash WHERE s.id = ?'
        : 'SELECT system_prompt AS prompt FROM sessions WHERE id = ?',
    )
    .get(sessionId);
  const old = typeof row?.prompt === 'string' ? row.prompt : 'You are Hermes Agent.';
  // Keep the prompt's shape: only the trailing marker line changes.
  const base = old.replace(/\n<!-- rel-writer:[^>]*-->$/, '');
  storePrompt(db, layout, sessionId, `${base}\n<!-- ${marker} -->`);
}

function adopt(db: SqliteConnection, sessionId: string): number {
  const meta = new Map((db.prepare('SELECT key, value FROM state_meta').all() as Array<{ key: string; value: unknown }>).map((r) => [r.key, String(r.value ?? '')]));
  const config = parseModelConfig(db.prepare('SELECT model_config FROM sessions WHERE id = ?').get(sessionId)?.model_config);
  const epoch = Math.max(requestedEpoch(meta, sessionId), stampedEpoch(config));
  if (epoch > 0) db.prepare('UPDATE sessions SET model_config = ? WHERE id = ?').run(JSON.stringify({ ...config, prompt_refresh_epoch: epoch }), sessionId);
  return epoch;
}

function pause(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    process.stdout.write(JSON.stringify({ fatal: (error as Error).stack ?? String(error) }) + '\n');
    process.exit(1);
  }
}
