// What `hermes-lens status` worked out of one state.db, kept on disk for the next run: each live
// session's transcript size (with the Hermes counters it was read at) and each stored prompt's
// verdict (its facts, staleness reasons and ΔS) with the digest of the sources it was judged
// against (judgingDigest.ts). A later run that finds the same counters and the same digest takes
// them as they are, so it neither reads the prompts and messages again nor parses and judges them:
// the sessions' own rows are all it reads (and, in the pre-v25 layout, each prompt's inline copy,
// which SQLite compares with one copy of the text an earlier run found it to hold).
//
// Verdicts are kept by prompt identity (AnalysisCache.knownIdentity: the sha256 of the text, for
// a prompt stored inline too), never by a key whose text may change, and no text of any prompt is
// kept: facts are numbers, reasons name files and skills as `status` prints them. The file
// lives in the lens's cache folder (lensCacheFolder: `HERMES_LENS_TOKEN_CACHE` names another, `off`
// turns it off), mode 0600, written whole to a temporary file and renamed; a file that cannot be
// read or written is ignored: the run then simply does the work.
import { createHash } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import { writeCacheFile } from '../cacheFiles';
import { lensCacheFolder, processCacheEnv } from '../cacheFolder';
import type { BlockKind, ChangeKind, SessionRecord, SourceKind, StaleReason, TierName, TranscriptSize } from '../model';
import type { PrefixPrint } from '../anatomy/prefixPrint';
import type { PackedReads } from '../fs/recordingFs';
import { APART_PARTS, type KeptReads } from './keptReads';
import { JUDGING_VERSION } from './judgingDigest';
import type { PromptVerdict } from './promptFacts';
import type { IdentityOpenings } from '../anatomy/identityOpenings';
import type { KeptBlock, KeptEntries, KeptParts } from './partsRejudge';

// 2: repeated strings (cwds, digests, prose fingerprints, reasons' paths) stored once, in `strings`.
// 3: each verdict row ends with the prompt's prefix print (anatomy/prefixPrint.ts).
const FORMAT = 3;
const FOLDER = 'analyses-v1';

type TranscriptRow = [id: string, fingerprint: string, messages: number, chars: number, recordedTokens: number, uncountedChars: number];
type ReasonRow = [source: SourceKind, path: string, change: ChangeKind, detail: string];
// Rows of earlier builds, which also held the model the prompt was parsed for (9 fields), are not taken.
type VerdictRow = [
  key: string,
  cwd: string,
  digest: string,
  tokens: number,
  counted: 0 | 1,
  skillsTier: TierName | null,
  deltaTokens: number,
  reasons: ReasonRow[],
  prose: string,
  buildNote: string | null,
  promptModel: string | null,
  /** What judging new SOUL.md or memory files without the text needs (partsRejudge.ts), the openings by their place in the file's list. */
  parts: PartsRow | null,
  /** The prefix print (prefixPrint.ts): what prefix families need of the prompt. */
  prefix: PrefixRow,
];
type BlockRow = [kind: string, end: number, digest: string];
type PrefixRow = [stableBytes: number, stableTokens: number, stableDigest: string, blocks: BlockRow[] | PackedBlocks, bytes: number];

/**
 * A prefix print's blocks as the file holds them (their strings by index), read when first asked:
 * a status reads the tier's digest alone, and unpacking the blocks of a thousand rows at every load
 * was most of what format 3 added to a cold status.
 */
class PackedBlocks {
  private resolved: BlockRow[] | undefined;

  constructor(
    private readonly packed: readonly unknown[],
    private readonly strings: readonly string[],
  ) {}

  rows(): BlockRow[] {
    if (!this.resolved) {
      const rows: BlockRow[] = [];
      for (const b of this.packed) {
        const kind = Array.isArray(b) && typeof b[0] === 'number' ? this.strings[b[0]] : undefined;
        const digest = Array.isArray(b) && typeof b[2] === 'number' ? this.strings[b[2]] : undefined;
        // A malformed entry leaves the print without blocks (they only rank which pairs to explain).
        if (kind === undefined || digest === undefined || !isCount((b as unknown[])[1])) return (this.resolved = []);
        rows.push([kind, (b as unknown[])[1] as number, digest]);
      }
      this.resolved = rows;
    }
    return this.resolved;
  }

