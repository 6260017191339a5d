// The SessionSource of the language server: a read connection kept open between evaluations of a
// profile, opened again when the file is replaced or Hermes migrates its schema. Nothing is read when no other connection committed since the last read (`PRAGMA
// data_version`: a save of SOUL.md). After a Hermes write there are two ways:
// - the full scan compares a digest of every column of every listed row with the last read and
//   reads again the rows that changed (a pass over all live sessions: ~10 ms for 2,000);
// - the touched scan reads again only the sessions that gained messages or were added since the
//   last read (the rows past the tables' last rowids: a Hermes turn appends its messages), which
//   costs a fraction of a millisecond. It misses a row changed without a message (a session
//   ended, renamed, restamped by hand), so it leaves the read marked `partial`: the language
//   server follows a burst of writes with a full scan once they settle.
import fs = require('node:fs');
import type { SessionRecord } from '../model';
import type { StampedSession, TableMarks } from '../store/sessionQueries';
import { StateStore } from '../store/stateStore';
import type { AnalysisCache } from './analysisCache';
import { countStoredPrompts, type SessionSource, type SessionsRead } from './sessionSource';

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

export class KeptConnection {
  /** What the kept connection read last. */
  lastRead: KeptRead | undefined;
  private kept: { store: StateStore; ino: number; dev: number; schemaVersion: number } | undefined;
  /** The count of sessions holding a stored prompt, and the data version it was counted at. */
  private counted: { dataVersion: number; count: number } | undefined;

  /**
   * This connection as the SessionSource of one evaluation: after another connection committed,
   * `scan` says how far the sessions are read again; with `deferCount` the stored-prompt count of the
   * last evaluation is reported (the language server publishes first, then brings it up to date with
   * `keptStoredPromptCount`). The first evaluation always counts.
   */
  reading(scan: SessionScan = 'full', deferCount = false): SessionSource {
    return {
      inlineAsBytes: false,
      keepsStore: true,
      open: (dbFile) => this.connection(dbFile),
      read: (store, includeEnded, cache) => this.read(store, includeEnded, cache, scan, deferCount),
      done: () => undefined,
      failed: () => this.close(),
    };
  }

  /**
   * The read connection kept between evaluations, opened again when the file was replaced (another
   * inode) or Hermes migrated its schema. stat() never opens the file.
   */
  connection(file: string): StateStore {
    const st = statOf(file);
    const kept = this.kept;
    if (kept && st && kept.store.file === file && kept.ino === st.ino && kept.dev === st.dev && kept.store.schemaVersion() === kept.schemaVersion) return kept.store;
    this.close();
    // Throws the store's own explanation when the file is missing or unreadable.
    const store = StateStore.openReadOnly(file, 'kept');
    const opened = st ?? statOf(file);
    this.kept = { store, ino: opened?.ino ?? -1, dev: opened?.dev ?? -1, schemaVersion: store.schemaVersion() };
    return store;
  }

  close(): void {
    try {
      this.kept?.store.close();
    } catch {
      // already closed
    }
    this.kept = undefined;
    this.lastRead = undefined;
    this.counted = undefined;
  }

  /** Whether another connection committed since the last read through the kept connection (true before any). */
  hasUnreadCommits(): boolean {
    const kept = this.kept;
    if (!kept || !this.lastRead) return true;
    // A file replaced under the same name is another database (its commits never show here).
    const st = statOf(kept.store.file);
    if (!st || st.ino !== kept.ino || st.dev !== kept.dev) return true;
    try {
      return kept.store.dataVersion() !== this.lastRead.dataVersion;
    } catch {
      return true;
    }
  }

  /**
   * Sessions holding a stored prompt (over every session, ended ones too), counted again only when
   * another connection committed since the last count: it is an aggregate over the whole table.
   */
  storedPromptCount(store: StateStore): number {
    const version = store.dataVersion();
    if (this.counted?.dataVersion !== version) this.counted = { dataVersion: version, count: store.countStoredPromptSessions() };
    return this.counted.count;
  }

  /** `storedPromptCount` through the kept connection; undefined when none is open. */
  keptStoredPromptCount(): number | undefined {
    return this.kept ? this.storedPromptCount(this.kept.store) : undefined;
  }

  /** The sessions as of now, read again only as far as `scan` and the last read require. */
  private read(store: StateStore, includeEnded: boolean, cache: AnalysisCache, scan: SessionScan, deferCount: boolean): SessionsRead {
    const read = this.readKept(store, cache, includeEnded, scan);
    // A deferred count is brought up to date after the evaluation.
    const storedPromptSessions = includeEnded ? countStoredPrompts(read.listed) : ((deferCount ? this.counted?.count : undefined) ?? this.storedPromptCount(store));
    return { listed: read.listed, storedPromptSessions, meta: read.meta, partial: read.partial, recordOf: (id) => read.byId.get(id)?.record };
  }

  private readKept(store: StateStore, cache: AnalysisCache, includeEnded: boolean, scan: SessionScan): KeptRead {
    const version = store.dataVersion();
    const last = this.lastRead?.includeEnded === includeEnded ? this.lastRead : undefined;
    if (last && last.dataVersion === version && !(scan === 'full' && last.partial)) return last;
    const read = last && scan === 'touched' ? readTouched(store, cache, last, version) : readAll(store, cache, last, version, includeEnded);
    this.lastRead = read;
    return read;
  }
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

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}
