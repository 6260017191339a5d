// The sessions of a report as last sent to the client, found by id for the next delta. Re-evaluation
// keeps the sessions' order, so each is looked for at its position in the new report first, and a
// map by id is made only the first time that misses: a save that changes 2,000 sessions builds no
// map and scans for no removed ids.
import type { SessionReport } from '../hermes/engine/types';

export class SentSessions {
  private byId: Map<string, SessionReport> | undefined;
  private found = 0;

  constructor(private readonly sessions: readonly SessionReport[]) {}

  /** The session `id` as sent, looked for at `position` first; each id is to be asked once. */
  find(id: string, position: number): SessionReport | undefined {
    const atPosition = this.sessions[position];
    const sent = atPosition?.id === id ? atPosition : this.map().get(id);
    if (sent) this.found += 1;
    return sent;
  }

  /** Ids of the sessions sent that are not in `now`, once every session of `now` was looked up. */
  missingFrom(now: readonly SessionReport[]): string[] {
    // Ids are unique within a report: when every session sent was found, none is missing.
    if (this.found === this.sessions.length) return [];
    const ids = new Set(now.map((s) => s.id));
    return this.sessions.filter((s) => !ids.has(s.id)).map((s) => s.id);
  }

  private map(): Map<string, SessionReport> {
    if (!this.byId) {
      this.byId = new Map();
      for (const s of this.sessions) this.byId.set(s.id, s);
    }
    return this.byId;
  }
}