  /** As a row compared or written (keepVerdict, save): the blocks themselves. */
  toJSON(): BlockRow[] {
    return this.rows();
  }
}

function blockRows(blocks: BlockRow[] | PackedBlocks): BlockRow[] {
  return blocks instanceof PackedBlocks ? blocks.rows() : blocks;
}
type PartsRow = [openings: number, deltaTokens: number, blocks: Array<[tokens: number, gapAfter: string] | null>, memory: [digest: string, empty: 0 | 1], user: [digest: string, empty: 0 | 1], skills: string, project: string];
type OpeningsRow = [isDefault: 0 | 1, end: number, hintlessEnd: number, beyond: [number, string] | null, openings: Array<[number, string, number, 0 | 1]>];
type InlineRow = [sessionId: string, identity: string];

interface FileShape {
  readonly format: number;
  readonly judging: number;
  readonly db: { readonly file: string; readonly dev: number; readonly ino: number };
  readonly transcripts: readonly TranscriptRow[];
  /** Verdict rows whose cwd, digest, prose fingerprint and reasons' paths are indexes into `strings` (packRow). */
  readonly verdicts: readonly unknown[];
  /** Strings that thousands of rows share: a status reads the file every run, and these made most of it. */
  readonly strings?: readonly string[];
  /** The identity openings the verdicts' `soul` fields point at (identityOpenings.ts): prompts of a profile share a few. */
  readonly openings?: readonly OpeningsRow[];
  readonly sources?: KeptSources;
  readonly storedPromptCount?: { readonly files: string; readonly count: number };
  /** Before v25: the identity each live session's inline prompt held (AnalysisCache.settleKeptInline). */
  readonly inline?: readonly InlineRow[];
}

/** The judging digest per session cwd and what rendering the sources read (sourceDigests.ts), the parts kept apart apart. */
interface KeptSources {
  readonly environment: string;
  readonly reads: KeptReads;
  readonly digests: ReadonlyArray<readonly [cwd: string, digest: string]>;
}

/** Hermes raises these with every turn: the same values, the same live transcript. */
export function transcriptFingerprint(record: SessionRecord): string {
  return `${record.messageCount ?? ''}:${record.lastActivityAt ?? ''}:${record.endedAt ?? ''}`;
}

export class PersistedAnalyses {
  private readonly transcripts = new Map<string, { fingerprint: string; size: TranscriptSize }>();
  /** `parts`: made from the row's field when first asked (null: none); only a run after an edit asks. */
  private readonly verdicts = new Map<string, { row: VerdictRow; kept?: PromptVerdict; parts?: KeptParts | null }>();
  /** The file's openings, each made when a verdict's parts first ask for it. */
  private openingRows: readonly unknown[] = [];
  private readonly openings: Array<IdentityOpenings | null | undefined> = [];
  /** What this run used or made: the file keeps only that. */
  private readonly usedTranscripts = new Set<string>();
  private readonly usedVerdicts = new Set<string>();
  private readonly inlineIdentities = new Map<string, string>();
  private readonly usedInline = new Set<string>();
  private changed = false;
  /** Whether a file was there to read (a first file for a database sweeps out forgotten ones). */
  private found = false;
  private sources: KeptSources | undefined;
  private storedPromptCount: FileShape['storedPromptCount'];
  /** The kept verdicts' token counts by prompt (promptTokens), made on first use. */
  private countsByPrompt: Map<string, { tokens: number; counted: boolean }> | undefined;

  private constructor(
    private readonly file: string,
    private readonly db: FileShape['db'],
  ) {}

  /** The analyses kept for `dbFile`, or undefined when the disk cache is off or the file cannot be stat'ed. */
  static open(dbFile: string, env: NodeJS.ProcessEnv = processCacheEnv()): PersistedAnalyses | undefined {
    const dir = lensCacheFolder(env);
    if (!dir) return undefined;
    let db: FileShape['db'];
    try {
      // stat only: the database is never opened here (docs/HERMES-HOMES.md: POSIX locks are per process).
      const st = fs.statSync(dbFile);
      db = { file: path.resolve(dbFile), dev: st.dev, ino: st.ino };
    } catch {
      return undefined;
    }
    const name = createHash('sha256').update(db.file).digest('base64url').slice(0, 24);
    const store = new PersistedAnalyses(path.join(dir, FOLDER, `${name}.json`), db);
    store.load();
    return store;
  }

