// Watches the files that feed the prompt and each profile's state.db. fs.watch (inotify) never
// opens the database file, so SQLite's POSIX locks held by this process are not disturbed
// (FACTS §2). Bursts of events are coalesced: the first change of a quiet spell is reported after a
// few milliseconds (the events of one write arrive together), later ones at most once per window,
// so one save or one Hermes turn re-evaluates once, and a busy writer at most once per window.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface WatchEvents {
  /** Instruction files changed (absolute paths). */
  onSourcesChanged(paths: string[]): void;
  /** A state.db (or its WAL) changed, by profile directory. */
  onDatabaseChanged(profileDirs: string[]): void;
}

const DB_FILES = new Set(['state.db', 'state.db-wal']);

export class SourceWatcher {
  private watchers = new Map<string, fs.FSWatcher>();
  private pendingSources = new Set<string>();
  private pendingDbs = new Set<string>();
  /** Size and mtime of state.db and its WAL per profile dir, as last reported. */
  private dbSignatures = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  /** Until when (epoch ms) a new change waits for the window to end instead of being reported at once. */
  private quietUntil = 0;

  constructor(
    private readonly events: WatchEvents,
    private readonly debounceMs = 150,
    /** How long the events of one write take to arrive. */
    private readonly settleMs = 8,
  ) {}

  /** Replaces the watched set: profile directories (with their skills and memories) and project dirs. */
  update(profileDirs: readonly string[], projectDirs: readonly string[]): void {
    const wanted = new Map<string, { recursive: boolean; profileDir?: string }>();
    for (const dir of profileDirs) {
      if (!this.dbSignatures.has(dir)) this.dbSignatures.set(dir, databaseSignature(dir));
      wanted.set(dir, { recursive: false, profileDir: dir });
      wanted.set(path.join(dir, 'memories'), { recursive: false });
      wanted.set(path.join(dir, 'skills'), { recursive: true });
    }
    for (const dir of projectDirs) {
      if (!wanted.has(dir)) wanted.set(dir, { recursive: false });
      wanted.set(path.join(dir, '.cursor', 'rules'), { recursive: false });
    }
    for (const [dir, watcher] of this.watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    for (const [dir, how] of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = fs.watch(dir, { recursive: how.recursive, persistent: false }, (_event, name) => {
          if (!name) return;
          const file = path.join(dir, name.toString());
          if (how.profileDir && DB_FILES.has(path.basename(file))) this.pendingDbs.add(how.profileDir);
          else if (!file.endsWith('-shm') && !file.endsWith('-journal')) this.pendingSources.add(file);
          this.schedule();
        });
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, watcher);
      } catch {
        // A directory that does not exist yet (no skills/, no .cursor/rules) is simply not watched.
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
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.timer) return; // a report is already due and will carry this change too
    const now = Date.now();
    this.timer = setTimeout(() => this.flush(), now >= this.quietUntil ? this.settleMs : this.quietUntil - now);
  }

  private flush(): void {
    this.timer = undefined;
    const sources = [...this.pendingSources];
    // Opening a WAL database (our own reads, a read-only `hermes-lens status`) raises events on
    // state.db-wal without changing it; only a real change in size or mtime is a Hermes write.
    const dbs = [...this.pendingDbs].filter((dir) => {
      const signature = databaseSignature(dir);
      if (this.dbSignatures.get(dir) === signature) return false;
      this.dbSignatures.set(dir, signature);
      return true;
    });
    this.pendingSources.clear();
    this.pendingDbs.clear();
    try {
      if (dbs.length) this.events.onDatabaseChanged(dbs);
      if (sources.length) this.events.onSourcesChanged(sources);
    } finally {
      // The window starts when the re-evaluation is done: between two, the server stays free for requests.
      this.quietUntil = Date.now() + this.debounceMs;
    }
  }
}

/** stat() only: the database file is never opened here (FACTS §2, POSIX locks are per process). */
function databaseSignature(profileDir: string): string {
  return [...DB_FILES]
    .map((name) => {
      try {
        const stat = fs.statSync(path.join(profileDir, name));
        return `${stat.size}@${stat.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}
