// Applying the server's session list changes (`hermes/sessionListChanged`) on the client side: one
// pure function and one small follower, shared by the VS Code client and the typed test client so
// both build the same full list from the same deltas. No vscode import, no Node API.
import type { ProfileDeltaDto, ProfileDto, SessionDto, SessionListChange, SessionListDelta, SessionListResult, SessionPatchField } from './protocol';

export function isDelta(change: SessionListChange): change is SessionListDelta {
  return typeof (change as Partial<SessionListDelta>).base === 'number';
}

/**
 * The list after `change`: a full list as it is, a delta applied to `current`. Undefined when the
 * delta does not apply (`current` is not at its base revision, the profiles differ, or a patch
 * names a position `current` does not have): the client then asks for the full list. `current` is
 * not modified; unchanged sessions are shared. The sessions held keep their order, those removed
 * are taken out, and new ones go at the end: the order the server's patch positions follow.
 */
export function applySessionListChange(current: SessionListResult | undefined, change: SessionListChange): SessionListResult | undefined {
  if (!isDelta(change)) return change;
  if (!current || current.revision !== change.base) return undefined;
  if (current.profiles.length !== change.profiles.length) return undefined;
  if (change.profiles.some((p, i) => p.name !== current.profiles[i]!.name)) return undefined;
  const profiles: ProfileDto[] = [];
  for (const [i, delta] of change.profiles.entries()) {
    const profile = applyProfileDelta(current.profiles[i]!, delta);
    if (!profile) return undefined;
    profiles.push(profile);
  }
  return { revision: change.revision, home: change.home, problem: change.problem, profiles };
}

function applyProfileDelta(before: ProfileDto, delta: ProfileDeltaDto): ProfileDto | undefined {
  const { changed, patched, removed, ...summary } = delta;
  if (changed.length === 0 && patched.length === 0 && removed.length === 0) return { ...summary, sessions: before.sessions };
  const gone = new Set(removed);
  const sessions = gone.size === 0 ? before.sessions.slice() : before.sessions.filter((s) => !gone.has(s.id));
  for (const { fields, at, values } of patched) {
    let i = 0;
    for (let run = 0; run < at.length; run += 2) {
      const first = at[run]!;
      const end = first + at[run + 1]!;
      // A position this list does not have: not the list the server diffed.
      if (!Number.isInteger(first) || !Number.isInteger(end) || first < 0 || end > sessions.length || end < first) return undefined;
      for (let p = first; p < end; p++, i++) {
        // A new object for a changed session: views compare sessions by identity.
        const session = copyOf(sessions[p]!);
        for (let f = 0; f < fields.length; f++) (session as Record<SessionPatchField, unknown>)[fields[f]!] = values[f]![i];
        sessions[p] = session;
      }
    }
    if (at.length % 2 !== 0 || values.some((column) => column.length !== i)) return undefined;
  }
  if (changed.length > 0) {
    const positions = new Map<string, number>();
    for (let i = 0; i < sessions.length; i++) positions.set(sessions[i]!.id, i);
    for (const whole of changed) {
      const at = positions.get(whole.id);
      // A session not held is new, and goes at the end; one held is replaced where it is.
      if (at === undefined) sessions.push(whole);
      else sessions[at] = whole;
    }
  }
  return { ...summary, sessions };
}

/**
 * A copy of a session, written out field by field: every copy has the one shape of this literal,
 * whatever the shape of the one held (parsed from JSON, or itself a copy). A spread (`{ ...held }`)
 * copies the shape of its source, and over a few deltas the shapes multiply until V8 copies and
 * patches each session the slow, generic way (more than twice as slow for 2,000 sessions).
 */
function copyOf(s: SessionDto): SessionDto {
  return {
    profile: s.profile,
    id: s.id,
    title: s.title,
    source: s.source,
    model: s.model,
    provider: s.provider,
    state: s.state,
    reasons: s.reasons,
    otherBuild: s.otherBuild,
    tipSessionId: s.tipSessionId,
    lastActivityAt: s.lastActivityAt,
    requestedEpoch: s.requestedEpoch,
    stampedEpoch: s.stampedEpoch,
    unadoptableRequest: s.unadoptableRequest,
    adoption: s.adoption,
    systemPromptTokens: s.systemPromptTokens,
    toolTokens: s.toolTokens,
    prefixTokens: s.prefixTokens,
    tokensExact: s.tokensExact,
    deltaTokens: s.deltaTokens,
    ttlSeconds: s.ttlSeconds,
    cacheWarm: s.cacheWarm,
    cacheExpiresAt: s.cacheExpiresAt,
    refreshCostUsd: s.refreshCostUsd,
    refreshCostColdUsd: s.refreshCostColdUsd,
    apiEquivalent: s.apiEquivalent,
  };
}

/**
 * A client's copy of the list: applies each change, and when one does not apply fetches the full
 * list once (`fetchFull`, which hands it back through `replace` and reports its own errors) however
 * many changes miss meanwhile: the server answers the request after every change it sent before it,
 * so the answer covers them.
 */
export class SessionListFollower {
  private current: SessionListResult | undefined;
  private fetching: Promise<unknown> | undefined;

  constructor(private readonly fetchFull: () => Promise<unknown>) {}

  get list(): SessionListResult | undefined {
    return this.current;
  }

  /** The list after `change`, or undefined when it did not apply (the full list is on its way). */
  receive(change: SessionListChange): SessionListResult | undefined {
    const next = applySessionListChange(this.current, change);
    if (next) return (this.current = next);
    this.fetching ??= this.fetchFull()
      .catch(() => undefined)
      .finally(() => (this.fetching = undefined));
    return undefined;
  }

  /** A full list fetched by request. */
  replace(list: SessionListResult): void {
    this.current = list;
  }
}
