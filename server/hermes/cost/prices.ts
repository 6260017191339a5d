// The three prompt-cache prices of a model (uncached input, cache read, cache write at 5 minutes and
// 1 hour), in $ per million tokens. They come from @pydantic/genai-prices, a maintained price list;
// cache-rules.json fills what the library leaves out (mostly the 1-hour write price and write premiums),
// and the user's override file wins over both. An unknown model gives undefined, never zero prices:
// a "$0.00" for a model we know nothing about would read as "free".
import fs = require('node:fs');
import path = require('node:path');
import type * as GenaiPrices from '@pydantic/genai-prices';
import { cacheFamilyFor, isAggregator, priceProviderId, type CacheFamily } from './cacheRules';
import { parseModelRef, type ModelRef } from './modelRef';
import { findOverride, type PriceOverrides } from './overrides';
import { answerHoldsUntil, PriceAnswerStore, type LibraryAnswer } from './priceAnswers';
import { processCacheEnv } from '../cacheFolder';

export { loadPriceOverrides, parsePriceOverrides, type PriceOverride, type PriceOverrides, type LoadedPriceOverrides } from './overrides';

/** Prices that replace the base ones for the whole request once the prompt is longer than `aboveTokens`. */
export interface LongContextPrices {
  readonly aboveTokens: number;
  readonly inputPerMTok: number;
  readonly cacheReadPerMTok: number;
  readonly cacheWrite5mPerMTok: number;
  readonly cacheWrite1hPerMTok: number;
}

export interface ModelPrices {
  /** The price list's model id (`claude-sonnet-4-5`), or the session's bare model id for an override. */
  readonly modelId: string;
  /** The price list's provider id (`anthropic`, `openrouter`), or the session's provider for an override. */
  readonly provider: string;
  readonly inputPerMTok: number;
  readonly cacheReadPerMTok: number;
  readonly cacheWrite5mPerMTok: number;
  readonly cacheWrite1hPerMTok: number;
  readonly origin: 'library' | 'override';
  /** The cache-rules.json family that supplied missing figures and cache lifetime limits. */
  readonly cacheFamily: string;
  /** The provider keeps the cache at least this long whatever Hermes asks for (OpenAI GPT-5.6+: 1800). */
  readonly minTtlSeconds?: number;
  /** Long-context tiers from the library, ascending (e.g. GPT-5.5 above 272K tokens bills 2× input). */
  readonly longContext?: readonly LongContextPrices[];
}

type ModelPrice = GenaiPrices.ModelPrice;
type PriceValue = ModelPrice[string];

let library: typeof GenaiPrices | undefined;

function priceLibrary(): typeof GenaiPrices {
  // Loaded on first use: the bundled price data is half a megabyte of JavaScript; commands that show
  // no money should not pay for evaluating it, nor runs whose answers are remembered (priceAnswers.ts).
  // A bundle of its own next to this one (genaiPrices.ts); the package's `require` export is its CJS build.
  library ??= require('./genaiPrices.js') as typeof GenaiPrices;
  return library;
}

/** Set by the build (scripts/build.mjs) to the bundled library's version. */
declare const __GENAI_PRICES_VERSION__: string | undefined;

