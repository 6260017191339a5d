// After mocha's last test, Node exits once nothing holds its event loop. Something a test leaves
// behind (a child process, a socket, a timer chain) keeps it alive with no output at all, and CI
// waits out its whole time limit (it did: "536 passed, 0 failed", then nothing for 90 minutes).
// This watch ends such a run after a grace period: it lists what still holds the process (child
// processes with their arguments, sockets, and the timers with where they were set), kills the
// child processes (they would outlive us otherwise) and exits with the tests' own status, so the
// listing reaches the log and the run's verdict stays the tests'.
const { promisify } = require('node:util');

const GRACE_MS = Number(process.env.HERMES_LENS_TEST_EXIT_GRACE_MS ?? 30_000);

// Where each pending timer was set: Node lists timers only as a count ("Timeout"). Mocha took its
// own references to the timer functions before this module loads, so its timers are not here.
const pendingTimers = new Map();
function setAt(timer, kind, ms) {
  const stack = new Error().stack.split('\n').slice(3, 6).map((line) => line.trim()).join(' ← ');
  pendingTimers.set(timer, `${kind}(…, ${ms}) ${stack}`);
}
const { setTimeout: realSetTimeout, setInterval: realSetInterval, clearTimeout: realClearTimeout, clearInterval: realClearInterval } = globalThis;
globalThis.setTimeout = function setTimeout(callback, ms, ...args) {
  const timer = realSetTimeout(
    (...a) => {
      pendingTimers.delete(timer);
      if (typeof callback === 'function') callback(...a);
    },
    ms,
    ...args,
  );
  setAt(timer, 'setTimeout', ms);
  return timer;
};
globalThis.setInterval = function setInterval(callback, ms, ...args) {
  const timer = realSetInterval(callback, ms, ...args);
  setAt(timer, 'setInterval', ms);
  return timer;
};
// util.promisify(setTimeout) and (…setInterval) find Node's own promise versions through this symbol.
for (const [wrapped, real] of [[globalThis.setTimeout, realSetTimeout], [globalThis.setInterval, realSetInterval]]) {
  if (real[promisify.custom]) wrapped[promisify.custom] = real[promisify.custom];
}
globalThis.clearTimeout = function clearTimeout(timer) {
  pendingTimers.delete(timer);
  realClearTimeout(timer);
};
globalThis.clearInterval = function clearInterval(timer) {
  pendingTimers.delete(timer);
  realClearInterval(timer);
};

/** One line per handle that keeps the process alive; never a child's output or any prompt text. */
function describe(handle) {
  const kind = handle?.constructor?.name ?? typeof handle;
  if (kind === 'ChildProcess') return `child process ${handle.pid}: ${handle.spawnargs.join(' ')}`;
  if (handle === process.stdout || handle === process.stderr || handle === process.stdin) return undefined;
  if (kind === 'Socket' || kind === 'Pipe') return `socket ${handle.remoteAddress ? `${handle.remoteAddress}:${handle.remotePort}` : "(a pipe, likely a child process's stdio)"}`;
  if (kind === 'Server') return `server listening on ${JSON.stringify(handle.address?.())}`;
  return kind;
}

function watchExit() {
  const watch = realSetTimeout(() => {
    const handles = process._getActiveHandles();
    const lines = handles.map(describe).filter(Boolean);
    for (const [timer, where] of pendingTimers) if (timer.hasRef?.() !== false) lines.push(`timer: ${where}`);
    // Anything else (a pending file system request, say) shows up only here, by kind.
    const others = process.getActiveResourcesInfo().filter((r) => !['Timeout', 'TTYWrap', 'PipeWrap', 'TCPWrap', 'ProcessWrap'].includes(r));
    for (const kind of others) lines.push(kind);
    console.error(`\nThe tests ended ${GRACE_MS / 1000} s ago, but the process was still held open by what a test left behind:`);
    for (const line of lines.length ? lines : ['(nothing Node can name: a timer set before this watch loaded)']) console.error(`  - ${line}`);
    console.error('Ending it now with the tests\' own status; the test that leaves this should kill, close or clear it.');
    for (const h of handles) if (h?.constructor?.name === 'ChildProcess' && h.exitCode === null && h.signalCode === null) h.kill('SIGKILL');
    process.exit();
  }, GRACE_MS);
  watch.unref(); // the watch itself never holds the process
}

module.exports = { watchExit };
