// A separate process that writes to a state.db as Hermes does, through the simulated Hermes
// (server/demo/hermes: WAL, short BEGIN IMMEDIATE transactions with a 1 s busy timeout and jittered
// retries), appending messages to a session and raising its counters. Driven by JSON lines on
// stdin, answering JSON lines on stdout:
//
//   {"cmd":"append","session":"<id>","now":<epoch s>}    one message through appendMessages, as a
//                                                        Hermes command that opens, writes, exits
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
import { createRng } from '../server/demo/prng';

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

/** `turns` turns (a user message and the answer), about every `intervalMs` (±50% jitter). */
function loop(dbFile: string, command: Extract<Command, { cmd: 'loop' }>): { latenciesMs: number[]; failures: number } {
  const rng = createRng(command.seed ?? 1);
  const hermes = SimulatedHermes.open(dbFile);
  const latenciesMs: number[] = [];
  let failures = 0;
  try {
    for (let turn = 0; turn < command.turns; turn++) {
      const session = rng.pick(command.sessions);
      const started = epochMs();
      try {
        hermes.appendMessages(session, 2, { rng });
        latenciesMs.push(epochMs() - started);
      } catch {
        failures++;
        latenciesMs.push(epochMs() - started);
      }
      sleep(command.intervalMs * (0.5 + rng.next()));
    }
  } finally {
    hermes.close();
  }
  return { latenciesMs, failures };
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
