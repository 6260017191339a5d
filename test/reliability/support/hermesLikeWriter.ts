// A child process that writes to a state.db as a running Hermes does, through the simulated Hermes
// (server/demo/hermes: one connection kept open, `PRAGMA foreign_keys=ON`, a 1 s busy timeout, each
// write one short BEGIN IMMEDIATE transaction with jittered retries). For `durationMs` it appends
// messages (raising the session counters), replaces stored prompts and adopts refresh requests
// (rebuilding the prompt, stamping `model_config.prompt_refresh_epoch`, keeping the other keys),
// then prints one JSON line: every write it committed, and every error that surfaced (a write it
// had to give up). Each message and replaced prompt carries a marker the test looks for.
//
//   node hermesLikeWriter.js <state.db> <durationMs> <seed>
import * as path from 'node:path';
import { SimulatedHermes } from '../../../server/demo/hermes';
import { createRng } from '../../../server/demo/prng';

export interface WriterReport {
  /** Committed appends: message marker → session id. */
  readonly appended: Array<[marker: string, sessionId: string]>;
  /** Committed prompt replacements, in order: [session id, marker in the new prompt]. */
  readonly prompts: Array<[sessionId: string, marker: string]>;
  /** Committed adoptions: [session id, stamped epoch]. */
  readonly adopted: Array<[sessionId: string, epoch: number]>;
  committed: number;
  /** BEGIN IMMEDIATE attempts that found the lock still taken after the busy timeout (invisible to a user). */
  busyRetries: number;
  /** Errors that surfaced (retries exhausted or anything else): must stay empty. */
  readonly errors: string[];
}

function main(): void {
  const [file, durationText, seedText] = process.argv.slice(2);
  const duration = Number(durationText);
  const rng = createRng(Number(seedText ?? 1));
  const hermes = SimulatedHermes.open(file!);
  // The profile a state.db belongs to is the folder it lies in.
  const profileDir = path.dirname(path.resolve(file!));
  const sessions = hermes.db.prepare('SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY id').all().map((r) => String(r.id));
  // Replacements and adoptions go to different halves of the sessions: an adoption rebuilds the
  // prompt from the profile's files, which would drop the marker of the replacement before it.
  const replaced = sessions.filter((_, i) => i % 2 === 0);
  const adopting = sessions.filter((_, i) => i % 2 === 1);
  const report: WriterReport = { appended: [], prompts: [], adopted: [], committed: 0, busyRetries: 0, errors: [] };
  const deadline = Date.now() + duration;
  let seq = 0;
  while (Date.now() < deadline) {
    seq++;
    const roll = rng.next();
    const marker = `rel-writer:${process.pid}:${seq}`;
    try {
      if (roll < 0.7) {
        const sessionId = rng.pick(sessions);
        hermes.appendMessages(sessionId, [{ role: 'assistant', content: `${marker} done.`, tokenCount: 7 }]);
        report.appended.push([marker, sessionId]);
      } else if (roll < 0.85) {
        const sessionId = rng.pick(replaced);
        // Keep the prompt's shape: only the trailing marker line changes.
        const base = (hermes.storedPrompt(sessionId) ?? 'You are Hermes Agent.').replace(/\n<!-- rel-writer:[^>]*-->$/, '');
        hermes.replacePrompt(sessionId, `${base}\n<!-- ${marker} -->`);
        report.prompts.push([sessionId, marker]);
      } else {
        const sessionId = rng.pick(adopting);
        report.adopted.push([sessionId, hermes.adoptRefresh(sessionId, profileDir).epoch]);
      }
      report.committed++;
    } catch (error) {
      report.errors.push(`${(error as { code?: string }).code ?? ''} ${(error as Error).message}`);
    }
    // Hermes writes per message and per turn, not in a tight loop; a short pause lets others in.
    pause(rng.int(0, 12));
  }
  report.busyRetries = hermes.busyAttempts;
  hermes.close();
  process.stdout.write(JSON.stringify(report) + '\n');
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
