// Whether a session took up a refresh request, told from what Hermes writes anyway: a turn (more
// messages, a later `last_activity_at`), the stored prompt (its identity), `model_config` (the
// stamp). A watch starts when the request is made (or first seen) with the session as it was
// then, and is decided by the first turn after it (docs/HERMES-INSTALLS.md §6):
// - adopted: the stamp in use reached the epoch;
// - adopted, stamp unread: another `model_config` key took the epoch's value (it is learned), or
//   the prompt was rebuilt and no key the lens can tell took it;
// - not adopted: a turn, the very same prompt, and no stamp moved. Told only on a full read: a
//   turn's writes land in several commits, and the rebuild's comes first.
// Pending is what it means: requested, and no turn yet.
import type { SessionRecord } from '../model';
import { parseEpoch, stampedEpoch, type RefreshKeys } from './epochs';

export type AdoptionState = 'pending' | 'adopted' | 'adopted-stamp-unread' | 'not-adopted';

/** Hermes' token counters of a session at one read. */
export interface TokenCounters {
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** A session as adoption tracking reads it, at one read. */
export interface TurnMark {
  readonly messages: number;
  readonly lastActivityAt: number | null;
  /** The stored prompt's identity (a hash), null when the session holds none or it cannot be told. */
  readonly prompt: string | null;
  /** The epoch stamped under the key in use. */
  readonly stamp: number;
  /** Null where the database has no such counters. */
  readonly counters: TokenCounters | null;
}

/** What the lens predicted the refresh would cost this session when it was requested. */
export interface PredictedCost {
  /** Extra cost of the rebuild (USD); null when the model's prices are unknown. */
  readonly costUsd: number | null;
  /** The cached prefix the rebuild writes again (system prompt, tools, transcript). */
  readonly prefixTokens: number;
  readonly cacheWarm: boolean;
}

/** One session's watch of one request. A new object whenever anything in it changes. */
export interface AdoptionWatch {
  readonly sessionId: string;
  readonly epoch: number;
  /** When the lens recorded the request (epoch seconds); null for one it found in state_meta, whose time no row tells. */
  readonly requestedAt: number | null;
  /** `lens`: the lens recorded it; `seen`: found in state_meta (Hermes' own command, another tool). */
  readonly by: 'lens' | 'seen';
  /** The session at the last read before its turn. */
  readonly before: TurnMark;
  /** `model_config` keys that held the epoch's value already then: not a stamp moving. */
  readonly atEpochBefore: readonly string[];
  readonly predicted: PredictedCost | null;
  readonly state: AdoptionState;
  /** The first read after the turn that decided it (while pending: the turn seen, waiting for a full read). */
  readonly after: TurnMark | null;
  /** When the lens decided it (epoch seconds). */
  readonly decidedAt: number | null;
  /** The `model_config` key that took the epoch: the one in use (adopted), or the one learned (adopted, stamp unread). */
  readonly stampKey: string | null;
  /** What else the lens should say (several keys took the epoch's value, none did). */
  readonly note: string | null;
}

export function markOf(record: SessionRecord, keys: RefreshKeys, prompt: string | undefined): TurnMark {
  const counted = record.inputTokens !== undefined || record.cacheReadTokens !== undefined || record.cacheWriteTokens !== undefined;
  return {
    messages: record.messageCount ?? 0,
    lastActivityAt: record.lastActivityAt ?? null,
    prompt: prompt ?? null,
    stamp: stampedEpoch(record.modelConfig, keys),
    counters: counted ? { inputTokens: record.inputTokens ?? 0, cacheReadTokens: record.cacheReadTokens ?? 0, cacheWriteTokens: record.cacheWriteTokens ?? 0 } : null,
  };
}

/** A watch of the request of `epoch` for `record`, starting now. */
export function newWatch(
  record: SessionRecord,
  epoch: number,
  keys: RefreshKeys,
  prompt: string | undefined,
  at: number,
  by: AdoptionWatch['by'],
  predicted: PredictedCost | null,
): AdoptionWatch {
  return {
    sessionId: record.id,
    epoch,
    requestedAt: by === 'lens' ? at : null,
    by,
    before: markOf(record, keys, prompt),
    atEpochBefore: keysAtEpoch(record.modelConfig, epoch),
    predicted,
    state: 'pending',
    after: null,
    decidedAt: null,
    stampKey: null,
    note: null,
  };
}

/**
 * The watch once `record` was read again (`fullRead`: every row was, not only those a turn
 * touched); `watch` itself when that tells nothing new. A decided watch stays as it is.
 */
export function observe(watch: AdoptionWatch, record: SessionRecord, keys: RefreshKeys, prompt: string | undefined, fullRead: boolean, now: number): AdoptionWatch {
  const mark = markOf(record, keys, prompt);
  if (watch.state !== 'pending') {
    // Decided by the rebuild's commit before the turn's messages landed: the turn's own read is the one after it.
    return watch.after && !tookTurn(watch.before, watch.after) && tookTurn(watch.before, mark) ? { ...watch, after: mark } : watch;
  }
  const after = watch.after ?? (tookTurn(watch.before, mark) || mark.stamp >= watch.epoch || rebuilt(watch.before, mark) ? mark : null);
  if (mark.stamp >= watch.epoch) return decided(watch, 'adopted', after ?? mark, now, keys.stampKey, null);
  const moved = keysAtEpoch(record.modelConfig, watch.epoch).filter((k) => k !== keys.stampKey && !watch.atEpochBefore.includes(k));
  if (moved.length === 1) return decided(watch, 'adopted-stamp-unread', after ?? mark, now, moved[0]!, null);
  if (rebuilt(watch.before, mark)) {
    const note =
      moved.length > 1
        ? `several model_config keys took the epoch's value (${moved.join(', ')}), so none was learned`
        : "no model_config key took the epoch's value, so the stamp this build writes is not known";
    return decided(watch, 'adopted-stamp-unread', after ?? mark, now, null, note);
  }
  if (after === null) return watch;
  if (fullRead) return decided(watch, 'not-adopted', after, now, null, null);
  return watch.after === after ? watch : { ...watch, after };
}

function decided(watch: AdoptionWatch, state: AdoptionState, after: TurnMark, now: number, stampKey: string | null, note: string | null): AdoptionWatch {
  return { ...watch, state, after, decidedAt: now, stampKey, note };
}

function tookTurn(before: TurnMark, now: TurnMark): boolean {
  return now.messages > before.messages || (now.lastActivityAt ?? -Infinity) > (before.lastActivityAt ?? -Infinity);
}

/** The stored prompt is another one than at the request (both known). */
function rebuilt(before: TurnMark, now: TurnMark): boolean {
  return before.prompt !== null && now.prompt !== null && before.prompt !== now.prompt;
}

/** The `model_config` keys whose value is this epoch (an integer or its decimal text). */
function keysAtEpoch(modelConfig: Readonly<Record<string, unknown>>, epoch: number): string[] {
  const keys: string[] = [];
  for (const key in modelConfig) {
    const value = modelConfig[key];
    if ((typeof value === 'number' || typeof value === 'string') && parseEpoch(value) === epoch) keys.push(key);
  }
  return keys;
}

/** What Hermes recorded for the turn that decided the watch: the counters' change between the reads before and after it. */
export function recordedByHermes(watch: AdoptionWatch): TokenCounters | null {
  const before = watch.before.counters;
  const after = watch.state === 'pending' ? null : watch.after?.counters;
  if (!before || !after) return null;
  return {
    inputTokens: after.inputTokens - before.inputTokens,
    cacheReadTokens: after.cacheReadTokens - before.cacheReadTokens,
    cacheWriteTokens: after.cacheWriteTokens - before.cacheWriteTokens,
  };
}
