// Watches the files that feed the prompt and each profile's state.db. fs.watch (inotify) never
// opens the database file, so SQLite's POSIX locks held by this process are not disturbed
// (docs/HERMES-HOMES.md).
// - Instruction files: bursts of events are coalesced: the first change of a quiet spell is
//   reported after a few milliseconds (the events of one save arrive together), later ones at most
//   once per window, so one save re-evaluates once.
// - state.db and its WAL: each event is reported at once (`onDatabaseChanged`; the listener asks
//   SQLite whether anything was committed, which costs microseconds) and again 2 ms and a few
//   milliseconds after the last event of a burst, since a commit becomes visible to readers just
//   after the writes that raise the events (most commits are seen by the 2 ms probe). When a
//   burst has been quiet for a window (or has gone on for a second), `onDatabaseSettled` follows,
//   for the work that can wait (a full scan).
import fs = require('node:fs');
import path = require('node:path');

export interface WatchEvents {
  /** Instruction files changed (absolute paths). */
  onSourcesChanged(paths: string[]): void;
  /** A state.db (or its WAL) may have changed, by profile directory. */
  onDatabaseChanged(profileDirs: string[]): void;
  /** The database events of these profiles have been quiet for a window (or went on for a second). */
  onDatabaseSettled(profileDirs: string[]): void;
}

/** A burst of database events is settled after this long at most. */
const DATABASE_SETTLE_MAX_MS = 1000;
/** The first probe after a burst's last event; the last is at `settleMs`. */
const FIRST_FOLLOW_UP_MS = 2;
/** How long a folder that could not be watched waits before it is tried again. */
const UNWATCHABLE_RETRY_MS = 2000;

const DB_FILES = new Set(['state.db', 'state.db-wal']);

export class SourceWatcher {
  private watchers = new Map<string, fs.FSWatcher>();
  private pendingSources = new Set<string>();
  /** Profile dirs with database events since the last settle. */
  private dbBurst = new Set<string>();
  private dbProbe: NodeJS.Immediate | undefined;
  private dbFollowUps: NodeJS.Timeout[] = [];
  private dbSettle: NodeJS.Timeout | undefined;
  /** When the burst being settled began (epoch ms). */
  private dbBurstStart = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Until when (epoch ms) a new change waits for the window to end instead of being reported at once. */
  private quietUntil = 0;
  /** Folders that could not be watched (most do not exist: no .cursor/rules), and when that was tried. */
  private unwatchable = new Set<string>();
  private unwatchableSince = 0;
  /** The folders of the last update that changed the watched set (update returns early for the same ones). */
  private lastUpdate: { readonly profileDirs: readonly string[]; readonly projectDirs: readonly string[]; readonly skillDirs: readonly string[] } = { profileDirs: [], projectDirs: [], skillDirs: [] };
  /** When database events are probed again after the last of a burst (ms). */
  private readonly followUpsMs: readonly number[];

  constructor(
    private readonly events: WatchEvents,
    private readonly debounceMs = 150,
    /** How long the events of one write take to arrive. */
    private readonly settleMs = 8,
  ) {
    this.followUpsMs = settleMs > FIRST_FOLLOW_UP_MS ? [FIRST_FOLLOW_UP_MS, settleMs] : [settleMs];
  }