  /** The transcript size kept for a session whose Hermes counters read `fingerprint` (transcriptFingerprint). */
  transcript(sessionId: string, fingerprint: string): TranscriptSize | undefined {
    const kept = this.transcripts.get(sessionId);
    if (!kept || kept.fingerprint !== fingerprint) return undefined;
    this.usedTranscripts.add(sessionId);
    return kept.size;
  }

  keepTranscript(sessionId: string, fingerprint: string, size: TranscriptSize): void {
    this.usedTranscripts.add(sessionId);
    const kept = this.transcripts.get(sessionId);
    if (kept && kept.fingerprint === fingerprint && sameSize(kept.size, size)) return;
    this.transcripts.set(sessionId, { fingerprint, size });
    this.changed = true;
  }

  /** The token count of a prompt kept with any of its verdicts, whatever their sources' digests. */
  promptTokens(promptKey: string): { tokens: number; counted: boolean } | undefined {
    if (!this.countsByPrompt) {
      this.countsByPrompt = new Map();
      for (const { row } of this.verdicts.values()) this.countsByPrompt.set(row[0], { tokens: row[3], counted: row[4] === 1 });
    }
    return this.countsByPrompt.get(promptKey);
  }

  /**
   * The verdict kept for a prompt judged for `cwd` against sources of this digest. Whatever the
   * model of the session asking: nothing in a verdict depends on one (its counts say whether they
   * were made with o200k; whether that is exact is the session report's).
   */
  verdict(promptKey: string, cwd: string | undefined, digest: string): PromptVerdict | undefined {
    const key = verdictKey(promptKey, cwd);
    const entry = this.verdicts.get(key);
    if (!entry || entry.row[2] !== digest) return undefined;
    this.usedVerdicts.add(key);
    return (entry.kept ??= verdictOf(entry.row));
  }

  /** The verdict kept for a prompt and cwd whatever the sources it was judged against, with their digest and what rejudging SOUL.md needs. */
  anyVerdict(promptKey: string, cwd: string | undefined): { digest: string; verdict: PromptVerdict; parts: KeptParts | undefined } | undefined {
    const entry = this.verdicts.get(verdictKey(promptKey, cwd));
    if (!entry) return undefined;
    return { digest: entry.row[2], verdict: (entry.kept ??= verdictOf(entry.row)), parts: this.partsOf(entry) };
  }

  /** A verdict's kept parts, made from its row's field the first time (a status with nothing changed never asks). */
  private partsOf(entry: { row: VerdictRow; parts?: KeptParts | null }): KeptParts | undefined {
    if (entry.parts === undefined) {
      const field = entry.row[11];
      const opened = isPartsField(field) && field !== null ? this.openingAt(field[0]) : undefined;
      entry.parts = opened ? partsOf(field!, opened) : null;
    }
    return entry.parts ?? undefined;
  }

  private openingAt(at: number): IdentityOpenings | undefined {
    let opened = this.openings[at];
    if (opened === undefined) {
      const row = this.openingRows[at];
      this.openings[at] = opened = isOpeningsRow(row) ? openingsOf(row) : null;
    }
    return opened ?? undefined;
  }

  keepVerdict(promptKey: string, cwd: string | undefined, digest: string, verdict: PromptVerdict, parts?: KeptParts): void {
    // Only content identities (AnalysisCache.knownIdentity): an inline prompt's own key may have its text rewritten.
    if (!promptKey.startsWith('hash:')) return;
    const key = verdictKey(promptKey, cwd);
    this.usedVerdicts.add(key);
    const { prompt, judged } = verdict;
    const row: VerdictRow = [
      promptKey,
      cwd ?? '',
      digest,
      prompt.tokens,
      prompt.tokensCounted ? 1 : 0,
      prompt.skillsTier ?? null,
      judged.deltaTokens,
      judged.reasons.map((r) => [r.source, r.path, r.change, r.detail]),
      prompt.prose,
      judged.buildNote ?? null,
      prompt.model ?? null,
      // The file's field: kept parts live in the entry, and save writes them with their openings' place.
      null,
      prefixRow(prompt.prefix),
    ];
    const was = this.verdicts.get(key);
    // Another digest is a change at once: after an edit every row is, and comparing them whole cost.
    if (was && was.row[2] === row[2] && this.partsOf(was)?.openings === parts?.openings && JSON.stringify(was.row) === JSON.stringify(row)) return;
    this.verdicts.set(key, { row, kept: verdict, parts: parts ?? null });
    this.changed = true;
  }

