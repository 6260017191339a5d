// How long a session's prompt cache stays warm after its last request (docs/PROMPT-CACHING.md), and which write price
// that lifetime buys. Whether a refresh costs extra depends on it: inside the TTL the next turn would
// have read the cache, after it the next turn re-writes everything anyway.
import type { CacheTtlSetting } from '../profile/config';
import { AUTO_TTL_SECONDS, isMachinePacedSource } from './cacheRules';
import type { ModelPrices } from './prices';

const FIVE_MINUTES = 300;
/** The lifetime of a session's cache when Hermes caches no prompt (`cache_ttl` off). */
export const NO_CACHE = 0;
const ONE_HOUR = 3600;

/**
 * The cache lifetime in seconds for a session: `prompt_caching.cache_ttl` resolved like Hermes does
 * (`auto` = 1h where a person types, 5m for machine-paced sources; the source lists are in
 * cache-rules.json), raised to the provider's minimum when it keeps caches longer (OpenAI GPT-5.6+:
 * 30 minutes). 0 (NO_CACHE) when caching is off: Hermes marks no breakpoint, nothing is cached.
 */
export function cacheTtlSeconds(setting: CacheTtlSetting, source: string | undefined, prices?: ModelPrices): number {
  if (setting === 'off') return NO_CACHE;
  let ttl: number;
  if (setting === '1h') ttl = ONE_HOUR;
  else if (setting === 'auto') ttl = isMachinePacedSource(source) ? AUTO_TTL_SECONDS.machinePaced : AUTO_TTL_SECONDS.humanPaced;
  else ttl = FIVE_MINUTES; // '5m', Hermes' default, also for anything unexpected
  return Math.max(ttl, prices?.minTtlSeconds ?? 0);
}

/**
 * The cache write price ($ per million tokens) for a TTL. Providers sell two write tiers; a cache meant
 * to live longer than five minutes needs the 1-hour write (for providers without a premium both prices
 * are equal, so a minimum TTL such as OpenAI's 30 minutes changes nothing).
 */
export function cacheWritePrice(prices: ModelPrices, ttlSeconds: number): number {
  return ttlSeconds > FIVE_MINUTES ? prices.cacheWrite1hPerMTok : prices.cacheWrite5mPerMTok;
}