/** The price library's version, known without loading it: the bundle has it built in, else its package.json. */
function libraryVersion(): string | undefined {
  if (typeof __GENAI_PRICES_VERSION__ === 'string') return __GENAI_PRICES_VERSION__;
  try {
    const main = require.resolve('@pydantic/genai-prices');
    const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')) as { name?: string; version?: string };
    return manifest.name === '@pydantic/genai-prices' && typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

let answerStore: PriceAnswerStore | null | undefined;
/** The environment `answerStore` was made for: a command run with another makes it again (cacheFolder.ts). */
let answerEnv: NodeJS.ProcessEnv | undefined;

function rememberedAnswers(): PriceAnswerStore | undefined {
  const env = processCacheEnv();
  if (answerStore === undefined || answerEnv !== env) {
    answerEnv = env;
    answerStore = PriceAnswerStore.forProcess(libraryVersion(), env) ?? null;
  }
  return answerStore ?? undefined;
}

// Library results per (model, provider): one session list asks for the same few models again and again.
const libraryCache = new Map<string, ModelPrices | null>();

export function lookupPrices(
  model: string | undefined,
  provider: string | undefined,
  overrides?: PriceOverrides,
): ModelPrices | undefined {
  const ref = parseModelRef(model);
  if (!ref) return undefined;
  const providerId = priceProviderId(provider);

  const override = findOverride(overrides, overrideNames(ref, providerId));
  if (override) {
    const family = cacheFamilyFor(ref.bare, [providerId, priceProviderId(ref.vendor)]);
    const input = override.input;
    const cacheWrite5m = override.cacheWrite5m ?? input * family.write5mMultiplier;
    return {
      modelId: ref.bare,
      provider: providerId ?? priceProviderId(ref.vendor) ?? family.id,
      inputPerMTok: input,
      cacheReadPerMTok: override.cacheRead ?? input * family.readMultiplier,
      cacheWrite5mPerMTok: cacheWrite5m,
      cacheWrite1hPerMTok: override.cacheWrite1h ?? Math.max(cacheWrite5m, input * family.write1hMultiplier),
      origin: 'override',
      cacheFamily: family.id,
      ...(family.minTtlSeconds ? { minTtlSeconds: family.minTtlSeconds } : {}),
    };
  }

  const key = `${ref.full}\u0000${providerId ?? ''}`;
  let cached = libraryCache.get(key);
  if (cached === undefined) {
    cached = lookupLibrary(ref, providerId) ?? null;
    libraryCache.set(key, cached);
  }
  return cached ?? undefined;
}

/**
 * The prices that apply to a request whose prompt is `promptTokens` long: providers with long-context
 * tiers bill the whole request at the higher rate once the prompt passes the threshold.
 */
export function pricesForPromptTokens(prices: ModelPrices, promptTokens: number): ModelPrices {
  let tier: LongContextPrices | undefined;
  for (const candidate of prices.longContext ?? []) {
    if (promptTokens > candidate.aboveTokens) tier = candidate;
  }
  if (!tier) return prices;
  return {
    ...prices,
    inputPerMTok: tier.inputPerMTok,
    cacheReadPerMTok: tier.cacheReadPerMTok,
    cacheWrite5mPerMTok: tier.cacheWrite5mPerMTok,
    cacheWrite1hPerMTok: tier.cacheWrite1hPerMTok,
  };
}

/** Names an override key may be written as: the stored name, the vendor id, and `provider/model`. */
function overrideNames(ref: ModelRef, providerId: string | undefined): string[] {
  const names = [ref.full, ref.bare];
  if (providerId) names.push(`${providerId}/${ref.bare}`);
  return names;
}

interface Attempt {
  readonly model: string;
  readonly providerId?: string;
}

/**
 * Where to look a model up, most specific first. A vendor's own list beats a router's (it carries the
 * 1-hour write price and tiers), except for router variants such as `:free`, priced only by the router.
 */
function attempts(ref: ModelRef, providerId: string | undefined): Attempt[] {
  const router = isAggregator(providerId) ? providerId : 'openrouter';
  const vendorId = priceProviderId(ref.vendor);
  const list: Attempt[] = [];
  if (ref.variant && ref.vendor) list.push({ model: ref.full, providerId: router });
  if (providerId && !isAggregator(providerId)) {
    list.push({ model: ref.bare, providerId });
    if (ref.full !== ref.bare) list.push({ model: ref.full, providerId });
  }
  if (vendorId && !isAggregator(vendorId)) list.push({ model: ref.bare, providerId: vendorId });
  list.push({ model: ref.bare }); // the library matches the provider from the model name
  if (ref.vendor || isAggregator(providerId)) list.push({ model: ref.full, providerId: router });
  const seen = new Set<string>();
  return list.filter((attempt) => {
    const key = `${attempt.model}\u0000${attempt.providerId ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function lookupLibrary(ref: ModelRef, providerId: string | undefined): ModelPrices | undefined {
  const now = Date.now();
  for (const attempt of attempts(ref, providerId)) {
    const answer = libraryAnswer(attempt, now);
    if (!answer) continue; // unknown there, or a malformed entry in the price data: try the next place
    const prices = fromLibrary(answer, ref, providerId);
    if (prices) return prices;
  }
  return undefined;
}

/** What the library answers for one attempt at `now`: remembered when it still holds, else asked. */
function libraryAnswer(attempt: Attempt, now: number): LibraryAnswer | null | undefined {
  const store = rememberedAnswers();
  const key = PriceAnswerStore.keyOf(attempt.model, attempt.providerId);
  const remembered = store?.get(key, now);
  if (remembered !== undefined) return remembered;
  const asked = askLibrary(attempt, now);
  if (!asked) return undefined;
  const until = asked.warned ? undefined : answerHoldsUntil(asked.result?.model, now);
  // Checked with the library: the same record just before the answer stops holding.
  if (store && until !== undefined && (until === Infinity || sameRecord(askLibrary(attempt, until - 1), asked))) {
    store.remember(key, asked.answer, until);
  }
  return asked.answer;
}

interface Asked {
  readonly result: GenaiPrices.PriceCalculation | null;
  readonly answer: LibraryAnswer | null;
  /** The library printed a warning: not remembered, so it prints it each run as before. */
  readonly warned: boolean;
}

function askLibrary(attempt: Attempt, at: number): Asked | undefined {
  const { calcPrice } = priceLibrary();
  const warn = console.warn;
  let warned = false;
  console.warn = (...args: unknown[]) => {
    warned = true;
    warn.apply(console, args);
  };
  try {
    // Empty usage: we only want the model's price record (resolved for `at`), not a bill.
    const result = calcPrice({}, attempt.model, { timestamp: new Date(at), ...(attempt.providerId ? { providerId: attempt.providerId } : {}) });
    const answer = result ? { modelId: result.model.id, providerId: result.provider.id, price: result.model_price } : null;
    return { result, answer, warned };
  } catch {
    return undefined; // malformed entry in the price data
  } finally {
    console.warn = warn;
  }
}

function sameRecord(a: Asked | undefined, b: Asked): boolean {
  return a !== undefined && JSON.stringify(a.answer) === JSON.stringify(b.answer);
}

function fromLibrary(answer: LibraryAnswer, ref: ModelRef, providerId: string | undefined): ModelPrices | undefined {
  const price = answer.price;
  const libraryModel = parseModelRef(answer.modelId)?.bare ?? ref.bare;
  const family = cacheFamilyFor(libraryModel, [answer.providerId, providerId, priceProviderId(ref.vendor)]);
  // OpenRouter lists its `:free` variants with an empty price record: free is a known price, not a gap.
  const free = ref.variant === 'free' && Object.keys(price).length === 0;
  const base = free ? FREE : priceSet(price, family, undefined);
  if (!base) return undefined; // e.g. an image or audio model without a token input price
  const longContext = tierStarts(price.input_mtok)
    .map((aboveTokens) => {
      const set = priceSet(price, family, aboveTokens);
      return set ? { aboveTokens, ...set } : undefined;
    })
    .filter((tier): tier is LongContextPrices => tier !== undefined);
  return {
    modelId: answer.modelId,
    provider: answer.providerId,
    ...base,
    origin: 'library',
    cacheFamily: family.id,
    ...(family.minTtlSeconds ? { minTtlSeconds: family.minTtlSeconds } : {}),
    ...(longContext.length > 0 ? { longContext } : {}),
  };
}

type PriceSet = Omit<LongContextPrices, 'aboveTokens'>;

const FREE: PriceSet = { inputPerMTok: 0, cacheReadPerMTok: 0, cacheWrite5mPerMTok: 0, cacheWrite1hPerMTok: 0 };

function priceSet(price: ModelPrice, family: CacheFamily, aboveTokens: number | undefined): PriceSet | undefined {
  const input = valueAt(price.input_mtok, aboveTokens);
  if (input === undefined) return undefined;
  const cacheWrite5m = valueAt(price.cache_write_mtok, aboveTokens) ?? input * family.write5mMultiplier;
  return {
    inputPerMTok: input,
    cacheReadPerMTok: valueAt(price.cache_read_mtok, aboveTokens) ?? input * family.readMultiplier,
    cacheWrite5mPerMTok: cacheWrite5m,
    // A 1-hour write never costs less than a 5-minute one: when only the 5-minute price is listed and the
    // family has no 1-hour premium (OpenAI GPT-5.6+, MiniMax), the 5-minute price is the write price.
    cacheWrite1hPerMTok: valueAt(price.cache_write_1h_mtok, aboveTokens) ?? Math.max(cacheWrite5m, input * family.write1hMultiplier),
  };
}

// Tiered prices arrive as plain `{ base, tiers }` objects from the bundled data (structurally TieredPrices).
type Tiered = GenaiPrices.TieredPrices;

function isTiered(value: PriceValue): value is Tiered {
  return typeof value === 'object' && value !== null && typeof value.base === 'number' && Array.isArray(value.tiers);
}

/** A price at a prompt size: the base price, or the last tier starting at or below `aboveTokens`. */
function valueAt(value: PriceValue, aboveTokens: number | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (!isTiered(value)) return undefined;
  let price = value.base;
  if (aboveTokens !== undefined) {
    for (const tier of [...value.tiers].sort((a, b) => a.start - b.start)) {
      if (tier.start <= aboveTokens) price = tier.price;
    }
  }
  return price;
}

function tierStarts(value: PriceValue): number[] {
  return isTiered(value) ? [...new Set(value.tiers.map((tier) => tier.start))].sort((a, b) => a - b) : [];
}
