// After mocha's last test, Node exits once nothing holds its event loop. A test that leaves a child
// process, a socket or an interval behind keeps it alive with no output at all, and CI waits for
// its whole time limit. This watch turns that into a quick failure that says what was left: after
// a grace period it lists the handles still open, kills the child processes among them (they would
// outlive us otherwise) and exits with status 1.
const GRACE_MS = Number(process.env.HERMES_LENS_TEST_EXIT_GRACE_MS ?? 30_000);

/** One line per handle that keeps the process alive; never a child's output or any prompt text. */
function describe(handle) {
  const kind = handle?.constructor?.name ?? typeof handle;
  if (kind === 'ChildProcess') return `child process ${handle.pid}: ${handle.spawnargs.join(' ')}`;
  if (kind === 'Socket' || kind === 'Pipe') {
    if (handle === process.stdout || handle === process.stderr || handle === process.stdin) return undefined;
    return `socket ${handle.remoteAddress ? `${handle.remoteAddress}:${handle.remotePort}` : '(a pipe, likely a child process\'s stdio)'}`;
  }
  if (kind === 'Server') return `server listening on ${JSON.stringify(handle.address?.())}`;
  if (kind === 'Timeout') return `timer: ${String(handle._onTimeout).slice(0, 120).replace(/\s+/g, ' ')}`;
  return kind;
}

function watchExit() {
  const timer = setTimeout(() => {
    const handles = process._getActiveHandles().filter((h) => h !== timer);
    const lines = handles.map(describe).filter(Boolean);
    // Resources that are not handles (e.g. a pending fs request) show up only here.
    const resources = process.getActiveResourcesInfo().filter((r) => r !== 'Timeout' && r !== 'TTYWrap');
    console.error(`\nThe tests ended ${GRACE_MS / 1000} s ago, but the process is still held open by what a test left behind:`);
    for (const line of lines.length ? lines : resources) console.error(`  - ${line}`);
    console.error('Fix the test that leaves it (kill the process, close the socket, clear the timer). Exiting with status 1.');
    for (const h of handles) if (h?.constructor?.name === 'ChildProcess' && h.exitCode === null) h.kill('SIGKILL');
    // Mocha sets the exit status from the failure count in its own 'exit' listener; this one runs after it.
    process.on('exit', () => (process.exitCode = 1));
    process.exit(1);
  }, GRACE_MS);
  timer.unref(); // the watch itself never holds the process
}

module.exports = { watchExit };
