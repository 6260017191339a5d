// Where a compacted conversation continues (docs/HERMES-HOMES.md, "When Hermes builds a session's
// prompt again"). Default compaction keeps the session id;
// older builds end the parent with end_reason='compression' and go on in a child.
import type { SessionRecord } from '../model';

const MAX_STEPS = 1000;
const LINEAGE_MARKERS = ['_branched_from', '_delegate_from', '_reset_from'] as const;

/** Follows compression children from `start` to the session that carries the conversation now. */
export function compactionTip(start: SessionRecord, all: readonly SessionRecord[]): SessionRecord {
  const children = new Map<string, SessionRecord[]>();
  for (const s of all) {
    if (!s.parentSessionId) continue;
    const list = children.get(s.parentSessionId) ?? [];
    list.push(s);
    children.set(s.parentSessionId, list);
  }
  const seen = new Set<string>([start.id]);
  let current = start;
  for (let step = 0; step < MAX_STEPS && current.endReason === 'compression'; step++) {
    const next = (children.get(current.id) ?? [])
      .filter((child) => isContinuation(child, current.id) && !seen.has(child.id))
      .sort(preferTip)[0];
    if (!next) break;
    seen.add(next.id);
    current = next;
  }
  return current;
}

/** A branch, delegation, reset or tool child is not where the conversation continues. */
function isContinuation(child: SessionRecord, parentId: string): boolean {
  if (child.source === 'tool') return false;
  return !LINEAGE_MARKERS.some((marker) => child.modelConfig[marker] === parentId);
}

/** Open first, then the most recent activity, then started_at, then id (all descending). */
function preferTip(a: SessionRecord, b: SessionRecord): number {
  const open = Number(b.endedAt === undefined) - Number(a.endedAt === undefined);
  if (open !== 0) return open;
  const activity = (b.lastActivityAt ?? -Infinity) - (a.lastActivityAt ?? -Infinity);
  if (activity !== 0 && !Number.isNaN(activity)) return activity;
  const started = (b.startedAt ?? -Infinity) - (a.startedAt ?? -Infinity);
  if (started !== 0 && !Number.isNaN(started)) return started;
  return b.id < a.id ? -1 : b.id > a.id ? 1 : 0;
}
