// The report as plain JSON (undefined → null), one shape for `hermes-lens status --json` and the
// language server's session list, so both always say the same thing.
import type { ProfileReport, SessionReport } from './types';

export function sessionJson(s: SessionReport) {
  return {
    profile: s.profile,
    id: s.id,
    title: s.title ?? null,
    source: s.source ?? null,
    model: s.model ?? null,
    provider: s.provider ?? null,
    state: s.state,
    reasons: s.reasons.map((r) => ({ source: r.source, path: r.path, change: r.change, detail: r.detail })),
    tipSessionId: s.tipSessionId ?? null,
    lastActivityAt: s.lastActivityAt ?? null,
    requestedEpoch: s.requestedEpoch,
    stampedEpoch: s.stampedEpoch,
    systemPromptTokens: s.systemPromptTokens,
    prefixTokens: s.prefixTokens,
    tokensExact: s.tokensExact,
    deltaTokens: s.deltaTokens,
    ttlSeconds: s.ttlSeconds,
    cacheWarm: s.cacheWarm,
    cacheExpiresAt: s.cacheExpiresAt ?? null,
    refreshCostUsd: s.refreshCostUsd ?? null,
    refreshCostColdUsd: s.refreshCostColdUsd ?? null,
    apiEquivalent: s.apiEquivalent,
  };
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
    totals: { ...r.totals },
  };
}

export function profileJson(r: ProfileReport) {
  return { ...profileSummaryJson(r), sessions: r.sessions.map(sessionJson) };
}

export type SessionJson = ReturnType<typeof sessionJson>;
export type ProfileJson = ReturnType<typeof profileJson>;
