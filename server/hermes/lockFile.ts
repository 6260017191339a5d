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
      const judged = leftBehind(lockFile);
      if (judged) takeOver(lockFile, judged);
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

/** The lock file's stat when it is old enough to have been left behind by a process that died. */
function leftBehind(lockFile: string): fs.Stats | undefined {
  try {
    const stat = fs.statSync(lockFile);
    return Date.now() - stat.mtimeMs > LEFT_BEHIND_MS ? stat : undefined;
  } catch {
    return undefined; // gone meanwhile: the next try takes it
  }
}

/**
 * Removes the lock file judged left behind (`judged`), and only that one. Two processes may judge it
 * at once: the first removes it and makes its own, which the second must not remove. So the file
 * is moved aside first, and put back when what moved is not the one judged.
 */
export function takeOver(lockFile: string, judged: fs.Stats): void {
  const aside = `${lockFile}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    fs.renameSync(lockFile, aside);
  } catch {
    return; // gone meanwhile: the next try takes it
  }
  const moved = fs.statSync(aside);
  if (moved.ino !== judged.ino || moved.mtimeMs !== judged.mtimeMs) {
    try {
      fs.linkSync(aside, lockFile); // its holder's lock, back in place
    } catch {
      // a third process made one meanwhile: that one stands
    }
  }
  fs.rmSync(aside, { force: true });
}

/** Waits `ms` without returning to the event loop: the callers' changes are synchronous, and short. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
