// Holding Hermes' write lock from another process, for tests of what the lens does while Hermes
// writes (FACTS §2: a refresh request must wait, retry, then fail cleanly with nothing written).
import { spawn } from 'node:child_process';
import path = require('node:path');

export interface WriteLockHold {
  readonly pid: number;
  /** Commits the holder's transaction now (instead of after `ms`) and waits for it to exit. */
  release(): Promise<void>;
  /** Settles when the holder has committed and exited. */
  readonly done: Promise<void>;
}

export interface HoldWriteLockOptions {
  /** The compiled `hermesLockHolder.js`; defaults to the one next to this module. */
  readonly script?: string;
  /** How long to wait for the holder to take the lock. */
  readonly startTimeoutMs?: number;
  /** SQL the holder runs under the lock, committed when it lets go (a Hermes write in progress). */
  readonly sql?: string;
}

/** Starts a child process holding BEGIN IMMEDIATE on `dbFile` for `ms`; resolves once it holds it. */
export function holdWriteLock(dbFile: string, ms: number, options: HoldWriteLockOptions = {}): Promise<WriteLockHold> {
  const script = options.script ?? path.join(__dirname, 'hermesLockHolder.js');
  const child = spawn(process.execPath, [script, dbFile, String(ms), ...(options.sql ? [options.sql] : [])], { stdio: ['pipe', 'pipe', 'pipe'] });
  // The holder may already have committed and exited when release() writes to it: that is fine.
  child.stdin.on('error', () => undefined);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`lock holder exited with ${code ?? signal}: ${stderr.trim()}`)),
    );
  });
  // Nobody may be awaiting `done` yet; an early failure is reported through the start promise.
  done.catch(() => undefined);
  return new Promise<WriteLockHold>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`lock holder did not take the lock within ${options.startTimeoutMs ?? 10000} ms: ${stderr.trim()}`));
    }, options.startTimeoutMs ?? 10000);
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!stdout.includes('locked\n')) return;
      clearTimeout(timer);
      resolve({
        pid: child.pid ?? -1,
        done,
        release: () => {
          if (child.exitCode === null && child.stdin.writable) child.stdin.end('release\n');
          return done;
        },
      });
    });
    done.then(
      () => reject(new Error('lock holder exited before taking the lock')),
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
