// What a split costs, from the sessions' own requests: replayed against one cache entry per family
// and against one shared entry, a request writes the prefix when no request of its entry came within
// the TTL before it (a hit keeps an entry alive for another TTL). The writes the split adds are those
// the shared entry would have served warm; each costs the shared prefix at the write price instead
// of the read price, at the prices of the session that sent it.
import { pricesForPromptTokens } from '../cost/prices';
import { cacheWritePrice } from '../cost/ttl';
import type { PrefixMember } from './types';

export interface RequestTimes {
  /** A member's request times, epoch seconds, ascending. */
  of(member: PrefixMember): readonly number[] | undefined;
}

export interface SplitCost {
  /** Over the activity span given. */
  readonly extraWrites: number;
  readonly extraTokens: number;
  /** undefined when a writing session's prices are unknown. */
  readonly extraUsd: number | undefined;
}

interface Request {
  readonly t: number;
  readonly side: 0 | 1;
  readonly member: PrefixMember;
}

/** `tokens`: the prefix the two sides would share once one entry serves them both. */
export function splitCost(sideA: readonly PrefixMember[], sideB: readonly PrefixMember[], times: RequestTimes, tokens: number): SplitCost {
  const requests: Request[] = [];
  for (const [side, members] of [[0, sideA], [1, sideB]] as const) {
    for (const member of members) for (const t of times.of(member) ?? []) requests.push({ t, side, member });
  }
  requests.sort((x, y) => x.t - y.t);
  // The last request of each side, and of either (the shared entry).
  const last: [number, number] = [-Infinity, -Infinity];
  let lastShared = -Infinity;
  let extraWrites = 0;
  let extraUsd: number | undefined = 0;
  for (const { t, side, member } of requests) {
    const ttl = member.report.ttlSeconds;
    // Caching off: nothing is kept, shared or not.
    if (ttl <= 0) continue;
    const writesSplit = t - last[side] > ttl;
    const writesShared = t - lastShared > ttl;
    if (writesSplit && !writesShared) {
      extraWrites++;
      const prices = member.prices && pricesForPromptTokens(member.prices, tokens);
      if (!prices) extraUsd = undefined;
      else if (extraUsd !== undefined) extraUsd += (tokens * Math.max(0, cacheWritePrice(prices, ttl) - prices.cacheReadPerMTok)) / 1e6;
    }
    last[side] = t;
    lastShared = t;
  }
  return { extraWrites, extraTokens: extraWrites * tokens, extraUsd };
}
