// Which stale sessions the user has already been told about, so a save can say how many it made
// stale. The file watcher often sees the write before the editor's didSave arrives and re-evaluates
// first; comparing with "just before the save" would then find nothing new. So the baseline moves
// forward only on saves, and shrinks when sessions stop being stale (a relapse counts as new).
export type StaleSets = ReadonlyMap<string, ReadonlySet<string>>;

export class StaleBaseline {
  private known = new Map<string, Set<string>>();

  /** A fresh start (settings changed): everything stale now is already known. */
  reset(current: StaleSets): void {
    this.known = new Map([...current].map(([profile, ids]) => [profile, new Set(ids)]));
  }

  /** After any re-evaluation: forget sessions that are no longer stale. */
  settle(current: StaleSets): void {
    for (const [profile, ids] of this.known) {
      const now = current.get(profile);
      for (const id of ids) if (!now?.has(id)) ids.delete(id);
    }
  }

  /** On a save: sessions stale now that were not known, per profile; they become known. */
  takeNew(current: StaleSets): Map<string, string[]> {
    const fresh = new Map<string, string[]>();
    for (const [profile, ids] of current) {
      const known = this.known.get(profile) ?? new Set<string>();
      const added = [...ids].filter((id) => !known.has(id));
      if (added.length) fresh.set(profile, added);
      this.known.set(profile, new Set(ids));
    }
    return fresh;
  }
}
