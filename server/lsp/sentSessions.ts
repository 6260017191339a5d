// The sessions of a report as last sent to the client, found by id for the next delta. Re-evaluation
// keeps the sessions' order (newest activity first), so each is looked for at its position in the
// new report first, shifted as the sessions before it shifted (a Hermes write moves one session to
// the top: those it passed are one further down), and a map by id is made only when that misses: a
// save that changes 2,000 sessions, or a write that moves one, builds no map and scans for no
// removed ids.
import type { SessionReport } from '../hermes/engine/types';

export class SentSessions {
  private byId: Map<string, SessionReport> | undefined;
  private found = 0;
  /** Where the last session found sat in the list sent, relative to its position now. */
  private shift = 0;

  constructor(private readonly sessions: readonly SessionReport[]) {}

  /** The session `id` as sent, looked for at `position` (as shifted so far) first; each id is to be asked once. */
  find(id: string, position: number): SessionReport | undefined {
    const shift = this.shift;
    const sent = this.at(id, position, shift) ?? this.at(id, position, shift - 1) ?? this.at(id, position, shift + 1) ?? this.map().get(id);
    if (sent) this.found += 1;
    return sent;
  }

  /** The session sent at `position + shift` if it is `id` (then later lookups start from `shift`). */
  private at(id: string, position: number, shift: number): SessionReport | undefined {
    const candidate = this.sessions[position + shift];
    if (candidate?.id !== id) return undefined;
    this.shift = shift;
    return candidate;
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
