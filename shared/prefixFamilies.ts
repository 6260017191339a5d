// Prefix families on the wire: `hermes-lens prefixes --json` writes this shape and the language
// server answers `hermes/prefixFamilies` with it (docs/PROTOCOL.md). Types and method names only.
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

export type BreakpointName = 'tools' | 'stable' | 'system';

export interface PrefixFamilyDto {
  /** `<breakpoint>:<digest>`: the same for the same prefix from run to run. No prompt text. */
  id: string;
  breakpoint: BreakpointName;
  /** Whether Hermes places a cache marker here on these sessions' route; `implicit`: the provider caches prefixes by itself; `off`: caching is off. */
  marked: 'yes' | 'no' | 'implicit' | 'off';
  model: string;
  provider: string;
  /** Tokens of the prefix up to the breakpoint (the tools, then the system prompt's part). */
  tokens: number;
  tokensExact: boolean;
  /** UTF-8 bytes of the same; null when the tools' schemas were not measured. */
  bytes: number | null;
  homes: string[];
  profiles: string[];
  platforms: string[];
  sessions: number;
  /** The sessions, by profile (and home). */
  members: Array<{ home: string; profile: string; sessionId: string }>;
  /** A member's cache is warm now. */
  warm: boolean;
  /** Some member's tools are inferred from its platform, config and build (state.db names none). */
  toolsInferred: boolean;
  /** The family one breakpoint earlier holding this one; null for `tools`. */
  parent: string | null;
}

/** Where two families part, and why. */
export interface PartingPlaceDto {
  /** UTF-8 bytes into the prefix (the tools array, then the system prompt); null when the tools' sizes are unknown. */
  offset: number | null;
  /** Bytes into the system prompt, for a difference there. */
  systemOffset: number | null;
  /** False: the difference lies inside the tool whose JSON starts at `offset`. */
  exact: boolean;
  /** `tools`, or the prompt block there (`identity`, `active-profile`, `guidance`, …). */
  block: string;
  tier: 'tools' | 'stable' | 'context' | 'volatile';
  /** What differs: tools by name, `SOUL.md:4`, `Active Hermes profile line`, `Hermes: <heading>`… */
  source: string;
  reason: string;
  /** The user's own choice (another persona, a toolset turned off): said, not urged. */
  choice: boolean;
  /** What would take it away: `update-hermes`, or null. */
  fix: 'update-hermes' | null;
}

export interface PartingDto extends PartingPlaceDto {
  /** The two families (stable breakpoint). */
  a: string;
  b: string;
  /** For a parting in the tools: where the system prompts part past them; null when they do not. */
  then: PartingPlaceDto | null;
  /** Their stable tiers are byte-identical: what they would share with the same tools. */
  stableTierShared: boolean;
  sharedTokens: number;
  extraWritesPerDay: number;
  extraTokensPerDay: number;
  /** null: the model's prices are unknown. */
  extraUsdPerDay: number | null;
  /** What the fix alone saves a day: 0 where the tools still part them; null where there is no fix to speak of. */
  savingUsdPerDay: number | null;
}

export interface PrefixFamiliesDto {
  homes: string[];
  /** The requests the per-day figures come from: their first and last times (epoch seconds) and the days counted. */
  activity: { from: number | null; to: number | null; days: number };
  /** `tools` families first, then `stable`, then `system`; the most sessions first within each. */
  families: PrefixFamilyDto[];
  partings: PartingDto[];
}

/** client → server: the prefix families of the home's live sessions (worked out when first asked after a change). */
export const PrefixFamiliesRequest = new RequestType<Record<string, never>, PrefixFamiliesDto, void>('hermes/prefixFamilies');

/** server → client: the families may have changed (a Hermes write, a reload): ask again if they are shown. */
export const PrefixFamiliesChangedNotification = new NotificationType<{ revision: number }>('hermes/prefixFamiliesChanged');
