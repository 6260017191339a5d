// A child process that takes and releases a real SQLite write lock on command, as a busy Hermes
// writer would: it reads `lock` / `unlock` lines on stdin and answers `locked` / `unlocked`. It is a
// separate process because SQLite's POSIX locks are per process (FACTS §2). Faster than starting a
// lock holder per use when a test needs the lock a hundred times.
//
//   node lockServer.js <state.db>
import * as readline from 'node:readline';
import { SimulatedHermes } from '../../../server/demo/hermes';
import { isBusy } from '../../../server/hermes/store/transaction';

function main(): void {
  const db = SimulatedHermes.open(process.argv[2]!).db;
  // Read once, as an open Hermes does: a WAL database then has its -wal and -shm while this runs.
  db.prepare('SELECT COUNT(*) AS n FROM sqlite_master').get();
  let held = false;
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    try {
      if (line === 'lock' && !held) {
        for (let attempt = 1; ; attempt++) {
          try {
            db.exec('BEGIN IMMEDIATE');
            break;
          } catch (error) {
            if (!isBusy(error) || attempt >= 30) throw error;
          }
        }
        held = true;
        process.stdout.write('locked\n');
      } else if (line === 'unlock') {
        if (held) db.exec('COMMIT');
        held = false;
        process.stdout.write('unlocked\n');
      }
    } catch (error) {
      process.stdout.write(`error ${(error as Error).message}\n`);
    }
  });
  // The parent went away: never keep Hermes' lock.
  lines.on('close', () => {
    if (held) db.exec('ROLLBACK');
    db.close();
    process.exit(0);
  });
}

if (require.main === module) main();