  /**
   * The identity (`hash:<sha256>`) an earlier run found a session's inline prompt to hold, before
   * v25: Hermes may have rewritten the copy since, so it is a guess to check (AnalysisCache.settleKeptInline).
   */
  inlineIdentity(sessionId: string): string | undefined {
    return this.inlineIdentities.get(sessionId);
  }

  keepInlineIdentity(sessionId: string, identity: string): void {
    this.usedInline.add(sessionId);
    if (this.inlineIdentities.get(sessionId) === identity) return;
    this.inlineIdentities.set(sessionId, identity);
    this.changed = true;
  }

  /** The digests and reads kept by an earlier run in this environment (still to be checked: readsStillHold). */
  keptSources(environment: string): { reads: KeptReads; digests: ReadonlyMap<string, string> } | undefined {
    const kept = this.sources;
    return kept && kept.environment === environment ? { reads: kept.reads, digests: new Map(kept.digests) } : undefined;
  }

  /**
   * The count of sessions holding a stored prompt, kept with what stat() said of state.db and its
   * WAL (databaseFiles): files that did not change hold the same rows, so the same count.
   */
  keptStoredPromptCount(files: string): number | undefined {
    return this.storedPromptCount?.files === files ? this.storedPromptCount.count : undefined;
  }

  keepStoredPromptCount(files: string, count: number): void {
    if (this.storedPromptCount?.files === files && this.storedPromptCount.count === count) return;
    this.storedPromptCount = { files, count };
    this.changed = true;
  }

  dropSources(): void {
    if (this.sources === undefined) return;
    this.sources = undefined;
    this.changed = true;
  }

  keepSources(environment: string, reads: KeptReads, digests: ReadonlyMap<string, string>): void {
    this.sources = { environment, reads, digests: [...digests] };
    this.changed = true;
  }

  /** Writes what this run used and made, when that differs from what was read. */
  save(): void {
    // Every entry used (the used sets hold only keys of the maps) and none new: the file holds this run.
    if (!this.changed && this.usedTranscripts.size === this.transcripts.size && this.usedVerdicts.size === this.verdicts.size && this.usedInline.size === this.inlineIdentities.size) return;
    const transcripts: TranscriptRow[] = [];
    for (const [id, t] of this.transcripts) {
      if (this.usedTranscripts.has(id)) transcripts.push([id, t.fingerprint, t.size.messages, t.size.chars, t.size.recordedTokens, t.size.uncountedChars]);
    }
    const openings: OpeningsRow[] = [];
    const openingsAt = new Map<string, number>();
    // Prompts of one identity's openings share the object: its row is made and compared once.
    const openingsOf = new Map<IdentityOpenings, number>();
    const strings = new Interned();
    const verdicts: unknown[] = [];
    for (const [key, v] of this.verdicts) {
      if (!this.usedVerdicts.has(key)) continue;
      let row = v.row;
      const parts = this.partsOf(v);
      if (parts) {
        // Alike openings of prompts that differ further on are one entry.
        let at = openingsOf.get(parts.openings);
        if (at === undefined) {
          const opening = openingsRow(parts.openings);
          const text = JSON.stringify(opening);
          at = openingsAt.get(text);
          if (at === undefined) openingsAt.set(text, (at = openings.push(opening) - 1));
          openingsOf.set(parts.openings, at);
        }
        row = row.slice() as VerdictRow;
        row[11] = partsRow(parts, at);
      } else if (row[11] !== null) {
        row = row.slice() as VerdictRow;
        row[11] = null;
      }
      verdicts.push(packRow(row, strings));
    }
    const inline = [...this.inlineIdentities].filter(([id]) => this.usedInline.has(id));
    const shape: FileShape = {
      format: FORMAT,
      judging: JUDGING_VERSION,
      db: this.db,
      transcripts,
      verdicts,
      strings: strings.list,
      ...(openings.length > 0 ? { openings } : {}),
      ...(this.sources ? { sources: this.sources } : {}),
      ...(this.storedPromptCount ? { storedPromptCount: this.storedPromptCount } : {}),
      ...(inline.length > 0 ? { inline } : {}),
    };
    try {
      writeCacheFile(this.file, JSON.stringify(shape));
      // After the write: the file just written is new, so the sweep leaves it.
      if (!this.found) sweepForgotten(path.dirname(this.file));
    } catch {
      // A read-only or full disk: the next run does the work again.
    }
  }

