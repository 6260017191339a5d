// The report as plain JSON (undefined → null), one shape for `hermes-lens status --json` and the
// language server's session list, so both always say the same thing.
import type { StaleReason } from '../model';
import type { ProfileReport, SessionReport } from './types';

/**
 * The one definition of a session's JSON: which report field each JSON field is made of. Given
 * `sent`, a report whose JSON a client already holds, each field whose JSON value would not change
 * is left undefined (JSON.stringify leaves such a field out), so the language server's patches
 * (server/lsp/dto.ts) compare the report fields themselves instead of two JSON objects; without
 * `sent` every field is set. One object literal either way: a full list is built as fast as a
 * plain literal would build it (adding fields one by one to an object is several times slower).
 */
export function sessionJsonFields(s: SessionReport, sent?: SessionReport) {
  return {
    profile: sent && sameJsonValue(sent.profile, s.profile) ? undefined : s.profile,
    id: s.id,
    title: sent && sameJsonValue(sent.title, s.title) ? undefined : s.title ?? null,
    source: sent && sameJsonValue(sent.source, s.source) ? undefined : s.source ?? null,
    model: sent && sameJsonValue(sent.model, s.model) ? undefined : s.model ?? null,
    provider: sent && sameJsonValue(sent.provider, s.provider) ? undefined : s.provider ?? null,
    state: sent && sameJsonValue(sent.state, s.state) ? undefined : s.state,
    reasons: sent && sameReasons(sent.reasons, s.reasons) ? undefined : s.reasons.map(reasonJson),
    tipSessionId: sent && sameJsonValue(sent.tipSessionId, s.tipSessionId) ? undefined : s.tipSessionId ?? null,
    lastActivityAt: sent && sameJsonValue(sent.lastActivityAt, s.lastActivityAt) ? undefined : s.lastActivityAt ?? null,
    requestedEpoch: sent && sameJsonValue(sent.requestedEpoch, s.requestedEpoch) ? undefined : s.requestedEpoch,
    stampedEpoch: sent && sameJsonValue(sent.stampedEpoch, s.stampedEpoch) ? undefined : s.stampedEpoch,
    systemPromptTokens: sent && sameJsonValue(sent.systemPromptTokens, s.systemPromptTokens) ? undefined : s.systemPromptTokens,
    prefixTokens: sent && sameJsonValue(sent.prefixTokens, s.prefixTokens) ? undefined : s.prefixTokens,
    tokensExact: sent && sameJsonValue(sent.tokensExact, s.tokensExact) ? undefined : s.tokensExact,
    deltaTokens: sent && sameJsonValue(sent.deltaTokens, s.deltaTokens) ? undefined : s.deltaTokens,
    ttlSeconds: sent && sameJsonValue(sent.ttlSeconds, s.ttlSeconds) ? undefined : s.ttlSeconds,
    cacheWarm: sent && sameJsonValue(sent.cacheWarm, s.cacheWarm) ? undefined : s.cacheWarm,
    cacheExpiresAt: sent && sameJsonValue(sent.cacheExpiresAt, s.cacheExpiresAt) ? undefined : s.cacheExpiresAt ?? null,
    refreshCostUsd: sent && sameJsonValue(usdJson(sent.refreshCostUsd), usdJson(s.refreshCostUsd)) ? undefined : usdJson(s.refreshCostUsd),
    refreshCostColdUsd: sent && sameJsonValue(usdJson(sent.refreshCostColdUsd), usdJson(s.refreshCostColdUsd)) ? undefined : usdJson(s.refreshCostColdUsd),
    apiEquivalent: sent && sameJsonValue(sent.apiEquivalent, s.apiEquivalent) ? undefined : s.apiEquivalent,
  };
}

type SessionJsonFields = ReturnType<typeof sessionJsonFields>;
export type SessionJson = { -readonly [K in keyof SessionJsonFields]-?: Exclude<SessionJsonFields[K], undefined> };

export function sessionJson(s: SessionReport): SessionJson {
  // Without a report sent before, no field is left undefined.
  return sessionJsonFields(s) as SessionJson;
}

/**
 * Dollars in JSON: to a hundred-millionth (float noise such as 0.12276200000000001 is neither
 * information nor free to send 2,000 times per save); null when unknown.
 */
export function usdJson(amount: number | undefined): number | null {
  return amount === undefined ? null : Math.round(amount * 1e8) / 1e8;
}

/** The same value once in JSON: undefined and null are both null, and so is NaN (numbers compare by value). */
function sameJsonValue(a: unknown, b: unknown): boolean {
  return a === b || (a == null && b == null) || (a !== a && b !== b);
}

function reasonJson(r: StaleReason) {
  return { source: r.source, path: r.path, change: r.change, detail: r.detail };
}

/**
 * Reasons with the same JSON. Usually the very same array (the staleness verdict of a prompt is
 * kept while its sources do not change, engine/analysisCache.ts); else compared reason by reason,
 * field by field: a reason's JSON carries every field it has (reasonJson).
 */
function sameReasons(a: readonly StaleReason[], b: readonly StaleReason[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    for (const key in x) if (x[key as keyof StaleReason] !== y[key as keyof StaleReason]) return false;
  }
  return true;
}

/** A profile without its sessions (for updates that carry only the sessions that changed). */
export function profileSummaryJson(r: ProfileReport) {
  return {
    name: r.name,
    home: r.home,
    dbFile: r.dbFile,
    active: r.isActive,
    unavailable: r.unavailable ?? null,
    storedPromptSessions: r.storedPromptSessions,
    requestedEpoch: r.requestedEpoch,
    problems: [...r.problems],
    totals: { ...r.totals, staleRefreshCostUsd: usdJson(r.totals.staleRefreshCostUsd) ?? 0 },
  };
}

export function profileJson(r: ProfileReport) {
  return { ...profileSummaryJson(r), sessions: r.sessions.map(sessionJson) };
}

export type ProfileJson = ReturnType<typeof profileJson>;
