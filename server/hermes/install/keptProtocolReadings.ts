// What an installation's Python sources showed of the refresh protocol, kept so that the next
// command (a fresh `hermes-lens` process) and the language server's next detection stat the files
// instead of reading them again: a fork's `hermes_cli` holds megabytes. Kept in memory, and in the
// lens's cache folder (`protocol-readings-v1/`, a file per installation, mode 0600): the conclusion
// (the clue, the key names, the files they came from, the lens's own notes) and what stat() said
// of every folder listed and file looked at (recordingFs.ts), never a line of Hermes' code. A
// reading is used again only while every one of those stats says the same; one that saw a file
// change in its last seconds is not written to disk (RACY_MS: the next change could share its times).
import { createHash } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import { writeCacheFile } from '../cacheFiles';
import { lensCacheFolder, processCacheEnv } from '../cacheFolder';
import { diskFs } from '../fs/diskFs';
import { RACY_MS, readsStillHold, RecordingFs, type PackedReads } from '../fs/recordingFs';
import type { SourceFs } from '../fs/sourceFs';
import type { ProtocolClue, ProtocolReading } from './protocolReading';

const FOLDER = 'protocol-readings-v1';
const FORMAT = 1;

interface Kept {
  readonly reading: ProtocolReading;
  readonly reads: PackedReads;
}

export interface KeptProtocolReadingsOptions {
  /** The cache folder (undefined: none, memory only); the lens's own by default. */
  readonly cacheDir?: () => string | undefined;
  /** What the sources are read and stat()ed through (the disk). */
  readonly fs?: SourceFs;
  /** The clock of the racy check: tests that write sources and read them at once pass a later one. */
  readonly nowMs?: () => number;
}

export class KeptProtocolReadings {
  private readonly inMemory = new Map<string, Kept>();
  private readonly cacheDir: () => string | undefined;
  private readonly fs: SourceFs;
  private readonly nowMs: () => number;

  constructor(options: KeptProtocolReadingsOptions = {}) {
    this.cacheDir = options.cacheDir ?? (() => lensCacheFolder(processCacheEnv()));
    this.fs = options.fs ?? diskFs;
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** The kept reading of the installation at `root` while its files are the same, else `read`'s (through a recording fs), kept. */
  reading(root: string, read: (fs: SourceFs) => ProtocolReading): ProtocolReading {
    const last = this.inMemory.get(root) ?? this.fromDisk(root);
    if (last && readsStillHold(last.reads, this.fs)) {
      this.inMemory.set(root, last);
      return last.reading;
    }
    const recording = new RecordingFs(this.fs, true);
    const reading = read(recording);
    const kept = { reading, reads: recording.pack() };
    this.inMemory.set(root, kept);
    if (recording.newestChangeMs <= this.nowMs() - RACY_MS) this.toDisk(root, kept);
    return reading;
  }

  private fileOf(root: string): string | undefined {
    const dir = this.cacheDir();
    return dir && path.join(dir, FOLDER, `${createHash('sha256').update(root).digest('base64url').slice(0, 24)}.json`);
  }

  private fromDisk(root: string): Kept | undefined {
    const file = this.fileOf(root);
    if (!file) return undefined;
    try {
      const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      return isKeptFile(kept) && kept.root === root ? { reading: readingOf(kept.reading), reads: kept.reads } : undefined;
    } catch {
      return undefined; // none yet, or damaged: read the sources
    }
  }

  private toDisk(root: string, kept: Kept): void {
    const file = this.fileOf(root);
    if (!file) return;
    try {
      writeCacheFile(file, JSON.stringify({ format: FORMAT, root, reading: kept.reading, reads: kept.reads }));
    } catch {
      // A read-only or full disk: the next command reads the sources again.
    }
  }
}

const CLUES: ReadonlySet<unknown> = new Set<ProtocolClue>(['cli-text', 'help-text', 'module', 'none']);

function isKeptFile(value: unknown): value is { root: string; reading: ProtocolReading; reads: PackedReads } {
  if (!isObject(value) || value.format !== FORMAT || typeof value.root !== 'string') return false;
  const { reading, reads } = value;
  return isObject(reads) && typeof reads.paths === 'string' && typeof reads.seen === 'string' && isObject(reading) && isReading(reading);
}

function isReading(r: Record<string, unknown>): boolean {
  const optionalText = (v: unknown) => v === undefined || typeof v === 'string';
  const texts = (v: unknown) => Array.isArray(v) && v.every((t) => typeof t === 'string');
  return (
    CLUES.has(r.clue) &&
    ['file', 'requestKey', 'sessionKeyPrefix', 'stampKey', 'requestKeyFile', 'stampKeyFile'].every((k) => optionalText(r[k])) &&
    texts(r.keyFiles) &&
    texts(r.notes) &&
    Array.isArray(r.unreadable) &&
    r.unreadable.every((u) => isObject(u) && typeof u.file === 'string' && typeof u.code === 'string')
  );
}

/** A reading as read from its file, with every field (JSON leaves out those undefined) in ProtocolReading's order. */
function readingOf(r: ProtocolReading): ProtocolReading {
  return {
    clue: r.clue,
    file: r.file,
    requestKey: r.requestKey,
    sessionKeyPrefix: r.sessionKeyPrefix,
    stampKey: r.stampKey,
    requestKeyFile: r.requestKeyFile,
    stampKeyFile: r.stampKeyFile,
    keyFiles: r.keyFiles,
    notes: r.notes,
    unreadable: r.unreadable.map((u) => ({ file: u.file, code: u.code })),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