  private load(): void {
    let shape: FileShape;
    try {
      const text = fs.readFileSync(this.file, 'utf8');
      this.found = true;
      // Written again now and then even when nothing changed, so the sweep knows it is in use.
      if (Date.now() - fs.statSync(this.file).mtimeMs > IN_USE_REFRESH_MS) this.changed = true;
      shape = JSON.parse(text) as FileShape;
    } catch {
      return;
    }
    if (shape?.format !== FORMAT || shape.judging !== JUDGING_VERSION || !Array.isArray(shape.transcripts) || !Array.isArray(shape.verdicts)) return;
    // Another file under the same name (replaced, restored) has other sessions: its transcripts go.
    const sameDb = shape.db?.file === this.db.file && shape.db.dev === this.db.dev && shape.db.ino === this.db.ino;
    if (sameDb) {
      for (const row of shape.transcripts) {
        if (isTranscriptRow(row)) this.transcripts.set(row[0], { fingerprint: row[1], size: { messages: row[2], chars: row[3], recordedTokens: row[4], uncountedChars: row[5] } });
      }
      if (Array.isArray(shape.inline)) for (const row of shape.inline) if (isInlineRow(row)) this.inlineIdentities.set(row[0], row[1]);
    }
    this.openingRows = Array.isArray(shape.openings) ? shape.openings : [];
    const strings = Array.isArray(shape.strings) && shape.strings.every((t) => typeof t === 'string') ? shape.strings : [];
    for (const packed of shape.verdicts) {
      const row = unpackRow(packed, strings);
      if (isVerdictRow(row)) this.verdicts.set(verdictKey(row[0], row[1] || undefined), { row });
    }
    if (isKeptSources(shape.sources)) this.sources = shape.sources;
    const counted = shape.storedPromptCount;
    if (counted && typeof counted.files === 'string' && isCount(counted.count) && Number.isSafeInteger(counted.count)) this.storedPromptCount = counted;
  }
}

/** Files of databases no status has looked at for a month (moved homes, test runs) go. */
const FORGOTTEN_AFTER_MS = 30 * 24 * 3600 * 1000;
const IN_USE_REFRESH_MS = 24 * 3600 * 1000;

