// A separate process that writes to a state.db as Hermes does (FACTS §2): WAL, short BEGIN
// IMMEDIATE transactions with a 1 s busy timeout and jittered retries, appending messages to a
// session and raising its counters. Driven by JSON lines on stdin, answering JSON lines on stdout:
//
//   {"cmd":"append","session":"<id>","now":<epoch s>}    one turn through hermesWriter.appendMessages
//                                                        → {"ok":true,"committedAt":<epoch ms>}
//   {"cmd":"loop","sessions":[…],"turns":800,"intervalMs":25,"seed":1}
//       appends `turns` turns to random sessions, one transaction per turn on one open connection
//       (as a running Hermes keeps its connection), timing each from BEGIN to COMMIT, busy waits and
//       retries included → {"ok":true,"latenciesMs":[…],"failures":n}. A count of turns, not a
//       duration: two loops with the same seed write the same turns (the same WAL growth, so the
//       same checkpoints) and give the same number of samples, whose p99s then compare rank for rank.
//   {"cmd":"exit"}
//
// Times are epoch milliseconds from performance.timeOrigin + performance.now(), comparable with the
// parent's.
import { performance } from 'node:perf_hooks';
import * as readline from 'node:readline';
import { appendMessages, SimulatedHermes } from '../server/demo/hermes';
import { createRng, type Rng } from '../server/demo/prng';
import { cachingOf, toolSchemaTokensEstimate } from '../server/demo/providers';
import { addSessionUsage, insertMessages } from '../server/demo/hermes/rows';
import { estimateTokens, synthesizeMessages, toStoredMessages, usageFor } from '../server/demo/transcript';
import { parseToolNames } from '../server/hermes/store/codec';
import type { SqliteConnection } from '../server/hermes/store/connection';
import { runImmediate } from '../server/hermes/store/transaction';

type Command =
  | { cmd: 'append'; session: string; now?: number }
  | { cmd: 'loop'; sessions: string[]; turns: number; intervalMs: number; seed?: number }
  | { cmd: 'exit' };

export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

function main(dbFile: string): void {
  const lines = readline.createInterface({ input: process.stdin });
  const reply = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n');
  lines.on('line', (line) => {
    let command: Command;
    try {
      command = JSON.parse(line) as Command;
    } catch {
      return reply({ ok: false, error: `not JSON: ${line}` });
    }
    try {
      if (command.cmd === 'append') {
        appendMessages(dbFile, command.session, 1, { now: command.now ?? Date.now() / 1000 });
        reply({ ok: true, committedAt: epochMs() });
      } else if (command.cmd === 'loop') {
        reply({ ok: true, ...loop(dbFile, command) });
      } else if (command.cmd === 'exit') {
        lines.close();
        process.exit(0);
      }
    } catch (error) {
      reply({ ok: false, error: String((error as Error)?.message ?? error) });
    }
  });
  lines.on('close', () => process.exit(0));
}

/** `turns` turns, about every `intervalMs` (±50% jitter). */
function loop(dbFile: string, command: Extract<Command, { cmd: 'loop' }>): { latenciesMs: number[]; failures: number } {
  const rng = createRng(command.seed ?? 1);
  const db = SimulatedHermes.open(dbFile).db;
  const latenciesMs: number[] = [];
  let failures = 0;
  try {
    for (let turn = 0; turn < command.turns; turn++) {
      const session = rng.pick(command.sessions);
      const started = epochMs();
      try {
        runImmediate(db, () => appendTurn(db, rng, session));
        latenciesMs.push(epochMs() - started);
      } catch {
        failures++;
        latenciesMs.push(epochMs() - started);
      }
      sleep(command.intervalMs * (0.5 + rng.next()));
    }
  } finally {
    db.close();
  }
  return { latenciesMs, failures };
}

/** One turn (a user message and the answer), what hermesWriter.appendMessages writes, on an open connection. */
function appendTurn(db: SqliteConnection, rng: Rng, sessionId: string): void {
  const now = Date.now() / 1000;
  const row = db
    .prepare('SELECT model, model_config, last_activity_at, started_at, billing_provider, billing_base_url, billing_mode, tool_names FROM sessions WHERE id = ?')
    .get(sessionId);
  if (!row) throw new Error(`no session ${sessionId}`);
  const model = String(row.model ?? '');
  const provider = (row.billing_provider as string | null) ?? undefined;
  const from = Number(row.last_activity_at ?? row.started_at);
  const start = Math.min(now, from + 1);
  const stored = toStoredMessages(synthesizeMessages(rng, 2), start, Math.max(start, now));
  const prior = Number(db.prepare('SELECT COALESCE(SUM(token_count), 0) AS t FROM messages WHERE session_id = ? AND active = 1').get(sessionId)?.t ?? 0);
  const prompt = db
    .prepare('SELECT COALESCE(sp.prompt, s.system_prompt) AS prompt FROM sessions s LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash WHERE s.id = ?')
    .get(sessionId)?.prompt;
  const usage = usageFor(stored, {
    headTokens: toolSchemaTokensEstimate(parseToolNames(row.tool_names)) + (typeof prompt === 'string' ? estimateTokens(prompt) : 0),
    priorTranscriptTokens: prior,
    ...cachingOf(provider, model),
  });
  insertMessages(db, sessionId, stored);
  addSessionUsage(
    db,
    {
      id: sessionId,
      model,
      billingProvider: provider,
      billingBaseUrl: (row.billing_base_url as string | null) ?? undefined,
      billingMode: (row.billing_mode as string | null) ?? undefined,
    },
    usage,
    { first: start, last: now },
  );
  db.prepare('UPDATE sessions SET last_activity_at = ? WHERE id = ?').run(now, sessionId);
}

function sleep(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

if (require.main === module) {
  const dbFile = process.argv[2];
  if (!dbFile) {
    process.stderr.write('usage: hermesWriterProcess <state.db>\n');
    process.exit(2);
  }
  main(dbFile);
}
