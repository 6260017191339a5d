// Typed access to cache-rules.json: which cache-pricing family a model belongs to, how Hermes provider
// names map to price-library ids, and which session sources are machine-paced. The figures live in the
// JSON file (prices are data that changes, never constants in code: docs/PROMPT-CACHING.md); this
// module only looks them up.
import rulesJson from './cache-rules.json';

export interface CacheFamily {
  readonly id: string;
  /** 5-minute cache write price relative to uncached input, used when the price library has none. */
  readonly write5mMultiplier: number;
  /** 1-hour cache write price relative to uncached input, used when the price library has none. */
  readonly write1hMultiplier: number;
  /** Cache read price relative to uncached input, used when the price library has none. */
  readonly readMultiplier: number;
  /** The provider keeps a cache at least this long whatever Hermes asks for (OpenAI GPT-5.6+). */
  readonly minTtlSeconds?: number;
  /** Where the figures come from. */
  readonly source: string;
}

interface FamilyRule extends CacheFamily {
  readonly match: { readonly models?: string; readonly providers?: readonly string[] };
}

interface CacheRulesFile {
  readonly providerAliases: Readonly<Record<string, string>>;
  readonly aggregators: { readonly providers: readonly string[] };
  readonly autoTtl: {
    readonly machinePacedSources: readonly string[];
    readonly machinePacedTtlSeconds: number;
    readonly humanPacedTtlSeconds: number;
  };
  readonly families: readonly FamilyRule[];
}

// Assigning the JSON module to the interface makes tsc check the data file's shape at build time.
const RULES: CacheRulesFile = rulesJson;

const FAMILIES = RULES.families.map((rule) => ({
  rule,
  models: rule.match.models ? new RegExp(rule.match.models, 'i') : undefined,
  providers: new Set(rule.match.providers ?? []),
}));

const AGGREGATORS = new Set(RULES.aggregators.providers);
const MACHINE_PACED = new Set(RULES.autoTtl.machinePacedSources);

/** The price-library provider id for a Hermes provider name (`gemini` → `google`), lower-cased. */
export function priceProviderId(provider: string | undefined): string | undefined {
  const name = (provider ?? '').trim().toLowerCase();
  if (!name) return undefined;
  return Object.prototype.hasOwnProperty.call(RULES.providerAliases, name) ? RULES.providerAliases[name] : name;
}

/** Routers reselling other vendors' models: their price list is only a fallback. */
export function isAggregator(providerId: string | undefined): boolean {
  return providerId !== undefined && AGGREGATORS.has(providerId);
}

/**
 * The cache-pricing family of a model: the first family whose model pattern matches the bare model id,
 * or whose provider list holds one of `providerIds`. The model name wins over the route because a
 * model's cache pricing follows its vendor even when a router serves it.
 */
export function cacheFamilyFor(bareModel: string, providerIds: readonly (string | undefined)[]): CacheFamily {
  for (const family of FAMILIES) {
    if (family.models?.test(bareModel)) return family.rule;
  }
  for (const family of FAMILIES) {
    if (providerIds.some((id) => id !== undefined && family.providers.has(id))) return family.rule;
  }
  // The data file ends with a catch-all family (empty match); keep working even if someone removes it.
  const last = FAMILIES[FAMILIES.length - 1]?.rule;
  return last && !last.match.models && !last.match.providers
    ? last
    : { id: 'other', write5mMultiplier: 1, write1hMultiplier: 1, readMultiplier: 1, source: 'built-in fallback' };
}

/** True for session sources that Hermes' `auto` cache TTL treats as machine-paced. */
export function isMachinePacedSource(source: string | undefined): boolean {
  return MACHINE_PACED.has((source ?? '').trim().toLowerCase());
}

export const AUTO_TTL_SECONDS = {
  machinePaced: RULES.autoTtl.machinePacedTtlSeconds,
  humanPaced: RULES.autoTtl.humanPacedTtlSeconds,
} as const;