function sweepForgotten(folder: string): void {
  const before = Date.now() - FORGOTTEN_AFTER_MS;
  for (const name of fs.readdirSync(folder)) {
    const file = path.join(folder, name);
    try {
      if (fs.statSync(file).mtimeMs < before) fs.rmSync(file, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

function verdictKey(promptKey: string, cwd: string | undefined): string {
  return `${promptKey}\u0000${cwd ?? ''}`;
}

function verdictOf(row: VerdictRow): PromptVerdict {
  return {
    prompt: { tokens: row[3], tokensCounted: row[4] === 1, skillsTier: row[5] ?? undefined, prose: row[8], model: row[10] ?? undefined, prefix: prefixOf(row[12]) },
    judged: {
      deltaTokens: row[6],
      reasons: row[7].map(([source, path, change, detail]): StaleReason => ({ source, path, change, detail })),
      buildNote: row[9] ?? undefined,
    },
  };
}

function sameSize(a: TranscriptSize, b: TranscriptSize): boolean {
  return a.messages === b.messages && a.chars === b.chars && a.recordedTokens === b.recordedTokens && a.uncountedChars === b.uncountedChars;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const SOURCES: ReadonlySet<unknown> = new Set<SourceKind>(['soul', 'skill', 'skill-category', 'project-context', 'memory', 'user']);
const CHANGES: ReadonlySet<unknown> = new Set<ChangeKind>(['added', 'removed', 'changed']);

function isTranscriptRow(row: unknown): row is TranscriptRow {
  // Element by element: a slice per row was two thousand arrays made and dropped per status.
  return Array.isArray(row) && row.length === 6 && typeof row[0] === 'string' && typeof row[1] === 'string' && isCount(row[2]) && isCount(row[3]) && isCount(row[4]) && isCount(row[5]);
}

function isInlineRow(row: unknown): row is InlineRow {
  return Array.isArray(row) && row.length === 2 && typeof row[0] === 'string' && typeof row[1] === 'string' && row[1].startsWith('hash:');
}

function isKeptSources(value: unknown): value is KeptSources {
  if (!value || typeof value !== 'object') return false;
  const { environment, reads, digests } = value as Partial<KeptSources>;
  const isReads = (r: PackedReads | undefined) => typeof r?.paths === 'string' && typeof r.seen === 'string';
  return (
    typeof environment === 'string' &&
    typeof reads === 'object' &&
    reads !== null &&
    (['rest', ...APART_PARTS] as const).every((part) => isReads(reads[part])) &&
    Array.isArray(digests) &&
    digests.every((d) => Array.isArray(d) && d.length === 2 && typeof d[0] === 'string' && typeof d[1] === 'string')
  );
}

/** Strings numbered in the order first met. */
class Interned {
  readonly list: string[] = [];
  private readonly at = new Map<string, number>();
  of(text: string): number {
    let n = this.at.get(text);
    if (n === undefined) this.at.set(text, (n = this.list.push(text) - 1));
    return n;
  }
}

function packRow(row: VerdictRow, strings: Interned): unknown[] {
  const packed: unknown[] = row.slice();
  packed[1] = strings.of(row[1]);
  packed[2] = strings.of(row[2]);
  packed[7] = row[7].map((r) => [r[0], strings.of(r[1]), r[2], r[3]]);
  packed[8] = strings.of(row[8]);
  const prefix = row[12];
  packed[12] = [prefix[0], prefix[1], strings.of(prefix[2]), blockRows(prefix[3]).map((b) => [strings.of(b[0]), b[1], strings.of(b[2])]), prefix[4]];
  return packed;
}

/** A row of the file with its strings back in place; anything malformed is left for isVerdictRow to refuse. */
function unpackRow(packed: unknown, strings: readonly string[]): unknown {
  if (!Array.isArray(packed) || packed.length !== 13 || !Array.isArray(packed[7]) || !Array.isArray(packed[12]) || !Array.isArray(packed[12][3])) return undefined;
  const text = (n: unknown) => (typeof n === 'number' ? strings[n] : undefined);
  const row = packed.slice();
  row[1] = text(packed[1]);
  row[2] = text(packed[2]);
  row[7] = (packed[7] as unknown[]).map((r) => (Array.isArray(r) && r.length === 4 ? [r[0], text(r[1]), r[2], r[3]] : undefined));
  row[8] = text(packed[8]);
  const prefix = packed[12] as unknown[];
  row[12] = [prefix[0], prefix[1], text(prefix[2]), new PackedBlocks(prefix[3] as unknown[], strings), prefix[4]];
  return row;
}

function openingsRow(o: IdentityOpenings): OpeningsRow {
  return [o.isDefault ? 1 : 0, o.end, o.hintlessEnd, o.beyond ? [...o.beyond] : null, o.openings.map((x) => [...x])];
}

function openingsOf(row: OpeningsRow): IdentityOpenings {
  return { isDefault: row[0] === 1, end: row[1], hintlessEnd: row[2], beyond: row[3] ?? undefined, openings: row[4] };
}

function isOpeningsRow(row: unknown): row is OpeningsRow {
  if (!Array.isArray(row) || row.length !== 5) return false;
  const [isDefault, end, hintlessEnd, beyond, openings] = row as unknown[];
  return (
    (isDefault === 0 || isDefault === 1) &&
    isCount(end) &&
    isCount(hintlessEnd) &&
    (beyond === null || (Array.isArray(beyond) && beyond.length === 2 && isCount(beyond[0]) && typeof beyond[1] === 'string')) &&
    Array.isArray(openings) &&
    openings.every((o) => Array.isArray(o) && o.length === 4 && isCount(o[0]) && typeof o[1] === 'string' && isCount(o[2]) && (o[3] === 0 || o[3] === 1))
  );
}

function partsRow(parts: KeptParts, openings: number): PartsRow {
  const entries = (e: KeptEntries): [string, 0 | 1] => [e.digest, e.empty ? 1 : 0];
  return [openings, parts.deltaTokens, parts.blocks.map((b) => (b ? [b.tokens, b.gapAfter] : null)), entries(parts.memory), entries(parts.user), parts.skills, parts.project];
}

function partsOf(row: PartsRow, openings: IdentityOpenings): KeptParts {
  const entries = (e: [string, 0 | 1]): KeptEntries => ({ digest: e[0], empty: e[1] === 1 });
  const blocks = row[2].map((b): KeptBlock | undefined => (b ? { tokens: b[0], gapAfter: b[1] } : undefined));
  return { openings, deltaTokens: row[1], blocks, memory: entries(row[3]), user: entries(row[4]), skills: row[5], project: row[6] };
}

function isPartsField(value: unknown): value is PartsRow | null {
  if (value === null) return true;
  if (!Array.isArray(value) || value.length !== 7) return false;
  const [openings, delta, blocks, memory, user, skills, project] = value as unknown[];
  const isEntries = (e: unknown) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && (e[1] === 0 || e[1] === 1);
  return (
    isCount(openings) &&
    typeof delta === 'number' &&
    Number.isFinite(delta) &&
    Array.isArray(blocks) &&
    blocks.every((b) => b === null || (Array.isArray(b) && b.length === 2 && isCount(b[0]) && typeof b[1] === 'string')) &&
    isEntries(memory) &&
    isEntries(user) &&
    typeof skills === 'string' &&
    typeof project === 'string'
  );
}

function isVerdictRow(row: unknown): row is VerdictRow {
  if (!Array.isArray(row) || row.length !== 13) return false;
  const [key, cwd, digest, tokens, counted, tier, delta, reasons, prose, buildNote, promptModel, , prefix] = row as unknown[];
  return (
    typeof key === 'string' &&
    typeof cwd === 'string' &&
    typeof digest === 'string' &&
    isCount(tokens) &&
    (counted === 0 || counted === 1) &&
    (tier === null || tier === 'stable' || tier === 'context' || tier === 'volatile') &&
    typeof delta === 'number' &&
    Number.isFinite(delta) &&
    Array.isArray(reasons) &&
    reasons.every((r) => Array.isArray(r) && r.length === 4 && SOURCES.has(r[0]) && typeof r[1] === 'string' && CHANGES.has(r[2]) && typeof r[3] === 'string') &&
    typeof prose === 'string' &&
    (buildNote === null || typeof buildNote === 'string') &&
    (promptModel === null || typeof promptModel === 'string') &&
    isPrefixRow(prefix)
    // `parts` is checked when first asked for (partsOf).
  );
}

function prefixRow(print: PrefixPrint): PrefixRow {
  return [print.stableBytes, print.stableTokens, print.stableDigest, print.stableBlocks.map((b) => [b.kind, b.end, b.digest]), print.bytes];
}

function prefixOf(row: PrefixRow): PrefixPrint {
  return new KeptPrint(row);
}

/** A prefix print read from the file, its blocks made when first asked (a status reads the tier's digest alone). */
class KeptPrint implements PrefixPrint {
  readonly stableBytes: number;
  readonly stableTokens: number;
  readonly stableDigest: string;
  readonly bytes: number;
  private blocks: PrefixPrint['stableBlocks'] | undefined;

  constructor(private readonly row: PrefixRow) {
    this.stableBytes = row[0];
    this.stableTokens = row[1];
    this.stableDigest = row[2];
    this.bytes = row[4];
  }

  get stableBlocks(): PrefixPrint['stableBlocks'] {
    return (this.blocks ??= blockRows(this.row[3]).map(([kind, end, digest]) => ({ kind: kind as BlockKind, end, digest })));
  }
}

function isPrefixRow(value: unknown): value is PrefixRow {
  if (!Array.isArray(value) || value.length !== 5) return false;
  const [stableBytes, stableTokens, stableDigest, blocks, bytes] = value as unknown[];
  return (
    isCount(stableBytes) &&
    isCount(stableTokens) &&
    typeof stableDigest === 'string' &&
    isCount(bytes) &&
    // Blocks read from the file are checked when first asked for (PackedBlocks).
    (blocks instanceof PackedBlocks || (Array.isArray(blocks) && blocks.every((b) => Array.isArray(b) && b.length === 3 && typeof b[0] === 'string' && isCount(b[1]) && typeof b[2] === 'string')))
  );
}
