// What refreshing a session's system prompt costs on top of what its next turn costs anyway (docs/PROMPT-CACHING.md).
// Providers reuse only a byte-identical prefix (tools, system prompt, messages), so a new system prompt
// makes the next request write the whole conversation to the cache again instead of reading it:
//   warm cache:  extra ≈ P × (write − read) + ΔS × write
//   cold cache:  extra ≈ ΔS × write   (the next turn misses the cache anyway)
//   no caching:  extra ≈ ΔS × input   (`cache_ttl` off: every turn sends the whole prompt uncached)
// P is the prefix the next turn would have read, ΔS the growth of the system prompt (a shrink saves a
// little, which we do not count: the figure is meant as an upper bound to decide on, not an invoice).
import { pricesForPromptTokens, type ModelPrices } from './prices';
import { cacheWritePrice, NO_CACHE } from './ttl';
import type { Writable } from '../writable';

export interface RefreshCostInput {
  /** P: tokens of the cached prefix (tool schemas + system prompt + live transcript), in provider tokens. */
  readonly prefixTokens: number;
  /** ΔS: tokens the rebuilt system prompt adds (negative when it shrinks). */
  readonly systemPromptDeltaTokens: number;
  /** `sessions.last_activity_at` (epoch seconds); undefined when Hermes did not record it. */
  readonly lastActivityAt?: number;
  /** Now, epoch seconds. */
  readonly now: number;
  /** The session's cache lifetime (see cacheTtlSeconds); NO_CACHE when Hermes caches no prompt. */
  readonly ttlSeconds: number;
  /** Undefined when the model's prices are unknown: the money figures are then unknown too. */
  readonly prices?: ModelPrices;
  /** `sessions.billing_mode`. */
  readonly billingMode?: string;
}

export interface RefreshCost {
  /** The cache is still alive: a refresh now throws away cache reads the next turn would have made. */
  readonly warm: boolean;
  /** When the cache expires (epoch seconds), if the last activity is known. */
  readonly cacheExpiresAt: number | undefined;
  /** Extra cost of refreshing now, in $; undefined = unknown (no prices). */
  readonly extraUsd: number | undefined;
  /** Extra cost once the cache has expired (only ΔS × write): what waiting would bring it down to. */
  readonly coldUsd: number | undefined;
  /** Hermes' billing_mode is `subscription_included`: the figures are API-equivalents, not a bill. */
  readonly apiEquivalent: boolean;
}

const SUBSCRIPTION_INCLUDED = 'subscription_included';

/** The prices that apply to the refreshed request, when known. */
function requestPrices(input: RefreshCostInput, prefix: number, added: number): ModelPrices | undefined {
  // The request after a refresh carries P + ΔS tokens: long-context tiers apply to the whole request.
  return input.prices && pricesForPromptTokens(input.prices, prefix + added);
}

/** The figures alone: the engine costs thousands of sessions per evaluation and shows no sentence. */
export function estimateRefreshCost(input: RefreshCostInput): RefreshCost {
  const cost: Writable<RefreshCost> = { warm: false, cacheExpiresAt: undefined, extraUsd: undefined, coldUsd: undefined, apiEquivalent: false };
  refreshCostInto(cost, input);
  return cost;
}

/** estimateRefreshCost written into `cost`: one object for the thousands of sessions of an evaluation. */
export function refreshCostInto(cost: Writable<RefreshCost>, input: RefreshCostInput): void {
  const prefix = nonNegative(input.prefixTokens);
  const added = nonNegative(input.systemPromptDeltaTokens);
  const ttl = nonNegative(input.ttlSeconds);
  const warm = isCacheWarm(input.lastActivityAt, input.ttlSeconds, input.now);
  const cached = ttl !== NO_CACHE;
  cost.warm = warm;
  cost.cacheExpiresAt = cacheExpiresAt(input.lastActivityAt, input.ttlSeconds);
  cost.apiEquivalent = isApiEquivalent(input.billingMode);
  const prices = requestPrices(input, prefix, added);
  if (!prices) {
    cost.extraUsd = undefined;
    cost.coldUsd = undefined;
    return;
  }
  const write = (cached ? cacheWritePrice(prices, ttl) : prices.inputPerMTok) / 1e6;
  const read = prices.cacheReadPerMTok / 1e6;
  const coldUsd = added * write;
  const lost = prefix * Math.max(0, write - read);
  cost.extraUsd = warm ? lost + coldUsd : coldUsd;
  cost.coldUsd = coldUsd;
}

/** Hermes' `billing_mode` says the money figures are API-equivalents, not a bill. */
export function isApiEquivalent(billingMode: string | undefined): boolean {
  return (billingMode ?? '').trim().toLowerCase() === SUBSCRIPTION_INCLUDED;
}

/** When the provider's prompt cache of the last request expires (epoch seconds): undefined without its time, or without caching. */
export function cacheExpiresAt(lastActivityAt: number | undefined, ttlSeconds: number): number | undefined {
  const last = finite(lastActivityAt);
  const ttl = nonNegative(ttlSeconds);
  return last !== undefined && ttl !== NO_CACHE ? last + ttl : undefined;
}

/** Whether the provider's prompt cache is still alive at `now` (epoch seconds). */
export function isCacheWarm(lastActivityAt: number | undefined, ttlSeconds: number, now: number): boolean {
  const last = finite(lastActivityAt);
  // Unknown activity counts as cold: we cannot claim a cache is alive without evidence of a recent turn.
  return last !== undefined && now - last < nonNegative(ttlSeconds);
}

/**
 * `$0.84`; amounts under a cent keep two significant digits (`$0.0031`) so they do not read as zero;
 * `unknown` without an amount. `approximate` prefixes "≈" for estimates.
 */
export function formatUsd(amount: number | undefined, approximate = false): string {
  if (amount === undefined || !Number.isFinite(amount)) return 'unknown';
  const prefix = approximate ? '≈ ' : '';
  const sign = amount < 0 ? '-' : '';
  const value = Math.abs(amount);
  if (value > 0 && value < 0.0001) return `${sign ? '>-' : '<'}$0.0001`;
  const digits =
    value === 0
      ? '0.00'
      : value < 0.01
        ? trimZeros(value.toPrecision(2))
        : centsText(value);
  return `${prefix}${sign}$${digits}`;
}

// Cents as en-US writes them (`1,234.57`), without Intl: its first use in a process loads ICU's
// locale data (10–30 ms of a `hermes-lens status` here) for two decimals and thousands commas.
// Rounded as Intl rounds: half up on the number's shortest decimal form (0.345 → 0.35, where
// toFixed's exact binary value gives 0.34).
function centsText(value: number): string {
  const shortest = String(value);
  if (shortest.includes('e')) return value.toFixed(2); // past 1e21: never an amount of money
  const [whole, fraction = ''] = shortest.split('.');
  const digits = whole! + (fraction + '00').slice(0, 2);
  const cents = (fraction[2] ?? '0') >= '5' ? incremented(digits) : digits;
  return `${groupThousands(cents.slice(0, -2).replace(/^0+(?=\d)/, '') || '0')}.${cents.slice(-2)}`;
}

/** A decimal digit string plus one: `0999` → `1000`, `99` → `100`. */
function incremented(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  const zeros = '0'.repeat(digits.length - i - 1);
  return i < 0 ? `1${zeros}` : `${digits.slice(0, i)}${Number(digits[i]) + 1}${zeros}`;
}

/** `1234567` → `1,234,567` (a leading minus sign stays where it is). */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

function trimZeros(text: string): string {
  // toPrecision(2) of 0.003 is "0.0030": keep it as "0.003".
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

function nonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function finite(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}
