// Hermes' writer discipline (docs/HERMES-HOMES.md): a short BEGIN IMMEDIATE transaction; SQLite's busy timeout
// waits inside each attempt, and a few jittered retries ride out a writer that holds the lock a
// little longer. A failed attempt leaves nothing behind: the body runs only once the lock is held,
// and any error inside it rolls back.
import type { SqliteConnection } from './connection';

export interface RetryPolicy {
  /** Attempts at BEGIN IMMEDIATE, each waiting up to the connection's busy timeout. */
  readonly attempts: number;
  /** Random pause between attempts, so two waiting writers do not collide again. */
  readonly minJitterMs: number;
  readonly maxJitterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, minJitterMs: 50, maxJitterMs: 250 };

export function runImmediate<T>(db: SqliteConnection, body: () => T, overrides: Partial<RetryPolicy> = {}): T {
  const policy = { ...DEFAULT_RETRY, ...overrides };
  for (let attempt = 1; ; attempt++) {
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (!isBusy(error) || attempt >= policy.attempts) throw error;
      pause(policy.minJitterMs + Math.random() * (policy.maxJitterMs - policy.minJitterMs));
      continue;
    }
    try {
      const result = body();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      try {
        db.exec('ROLLBACK');
      } catch {
        /* SQLite already rolled back (e.g. after SQLITE_FULL); nothing else to undo */
      }
      throw error;
    }
  }
}

export function isBusy(error: unknown): boolean {
  const code = String((error as { code?: string }).code ?? '');
  const message = String((error as Error)?.message ?? '');
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || /database is locked|database is busy/i.test(message);
}

/** Blocks the thread briefly: the store is synchronous, like the binding under it. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
