// Child-process entry that holds a real SQLite write lock, as a busy Hermes writer would:
// `node hermesLockHolder.js <state.db> <ms> [sql]` opens the file, takes BEGIN IMMEDIATE (1 s busy
// timeout, retried), runs <sql> in that transaction when given (what Hermes writes while it holds
// the lock), prints `locked` once it holds the lock, and commits after <ms> or as soon as a line
// arrives on stdin. It must be another process: SQLite locks are per process, so a lock
// taken in the test's own process would not block the test's other connections the same way.
import { openConnection } from '../hermes/store/connection';
import { isBusy } from '../hermes/store/transaction';

function main(argv: readonly string[]): void {
  const [file, msText, sql] = argv;
  const ms = Number(msText);
  if (!file || !Number.isFinite(ms) || ms < 0) {
    process.stderr.write('usage: hermesLockHolder <state.db> <milliseconds> [sql]\n');
    process.exit(2);
  }
  const db = openConnection(file, { readonly: false, busyTimeoutMs: 1000 });
  for (let attempt = 1; ; attempt++) {
    try {
      db.exec('BEGIN IMMEDIATE');
      break;
    } catch (error) {
      if (!isBusy(error) || attempt >= 5) throw error;
    }
  }
  if (sql) db.exec(sql);
  process.stdout.write('locked\n');
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearTimeout(timer);
    db.exec('COMMIT');
    db.close();
    process.stdout.write('released\n');
    process.exit(0);
  };
  const timer = setTimeout(release, ms);
  process.stdin.on('data', release);
  // The parent went away: never hold Hermes' lock past the test that asked for it.
  process.stdin.on('end', release);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
