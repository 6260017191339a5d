// Paragraph token counts remembered on disk, so a fresh process (each `hermes-lens status`, a
// restarted language server) neither loads the tokenizer and its 4 MB vocabulary nor
// tokenizes again the prompts it counted before. Stored prompts are immutable by content and shared
// by thousands of sessions, so their paragraphs come back run after run.
//
// The file holds a hash of each paragraph and its count, never text. It lives in the user's cache
// folder (`$HERMES_LENS_TOKEN_CACHE` names another folder, or `off` turns it off), never in a Hermes
// home. Any problem reading or writing it is ignored: the counts are then simply computed.
import { createHash } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import { writeCacheFile } from '../cacheFiles';
import { lensCacheFolder } from '../cacheFolder';

export interface StoredCount {
  readonly tokens: number;
  /** A long run was counted in slices (the count is not exact). */
  readonly sliced: boolean;
}

const FORMAT = 1;
const FILE_NAME = 'token-counts-v1.json';
/** About 2 MB on disk at most; the least recently used entries go first. */
const MAX_ENTRIES = 50_000;
/** A long-running process (the language server) writes new counts this long after the last one. */
const FLUSH_DELAY_MS = 3000;

interface FileShape {
  readonly format: number;
  readonly tokenizer: string;
  readonly entries: ReadonlyArray<readonly [key: string, tokens: number, sliced: 0 | 1]>;
}

// The stores with counts not yet written, flushed by one exit handler of the process: a process
// that runs many commands (the tests, each with its own cache folder) makes a store per folder.
const UNFLUSHED = new Set<TokenCountStore>();
let exitHooked = false;

export class TokenCountStore {
  private entries = new Map<string, StoredCount>();
  private loaded = false;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    /** Identifies the tokenizer: counts of another version are not reused. */
    private readonly tokenizer: string,
  ) {}

  /** The store of this process for `tokenizer`, or undefined when the disk cache is off. */
  static forProcess(tokenizer: string, env: NodeJS.ProcessEnv): TokenCountStore | undefined {
    const dir = lensCacheFolder(env);
    return dir ? new TokenCountStore(path.join(dir, FILE_NAME), tokenizer) : undefined;
  }

  static keyOf(text: string): string {
    return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 24);
  }

  get(key: string): StoredCount | undefined {
    this.load();
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, count: StoredCount): void {
    this.load();
    this.entries.set(key, count);
    this.dirty = true;
    this.scheduleFlush();
  }

  /** Writes new counts now (merged with what other processes wrote meanwhile). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    UNFLUSHED.delete(this);
    if (!this.dirty) return;
    this.dirty = false;
    try {
      const merged = new Map<string, StoredCount>();
      for (const [key, count] of this.readFile()) if (!this.entries.has(key)) merged.set(key, count);
      for (const [key, count] of this.entries) merged.set(key, count);
      const all = [...merged];
      const kept = all.slice(Math.max(0, all.length - MAX_ENTRIES));
      const shape: FileShape = { format: FORMAT, tokenizer: this.tokenizer, entries: kept.map(([k, c]) => [k, c.tokens, c.sliced ? 1 : 0] as const) };
      writeCacheFile(this.file, JSON.stringify(shape));
    } catch {
      // A read-only or full disk: the counts are computed again next time.
    }
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    for (const [key, count] of this.readFile()) this.entries.set(key, count);
  }

  private readFile(): Array<[string, StoredCount]> {
    try {
      const shape = JSON.parse(fs.readFileSync(this.file, 'utf8')) as FileShape;
      if (shape.format !== FORMAT || shape.tokenizer !== this.tokenizer || !Array.isArray(shape.entries)) return [];
      const out: Array<[string, StoredCount]> = [];
      for (const entry of shape.entries) {
        if (Array.isArray(entry) && typeof entry[0] === 'string' && Number.isSafeInteger(entry[1]) && entry[1] >= 0) {
          out.push([entry[0], { tokens: entry[1], sliced: entry[2] === 1 }]);
        }
      }
      return out;
    } catch {
      return [];
    }
  }

  private scheduleFlush(): void {
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', () => {
        for (const store of [...UNFLUSHED]) store.flush();
      });
    }
    UNFLUSHED.add(this);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), FLUSH_DELAY_MS);
    this.timer.unref?.();
  }
}
