// Applying the server's session list changes (`hermes/sessionListChanged`) on the client side: one
// pure function and one small follower, shared by the VS Code client and the typed test client so
// both build the same full list from the same deltas. No vscode import, no Node API.
import type { ProfileDeltaDto, ProfileDto, SessionDto, SessionListChange, SessionListDelta, SessionListResult } from './protocol';

export function isDelta(change: SessionListChange): change is SessionListDelta {
  return typeof (change as Partial<SessionListDelta>).base === 'number';
}

/**
 * The list after `change`: a full list as it is, a delta applied to `current`. Undefined when the
 * delta does not apply (`current` is not at its base revision, the profiles differ, or a patch is
 * for a session `current` does not hold): the client then asks for the full list. `current` is not
 * modified; unchanged sessions are shared.
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
  const wholes = new Map(changed.map((s) => [s.id, s]));
  const patches = new Map(patched.map((p) => [p.id, p]));
  const sessions: SessionDto[] = [];
  for (const held of before.sessions) {
    if (gone.has(held.id)) continue;
    const whole = wholes.get(held.id);
    const patch = patches.get(held.id);
    wholes.delete(held.id);
    patches.delete(held.id);
    sessions.push(whole ?? (patch ? { ...held, ...patch } : held));
  }
  // A patch left over is for a session this list does not hold: not the list the server diffed.
  if (patches.size > 0) return undefined;
  // Whole sessions left over were not in the list before: added ones (order carries no meaning).
  sessions.push(...wholes.values());
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
