// "Refresh when free": a refresh adopted while a session's prompt cache is warm re-writes the whole
// cached prefix; once the cache has expired the next turn pays that anyway, so a request recorded
// then adds only the prompt change. These are the rules of when each stale session's request is
// due, from what its report says now: the scheduler (refreshScheduler.ts) applies them.
import type { SessionState } from '../model';

/** What the rules need of a session's report. */
export interface SessionNow {
  readonly state: SessionState;
  /** Epoch seconds (last activity + TTL); undefined when Hermes recorded no activity (cold). */
  readonly cacheExpiresAt: number | undefined;
}

/** Why a scheduled request is no longer wanted. */
/** Why a waiting request is dropped: the session needs none any more, or the user cancelled it. */
export type CancelReason = 'fresh' | 'refreshed' | 'ended' | 'asked';

export type WhenFree =
  /** The cache is warm: wait until it expires (later than planned when the session was active again). */
  | { readonly kind: 'wait'; readonly dueAt: number }
  /** The cache has expired: record the request now. */
  | { readonly kind: 'due' }
  | { readonly kind: 'cancel'; readonly why: CancelReason };

/** What to do about a session's request when free, at `now` (epoch seconds); `session` undefined: it is gone. */
export function whenFree(session: SessionNow | undefined, now: number): WhenFree {
  if (!session || session.state === 'ended') return { kind: 'cancel', why: 'ended' };
  if (session.state === 'fresh') return { kind: 'cancel', why: 'fresh' };
  // A refresh requested by other means (pending), or its prompt cleared: nothing left to ask.
  if (session.state !== 'stale') return { kind: 'cancel', why: 'refreshed' };
  const expires = session.cacheExpiresAt;
  // As isCacheWarm: warm while now - last activity < TTL; unknown activity counts as cold.
  return expires !== undefined && now < expires ? { kind: 'wait', dueAt: expires } : { kind: 'due' };
}

export interface WhenFreePlan {
  /** Requests to wait for, each until its session's cache expires. */
  readonly waiting: ReadonlyArray<{ readonly sessionId: string; readonly dueAt: number }>;
  /** Sessions whose cache has expired already: their requests are free now. */
  readonly dueNow: readonly string[];
  /** Sessions with nothing to wait for (not stale, ended). */
  readonly skipped: ReadonlyArray<{ readonly sessionId: string; readonly why: CancelReason }>;
}

/** The rules applied to each of `sessionIds` (each once) at `now`. */
export function planWhenFree(sessions: ReadonlyMap<string, SessionNow>, sessionIds: readonly string[], now: number): WhenFreePlan {
  const waiting: Array<{ sessionId: string; dueAt: number }> = [];
  const dueNow: string[] = [];
  const skipped: Array<{ sessionId: string; why: CancelReason }> = [];
  for (const sessionId of new Set(sessionIds)) {
    const verdict = whenFree(sessions.get(sessionId), now);
    if (verdict.kind === 'cancel') skipped.push({ sessionId, why: verdict.why });
    else if (verdict.kind === 'due') dueNow.push(sessionId);
    else waiting.push({ sessionId, dueAt: verdict.dueAt });
  }
  waiting.sort((a, b) => a.dueAt - b.dueAt);
  return { waiting, dueNow, skipped };
}

/** How the CLI and the views say why an entry went. */
export const CANCEL_WORDS: Readonly<Record<CancelReason, string>> = {
  fresh: 'it is current again',
  refreshed: 'it was refreshed by other means',
  ended: 'it ended',
  asked: 'cancelled on request',
};
