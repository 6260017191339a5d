// Which stale sessions the user has already been told about, so a save can say how many it made
// stale. The file watcher often sees the write before the editor's didSave arrives and re-evaluates
// first; comparing with "just before the save" would then find nothing new. So the baseline moves
// forward only on saves, and shrinks when sessions stop being stale (a relapse counts as new).
//
// It follows the profiles' session lists as the model has them, without a set of stale ids made
// per re-evaluation: in the usual case (the same sessions stale as before) a pass over the list
// changes nothing and allocates nothing.

/** What the baseline reads of a session. */
export interface SessionStaleness {
  readonly id: string;
  readonly state: string;
}

/** Each profile's sessions, by profile name. */
export type ProfileSessions = ReadonlyMap<string, readonly SessionStaleness[]>;

export class StaleBaseline {
  private known = new Map<string, Set<string>>();

  /** A fresh start (settings changed): everything stale now is already known. */
  reset(current: ProfileSessions): void {
    this.known = new Map();
    for (const [profile, sessions] of current) this.known.set(profile, new Set(staleIdsOf(sessions)));
  }

  /** After any re-evaluation: forget sessions that are no longer stale. */
  settle(current: ProfileSessions): void {
    for (const [profile, ids] of this.known) this.follow(ids, current.get(profile) ?? [], undefined);
  }

  /** On a save: sessions stale now that were not known, per profile; they become known. */
  takeNew(current: ProfileSessions): Map<string, string[]> {
    const fresh = new Map<string, string[]>();
    for (const [profile, sessions] of current) {
      let known = this.known.get(profile);
      if (!known) this.known.set(profile, (known = new Set()));
      const added: string[] = [];
      this.follow(known, sessions, added);
      if (added.length) fresh.set(profile, added);
    }
    return fresh;
  }

  /**
   * Makes `known` the ids of the stale `sessions`: each that stopped being stale is forgotten, and
   * each new one is added (and listed in `added`) when `added` is given.
   */
  private follow(known: Set<string>, sessions: readonly SessionStaleness[], added: string[] | undefined): void {
    let stale = 0;
    for (const s of sessions) {
      if (s.state !== 'stale') {
        known.delete(s.id);
        continue;
      }
      stale += 1;
      if (added && !known.has(s.id)) {
        known.add(s.id);
        added.push(s.id);
      }
    }
    // Known ids of sessions no longer listed at all (ended, deleted): dropped, so they count again should they come back.
    if (known.size <= stale) return;
    const now = new Set(staleIdsOf(sessions));
    for (const id of known) if (!now.has(id)) known.delete(id);
  }
}

function staleIdsOf(sessions: readonly SessionStaleness[]): string[] {
  return sessions.filter((s) => s.state === 'stale').map((s) => s.id);
}