  /**
   * Replaces the watched set: profile directories (with their skills and memories), project dirs,
   * and skills folders outside the profiles (`skills.external_dirs`).
   */
  update(profileDirs: readonly string[], projectDirs: readonly string[], skillDirs: readonly string[] = []): void {
    // Every re-evaluation updates: the same folders with no retry due change nothing.
    const retryDue = Date.now() - this.unwatchableSince > UNWATCHABLE_RETRY_MS && this.unwatchable.size > 0;
    const last = this.lastUpdate;
    if (!retryDue && sameItems(profileDirs, last.profileDirs) && sameItems(projectDirs, last.projectDirs) && sameItems(skillDirs, last.skillDirs)) return;
    this.lastUpdate = { profileDirs: [...profileDirs], projectDirs: [...projectDirs], skillDirs: [...skillDirs] };
    const wanted = new Map<string, { recursive: boolean; profileDir?: string }>();
    for (const dir of profileDirs) {
      wanted.set(dir, { recursive: false, profileDir: dir });
      wanted.set(path.join(dir, 'memories'), { recursive: false });
      wanted.set(path.join(dir, 'skills'), { recursive: true });
    }
    for (const dir of projectDirs) {
      if (!wanted.has(dir)) wanted.set(dir, { recursive: false });
      wanted.set(path.join(dir, '.cursor', 'rules'), { recursive: false });
    }
    for (const dir of skillDirs) wanted.set(dir, { recursive: true });
    for (const [dir, watcher] of this.watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    // Folders that could not be watched are tried again after a while, not on every update (each
    // re-evaluation updates, and a failing fs.watch costs a thrown error per folder).
    const now = Date.now();
    if (now - this.unwatchableSince > UNWATCHABLE_RETRY_MS) {
      this.unwatchable.clear();
      this.unwatchableSince = now;
    }
    for (const [dir, how] of wanted) {
      if (this.watchers.has(dir) || this.unwatchable.has(dir)) continue;
      // Most of these are folders that do not exist (a project without .cursor/rules): a stat says
      // so for far less than the error fs.watch would throw.
      if (!fs.existsSync(dir)) {
        this.unwatchable.add(dir);
        continue;
      }
      try {
        const watcher = fs.watch(dir, { recursive: how.recursive, persistent: false }, (_event, name) => {
          if (!name) return;
          const file = path.join(dir, name.toString());
          if (how.profileDir && DB_FILES.has(path.basename(file))) return this.databaseEvent(how.profileDir);
          if (file.endsWith('-shm') || file.endsWith('-journal')) return;
          this.pendingSources.add(file);
          this.schedule();
        });
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(dir);
          // The next update watches it again, whatever folders it names.
          this.lastUpdate = { profileDirs: [], projectDirs: [], skillDirs: [] };
        });
        this.watchers.set(dir, watcher);
      } catch {
        // A directory that does not exist yet (no skills/, no .cursor/rules) is simply not watched.
        this.unwatchable.add(dir);
      }
    }
  }

  /** Called by features that learn of a change first (didSave), to share the debounce. */
  notifySources(paths: string[]): void {
    for (const p of paths) this.pendingSources.add(p);
    this.schedule();
  }

  dispose(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    clearTimeout(this.timer);
    if (this.dbProbe) clearImmediate(this.dbProbe);
    this.dbFollowUps.forEach(clearTimeout);
    clearTimeout(this.dbSettle);
  }

  private databaseEvent(profileDir: string): void {
    const now = Date.now();
    if (this.dbBurst.size === 0) this.dbBurstStart = now;
    this.dbBurst.add(profileDir);
    // Events that arrive together are one probe.
    this.dbProbe ??= setImmediate(() => {
      this.dbProbe = undefined;
      this.reportDatabases('onDatabaseChanged');
    });
    this.dbFollowUps.forEach(clearTimeout);
    this.dbFollowUps = this.followUpsMs.map((ms) => setTimeout(() => this.reportDatabases('onDatabaseChanged'), ms));
    clearTimeout(this.dbSettle);
    const settleIn = Math.min(this.debounceMs, this.dbBurstStart + DATABASE_SETTLE_MAX_MS - now);
    this.dbSettle = setTimeout(() => {
      this.reportDatabases('onDatabaseSettled');
      this.dbBurst.clear();
    }, Math.max(0, settleIn));
  }

  private reportDatabases(event: 'onDatabaseChanged' | 'onDatabaseSettled'): void {
    if (this.dbBurst.size > 0) this.events[event]([...this.dbBurst]);
  }

  private schedule(): void {
    if (this.timer) return; // a report is already due and will carry this change too
    const now = Date.now();
    this.timer = setTimeout(() => this.flush(), now >= this.quietUntil ? this.settleMs : this.quietUntil - now);
  }

  private flush(): void {
    this.timer = undefined;
    const sources = [...this.pendingSources];
    this.pendingSources.clear();
    try {
      if (sources.length) this.events.onSourcesChanged(sources);
    } finally {
      // The window starts when the re-evaluation is done: between two, the server stays free for requests.
      this.quietUntil = Date.now() + this.debounceMs;
    }
  }
}

function sameItems(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
