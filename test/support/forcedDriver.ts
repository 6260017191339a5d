// A test run with one SQLite binding forced (the runtime matrix, scripts/test-matrix.sh):
// HERMES_LENS_TEST_SQLITE_DRIVER names it, and every lens process the tests start (the CLI, the
// language server) gets it as HERMES_LENS_SQLITE_DRIVER, so it reads and writes state.db with that
// binding alone. This process keeps the default binding for the homes it writes and its own direct
// reads of state.db, as Hermes is a process of its own: two SQLite libraries in one process release
// each other's POSIX locks when either closes the file (SQLite's "multiple copies" hazard).
import { SQLITE_DRIVER_ENV, sqliteDriverStatus } from '../../server/hermes/store/connection';

const forced = process.env.HERMES_LENS_TEST_SQLITE_DRIVER;
if (forced) {
  delete process.env[SQLITE_DRIVER_ENV];
  const own = sqliteDriverStatus(); // chosen now, and kept by this process
  if (!own.driver) throw new Error(`no SQLite binding loads in the test process: ${own.problem}`);
  process.env[SQLITE_DRIVER_ENV] = forced;
}
