// Applying the server's session list changes (`hermes/sessionListChanged`) on the client side: one
// pure function and one small follower, shared by the VS Code client and the typed test client so
// both build the same full list from the same deltas. No vscode import, no Node API.
import type { ProfileDeltaDto, ProfileDto, SessionDto, SessionListChange, SessionListDelta, SessionListResult } from './protocol';

export function isDelta(change: SessionListChange): change is SessionListDelta {
  return typeof (change as Partial<SessionListDelta>).base === 'number';
}

/**
 * The list after `change`: a full list as it is, a delta applied to `current`. Undefined when the
 * delta does not apply (`current` is not at its base revision, or the profiles differ): the client
 * then asks for the full list. `current` is not modified; unchanged sessions are shared.
 */
export function applySessionListChange(current: SessionListResult | undefined, change: SessionListChange): SessionListResult | undefined {
  if (!isDelta(change)) return change;
  if (!current || current.revision !== change.base) return undefined;
  if (current.profiles.length !== change.profiles.length) return undefined;
  if (change.profiles.some((p, i) => p.name !== current.profiles[i]!.name)) return undefined;
  return {
    revision: change.revision,
    home: change.home,
    problem: change.problem,
    profiles: change.profiles.map((delta, i) => applyProfileDelta(current.profiles[i]!, delta)),
  };
}

function applyProfileDelta(before: ProfileDto, delta: ProfileDeltaDto): ProfileDto {
  const { changed, removed, ...summary } = delta;
  if (changed.length === 0 && removed.length === 0) return { ...summary, sessions: before.sessions };
  const gone = new Set(removed);
  const updates = new Map(changed.map((s) => [s.id, s]));
  const sessions: SessionDto[] = [];
  for (const s of before.sessions) {
    if (gone.has(s.id)) continue;
    const update = updates.get(s.id);
    updates.delete(s.id);
    sessions.push(update ?? s);
  }
  // What is left was not in the list before: added sessions (order carries no meaning).
  sessions.push(...updates.values());
  return { ...summary, sessions };
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
