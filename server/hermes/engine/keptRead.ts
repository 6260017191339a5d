// Reading a profile's sessions through the connection the language server keeps open between
// evaluations. Nothing is read when no other connection committed since the last read (`PRAGMA
// data_version`: a save of SOUL.md). After a Hermes write there are two ways:
// - the full scan compares a digest of every column of every listed row with the last read and
//   reads again the rows that changed (a pass over all live sessions: ~10 ms for 2,000);
// - the touched scan reads again only the sessions that gained messages or were added since the
//   last read (the rows past the tables' last rowids: a Hermes turn appends its messages), which
//   costs a fraction of a millisecond. It misses a row changed without a message (a session
//   ended, renamed, restamped by hand), so it leaves the read marked `partial`: the language
//   server follows a burst of writes with a full scan once they settle.
import type { SessionRecord } from '../model';
import type { StampedSession, StateStore, TableMarks } from '../store/stateStore';
import type { AnalysisCache } from './analysisCache';

export type SessionScan = 'full' | 'touched';

export interface KeptRead {
  readonly dataVersion: number;
  readonly includeEnded: boolean;
  /** The listed sessions in byActivity order, each with the digest of its row. */
  readonly sessions: readonly StampedSession[];
  /** The sessions by id (a touched scan updates the last read's map in place). */
  readonly byId: ReadonlyMap<string, StampedSession>;
  readonly listed: readonly SessionRecord[];
  readonly meta: ReadonlyMap<string, string>;
  /** Where the tables ended when this was read: the touched scan reads past them. */
  readonly marks: TableMarks;
  /** Read by a touched scan: rows changed without a message may not show until a full scan. */
  readonly partial: boolean;
}

/** The sessions as of now, read again only as far as `scan` and the last read require. */
export function readKept(store: StateStore, cache: AnalysisCache, includeEnded: boolean, scan: SessionScan): KeptRead {
  const version = store.dataVersion();
  const last = cache.lastRead?.includeEnded === includeEnded ? cache.lastRead : undefined;
  if (last && last.dataVersion === version && !(scan === 'full' && last.partial)) return last;
  const read = last && scan === 'touched' ? readTouched(store, cache, last, version) : readAll(store, cache, last, version, includeEnded);
  cache.lastRead = read;
  return read;
}

function readAll(store: StateStore, cache: AnalysisCache, last: KeptRead | undefined, version: number, includeEnded: boolean): KeptRead {
  // The marks first: a write landing during the scan is then found by the next touched scan.
  const marks = store.tableMarks();
  const sessions = store.listSessionsSince(last?.byId ?? new Map(), { includeEnded });
  const meta = store.stateMeta();
  cache.promptsMayHaveChanged();
  // No row changed: the same list, so nothing derived from it is worked out again.
  if (last && sessions.length === last.sessions.length && sessions.every((s, i) => s === last.sessions[i])) {
    return { ...last, dataVersion: version, meta, marks, partial: false };
  }
  return { dataVersion: version, includeEnded, sessions, byId: new Map(sessions.map((s) => [s.record.id, s])), listed: sessions.map((s) => s.record), meta, marks, partial: false };
}

function readTouched(store: StateStore, cache: AnalysisCache, last: KeptRead, version: number): KeptRead {
  const touched = store.touchedSince(last.marks);
  const meta = store.stateMeta();
  if (touched.ids.size === 0) return { ...last, dataVersion: version, meta, marks: touched.marks, partial: true };
  cache.promptsMayHaveChanged(touched.ids);
  const sessions = store.listTouchedSessions(last.sessions, touched.ids, { includeEnded: last.includeEnded });
  // The last read is left behind: its map is brought up to date in place.
  const byId = last.byId as Map<string, StampedSession>;
  for (const id of touched.ids) byId.delete(id);
  for (const s of sessions) if (touched.ids.has(s.record.id)) byId.set(s.record.id, s);
  return { dataVersion: version, includeEnded: last.includeEnded, sessions, byId, listed: sessions.map((s) => s.record), meta, marks: touched.marks, partial: true };
}
