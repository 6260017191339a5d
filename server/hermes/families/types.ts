// Prefix families: the live sessions of one or several homes grouped by the bytes of the cacheable
// prefix they send up to each cache breakpoint Hermes places (docs/PROMPT-CACHING.md, "Who shares a
// cache entry"). A provider reuses an entry only for a byte-identical prefix of the same model, so
// a family is one cache entry and every family more is another entry written. Keyed by digests:
// no prompt text is kept or shown.
import type { PrefixPrint } from '../anatomy/prefixPrint';
import type { ModelPrices } from '../cost/prices';
import type { SessionReport } from '../engine/types';
import type { BlockKind, TierName } from '../model';

/** The three places a prefix can end for the cache: after the tool schemas, after the stable tier, after the whole system prompt. */
export type Breakpoint = 'tools' | 'stable' | 'system';
export const BREAKPOINTS: readonly Breakpoint[] = ['tools', 'stable', 'system'];

/**
 * Where Hermes puts its cache markers on a session's route (cacheLayout.ts): the tools and the
 * stable tier (the direct Anthropic API), the stable tier and the whole system prompt (other
 * routes that take Anthropic-style markers), none (caching off), or a provider that caches the
 * longest prefix by itself without markers.
 */
export type CacheLayout = 'tools-and-stable' | 'stable-and-system' | 'implicit' | 'off';

/** The tools a session's requests carry before the system prompt. */
export interface MemberTools {
  /** In the order sent. */
  readonly names: readonly string[];
  /** Named by state.db (`sessions.tool_names`); else inferred from the platform, config and build. */
  readonly recorded: boolean;
  /** The Hermes build whose measured schemas size them, when known. */
  readonly build: string | undefined;
  readonly tokens: number;
  /** The tools array's JSON bytes, when the build's schemas were measured. */
  readonly bytes: number | undefined;
  /** One key per tool: its name, its schema's size in that build and, for a schema that names the profile's home, that home. */
  readonly keys: readonly string[];
  /** UTF-8 bytes of the array up to each tool's start (`[` and the `, ` separators counted), when measured. */
  readonly starts: readonly number[] | undefined;
  /** Tools whose schema names the profile's home (homeNamingTools.ts). */
  readonly namingHome: readonly string[];
  /** Digest of `keys`: two sessions with one digest send the same tools array. */
  readonly digest: string;
}

/** One live session as families see it. */
export interface PrefixMember {
  /** The Hermes root home. */
  readonly home: string;
  readonly profile: string;
  readonly profileDir: string;
  /** The session's report (its state, warmth and TTL move with it: reports are updated in place). */
  readonly report: SessionReport;
  /** `sessions.source` (`cli`, `telegram`, …); `unknown` when Hermes recorded none. */
  readonly platform: string;
  readonly model: string;
  readonly provider: string;
  readonly layout: CacheLayout;
  readonly tools: MemberTools;
  /** Model, provider and tools digest: what the `tools` family is keyed by (and every later one starts with). */
  readonly toolsKey: string;
  readonly print: PrefixPrint;
  /** The stored prompt's identity (its sha256): the whole system prompt. */
  readonly identity: string;
  readonly prices: ModelPrices | undefined;
}

export interface PrefixFamily {
  /** `<breakpoint>:<digest>`, the same from run to run for the same prefix. */
  readonly id: string;
  readonly breakpoint: Breakpoint;
  readonly model: string;
  readonly provider: string;
  /** Tokens of the prefix up to the breakpoint (the tools, then the system prompt's part). */
  readonly tokens: number;
  readonly tokensExact: boolean;
  /** UTF-8 bytes of the same, when the tools' schemas were measured. */
  readonly bytes: number | undefined;
  /** Whether Hermes places a cache marker here on these sessions' route ('implicit': the provider caches prefixes itself). */
  readonly marked: 'yes' | 'no' | 'implicit' | 'off';
  readonly members: readonly PrefixMember[];
  readonly homes: readonly string[];
  readonly profiles: readonly string[];
  readonly platforms: readonly string[];
  /** A member's cache is warm now: the entry is alive. */
  readonly warm: boolean;
  /** Some member's tools are inferred, not named by state.db. */
  readonly toolsInferred: boolean;
  /** The family one breakpoint earlier that holds this one (none for `tools`). */
  readonly parent: string | undefined;
}

/** Where in the prefix two families first differ. */
export type PartBlock = 'tools' | BlockKind;

/** What parts two families at one place of the prefix, in words (whyParted.ts). */
export interface PartingPlace {
  /** UTF-8 bytes into the prefix (the tools array's JSON, then the system prompt) where they first differ; undefined when the tools' sizes are unknown. */
  readonly offset: number | undefined;
  /** Bytes into the system prompt, for a difference there. */
  readonly systemOffset: number | undefined;
  /** Whether `offset` is the byte itself or the start of the tool whose schema differs. */
  readonly exact: boolean;
  readonly block: PartBlock;
  readonly tier: 'tools' | TierName;
  /** What differs: the tools (`skill_manage`), `SOUL.md:4`, `Active Hermes profile line`, a Hermes paragraph… */
  readonly source: string;
  readonly reason: string;
  /** The difference is the user's own choice (another persona, a toolset disabled): said, not urged. */
  readonly choice: boolean;
  /** What would take it away, if anything the user can do does. */
  readonly fix: 'update-hermes' | undefined;
}

export interface Parting extends PartingPlace {
  readonly a: string;
  readonly b: string;
  /** Past the tools, where the two system prompts differ (for a parting in the tools); undefined when they do not before the breakpoint. */
  readonly then: PartingPlace | undefined;
  /** The stable tiers are byte-identical: what they would share were their tools the same. */
  readonly stableTierShared: boolean;
  /** Tokens the fixed prefix would share: the stable prefix of the two. */
  readonly sharedTokens: number;
  readonly extraWritesPerDay: number;
  readonly extraTokensPerDay: number;
  /** undefined when the model's prices are unknown. */
  readonly extraUsdPerDay: number | undefined;
  /** What fixing `fix` alone would save a day (0 when the tools still part them). */
  readonly savingUsdPerDay: number | undefined;
}

export interface FamiliesReport {
  readonly homes: readonly string[];
  readonly families: readonly PrefixFamily[];
  readonly partings: readonly Parting[];
  /** The span of request activity the per-day figures come from (epoch seconds, days counted). */
  readonly activity: { readonly from: number | undefined; readonly to: number | undefined; readonly days: number };
}
