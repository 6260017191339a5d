// What the engine reports: plain data for the CLI (--json), the language server and its views.
import type { ToolTableBasis } from '../anatomy/buildOfPrompt';
import type { SessionState, StaleReason, TierName } from '../model';
import type { AdoptionWatch } from '../refresh/adoption';
import type { AdoptionCounts } from '../refresh/adoptionLedger';

export interface SessionReport {
  readonly profile: string;
  readonly id: string;
  readonly title: string | undefined;
  readonly source: string | undefined;
  readonly model: string | undefined;
  readonly provider: string | undefined;
  readonly cwd: string | undefined;
  readonly state: SessionState;
  readonly reasons: readonly StaleReason[];
  /**
   * Set when another Hermes build wrote the stored prompt than the profile's newest session's: how
   * that shows. Not staleness (it counts in no stale total or cost): a refresh would also bring the
   * newer build's own text.
   */
  readonly otherBuild: string | undefined;
  /** For an ended session of a compacted chain: where the conversation continues. */
  readonly tipSessionId: string | undefined;
  readonly startedAt: number | undefined;
  readonly lastActivityAt: number | undefined;
  readonly endedAt: number | undefined;
  readonly requestedEpoch: number;
  readonly stampedEpoch: number;
  /**
   * A refresh was requested (requested epoch above the stamp) that the Hermes build serving the
   * home cannot adopt: the session is judged stale or fresh by its prompt, never pending.
   */
  readonly unadoptableRequest: boolean;
  /**
   * The watch of the session's latest refresh request: pending (no turn yet), adopted, adopted
   * with a stamp the lens did not read, or not adopted (refresh/adoption.ts). Undefined when none is watched.
   */
  readonly adoption: AdoptionWatch | undefined;
  /** Where the skills index sits in this session's stored prompt. */
  readonly skillsTier: TierName | undefined;
  /** Tokens of the stored system prompt, tool schemas and live transcript (P = their sum). */
  readonly systemPromptTokens: number;
  readonly toolTokens: number;
  /** Whose measured tool-schema sizes `toolTokens` takes, and of which tools (cost/toolSchemas.ts). */
  readonly toolTable: ToolTableUse;
  readonly transcriptTokens: number;
  readonly prefixTokens: number;
  /** False when a tokenizer is not public for the model: figures are "≈". */
  readonly tokensExact: boolean;
  /** Change in system prompt tokens a refresh would make (ΔS). */
  readonly deltaTokens: number;
  readonly ttlSeconds: number;
  readonly cacheWarm: boolean;
  /** Epoch seconds when the cache expires (then a refresh costs only ΔS × write). */
  readonly cacheExpiresAt: number | undefined;
  /** Extra cost of refreshing now, USD; undefined = unknown (model without prices). */
  readonly refreshCostUsd: number | undefined;
  /** What the refresh costs once the cache has expired. */
  readonly refreshCostColdUsd: number | undefined;
  /** `billing_mode = subscription_included`: the money figure is an API-equivalent. */
  readonly apiEquivalent: boolean;
  readonly pricesKnown: boolean;
}

export interface ProfileReport {
  readonly name: string;
  /** The profile directory. */
  readonly home: string;
  readonly dbFile: string;
  readonly isActive: boolean;
  /** Set when the profile cannot be read (postgres backend, missing or damaged state.db). */
  readonly unavailable: string | undefined;
  readonly storedPromptSessions: number;
  readonly requestedEpoch: number;
  /** The live sessions' watched refresh requests, by how each stands. */
  readonly adoption: AdoptionCounts;
  readonly sessions: readonly SessionReport[];
  /** Problems that did not stop the report (config.yaml errors, unreadable files). */
  readonly problems: readonly string[];
  readonly totals: {
    readonly sessions: number;
    readonly stale: number;
    readonly pending: number;
    readonly fresh: number;
    /** Sum of known refresh costs of stale sessions. */
    readonly staleRefreshCostUsd: number;
    /** Stale sessions whose cost is unknown. */
    readonly unknownCost: number;
  };
}

/** The tool-schema sizes a session's tool block is priced by. */
export interface ToolTableUse {
  /** The corpus build whose sizes they are (`v0.20.3-schema26`). */
  readonly build: string;
  /** `prompt`: the build its prompt's prose shows; `installed`: the installed build's version; `newest`: the newest release measured. */
  readonly by: ToolTableBasis;
  /** Whether state.db named the session's tools (`sessions.tool_names`); else the build's default list for its surface. */
  readonly recorded: boolean;
  /** The tools priced: those state.db names, or the build's default list (shared by the sessions of one list). */
  readonly names: readonly string[];
  readonly tools: number;
  /** Tools that build's table lacks (MCP tools, a newer build's), counted at its average: an estimate. */
  readonly estimated: number;
}
