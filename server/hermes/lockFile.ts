// A lock between this user's processes over a file of the lens's cache folder: a lock file beside
// it, made only if absent (O_EXCL). It is held for the moment a small file is read and written; one
// left behind by a process that died is taken over once it is older than any holder could be.
import fs = require('node:fs');
import path = require('node:path');

const LEFT_BEHIND_MS = 10_000;
const RETRY_MS = 5;
const RETRIES = 200; // a second: far longer than a holder keeps it

/** `run()` while holding `lockFile`; throws when another process holds it all along. */
export function withLock<T>(lockFile: string, run: () => T): T {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true, mode: 0o700 });
  for (let retry = 0; ; retry++) {
    let fd: number;
    try {
      fd = fs.openSync(lockFile, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (leftBehind(lockFile)) fs.rmSync(lockFile, { force: true });
      else if (retry >= RETRIES) throw new Error(`${lockFile} stays held by another process; remove it if no editor window or hermes-lens is running.`);
      else pause(RETRY_MS);
      continue;
    }
    fs.closeSync(fd);
    try {
      return run();
    } finally {
      fs.rmSync(lockFile, { force: true });
    }
  }
}

function leftBehind(lockFile: string): boolean {
  try {
    return Date.now() - fs.statSync(lockFile).mtimeMs > LEFT_BEHIND_MS;
  } catch {
    return false; // gone meanwhile: the next try takes it
  }
}

/** Waits `ms` without returning to the event loop: the callers' changes are synchronous, and short. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
