// The sessions a client holds, as last sent, found by id for the next delta. The client's list
// keeps the order it was sent in (new sessions at its end), and re-evaluation keeps the sessions'
// order but for the few a Hermes write moves: each session is looked for near its position in the
// new report first (NearPosition), and a map by id is made only when that misses, and kept for the
// next delta while the list keeps its sessions. A save that changes 2,000 sessions builds no map
// and scans for no removed ids.
import { NearPosition } from '../hermes/engine/nearPosition';
import type { SessionReport } from '../hermes/engine/types';

export class SentSessions {
  private byId: Map<string, number> | undefined;
  /** Which sessions sent were found (1), by their index. */
  private readonly found: Uint8Array;
  private foundCount = 0;
  private readonly near: NearPosition;

  /** `byId`: the index of each session in `sessions`, when a delta before made it for the same list. */
  constructor(
    private readonly sessions: readonly SessionReport[],
    byId?: Map<string, number>,
  ) {
    this.found = new Uint8Array(sessions.length);
    this.near = new NearPosition(sessions);
    this.byId = byId;
  }

  /** The index of the sessions by id, if one was made or given (it holds for as long as the list keeps its sessions and order). */
  get index(): Map<string, number> | undefined {
    return this.byId;
  }

  /** Where the session `id` sits in the list sent (-1: not there), looked for at `position` (as shifted so far) first; each id is to be asked once. */
  indexOf(id: string, position: number): number {
    let at = this.near.indexOf(id, position);
    if (at < 0) at = this.map().get(id) ?? -1;
    if (at >= 0 && this.found[at] === 0) {
      this.found[at] = 1;
      this.foundCount += 1;
    }
    return at;
  }

  /** Whether every session sent was found (none was removed). */
  get allFound(): boolean {
    return this.foundCount === this.sessions.length;
  }

  /** Whether the session at `index` of the list sent was found. */
  wasFound(index: number): boolean {
    return this.found[index] === 1;
  }

  private map(): Map<string, number> {
    if (!this.byId) {
      this.byId = new Map();
      for (let i = 0; i < this.sessions.length; i++) this.byId.set(this.sessions[i]!.id, i);
    }
    return this.byId;
  }
}
