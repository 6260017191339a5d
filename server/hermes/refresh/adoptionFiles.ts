// Where the watches of refresh requests are kept between runs, so `hermes-lens status` and every
// editor window tell the same: one JSON file per state.db in the lens's cache folder
// (tokenCacheDir; `HERMES_LENS_TOKEN_CACHE=off` keeps them in memory), and one per Hermes home for
// the stamp key learned from a session's adoption. Never in state.db. They hold session ids,
// counts, epochs, prompt hashes, model_config key names and the lens's own sentences: no prompt
// text. Mode 0600, written whole and renamed (cacheFiles.ts), each change merged under a lock file
// into what the file holds then; a damaged file is ignored.
import { createHash } from 'node:crypto';
import fs = require('node:fs');
import path = require('node:path');
import { writeCacheFile } from '../cacheFiles';
import { tokenCacheDir } from '../cost/tokenCountStore';
import { withLock } from '../lockFile';
import type { AdoptionState, AdoptionWatch, PredictedCost, TurnMark } from './adoption';

const FORMAT = 1;
const FOLDER = 'refresh-adoption-v1';
const STATES: readonly AdoptionState[] = ['pending', 'adopted', 'adopted-stamp-unread', 'not-adopted'];

/** A `model_config` key seen taking a request's epoch in a session of this home. */
export interface LearnedStamp {
  readonly stampKey: string;
  readonly profile: string;
  readonly sessionId: string;
  readonly epoch: number;
  /** When it was learned (epoch seconds). */
  readonly at: number;
}

export interface AdoptionFiles {
  load(dbFile: string): readonly AdoptionWatch[];
  /** Merges `watches` into what is kept for `dbFile` now (mergeWatches), keeps and returns the result. */
  save(dbFile: string, watches: readonly AdoptionWatch[], sessionsListed?: ReadonlySet<string>): readonly AdoptionWatch[];
  learned(homeRoot: string): LearnedStamp | undefined;
  learn(homeRoot: string, stamp: LearnedStamp): void;
}

/** Kept in this process only (the cache folder turned off, tests). */
export function memoryAdoptionFiles(): AdoptionFiles {
  const watches = new Map<string, readonly AdoptionWatch[]>();
  const stamps = new Map<string, LearnedStamp>();
  return {
    load: (dbFile) => watches.get(path.resolve(dbFile)) ?? [],
    save(dbFile, mine, listed) {
      const merged = mergeWatches(watches.get(path.resolve(dbFile)) ?? [], mine, listed);
      watches.set(path.resolve(dbFile), merged);
      return merged;
    },
    learned: (home) => stamps.get(path.resolve(home)),
    learn: (home, stamp) => void stamps.set(path.resolve(home), stamp),
  };
}

/** The files of the lens's cache folder; undefined when it is turned off. */
export function adoptionFiles(env: NodeJS.ProcessEnv = process.env): AdoptionFiles | undefined {
  const dir = tokenCacheDir(env);
  if (!dir) return undefined;
  const fileOf = (kind: string, target: string) => path.join(dir, FOLDER, `${kind}-${createHash('sha256').update(path.resolve(target)).digest('base64url').slice(0, 24)}.json`);
  const load = (dbFile: string): AdoptionWatch[] => {
    try {
      return decodeWatches(fs.readFileSync(fileOf('db', dbFile), 'utf8'), path.resolve(dbFile)) ?? [];
    } catch {
      return []; // none kept
    }
  };
  return {
    load,
    save(dbFile, mine, listed) {
      const file = fileOf('db', dbFile);
      try {
        return withLock(`${file}.lock`, () => {
          const merged = mergeWatches(load(dbFile), mine, listed);
          if (merged.length === 0) fs.rmSync(file, { force: true });
          else writeCacheFile(file, encodeWatches(path.resolve(dbFile), merged));
          return merged;
        });
      } catch {
        return mine; // not kept this time: the next save tries again
      }
    },
    learned(home) {
      try {
        return decodeLearned(fs.readFileSync(fileOf('home', home), 'utf8'), path.resolve(home));
      } catch {
        return undefined;
      }
    },
    learn(home, stamp) {
      try {
        writeCacheFile(fileOf('home', home), JSON.stringify({ format: FORMAT, home: path.resolve(home), ...stamp }));
      } catch {
        /* learned again at the next adoption */
      }
    },
  };
}

/**
 * One watch per session from what is kept and what this process holds: the later request wins;
 * for the same request a decided watch wins over a pending one, and the first decision over a
 * later one. Sessions no longer listed (when the caller knows the list) are dropped.
 */
export function mergeWatches(kept: readonly AdoptionWatch[], mine: readonly AdoptionWatch[], listed?: ReadonlySet<string>): AdoptionWatch[] {
  const byId = new Map<string, AdoptionWatch>();
  for (const w of [...kept, ...mine]) {
    if (listed && !listed.has(w.sessionId)) continue;
    const other = byId.get(w.sessionId);
    if (!other || preferred(w, other)) byId.set(w.sessionId, w);
  }
  return [...byId.values()];
}

function preferred(a: AdoptionWatch, b: AdoptionWatch): boolean {
  if (a.epoch !== b.epoch) return a.epoch > b.epoch;
  if ((a.state === 'pending') !== (b.state === 'pending')) return a.state !== 'pending';
  if (a.state === 'pending') return a.after !== null && b.after === null;
  return (a.decidedAt ?? Infinity) < (b.decidedAt ?? Infinity) || (a.decidedAt === b.decidedAt && a.after !== null && b.after !== null && a.after.messages > b.after.messages);
}

function encodeWatches(db: string, watches: readonly AdoptionWatch[]): string {
  // Prompt hashes are shared by many sessions: each is written once.
  const prompts: string[] = [];
  const index = new Map<string, number>();
  const promptAt = (p: string | null) => {
    if (p === null) return -1;
    let i = index.get(p);
    if (i === undefined) index.set(p, (i = prompts.push(p) - 1));
    return i;
  };
  const mark = (m: TurnMark | null) =>
    m && [m.messages, m.lastActivityAt, promptAt(m.prompt), m.stamp, m.counters?.inputTokens ?? null, m.counters?.cacheReadTokens ?? null, m.counters?.cacheWriteTokens ?? null];
  const rows = watches.map((w) => ({
    id: w.sessionId,
    epoch: w.epoch,
    requestedAt: w.requestedAt,
    by: w.by,
    before: mark(w.before),
    atEpochBefore: w.atEpochBefore,
    predicted: w.predicted && [w.predicted.costUsd, w.predicted.prefixTokens, w.predicted.cacheWarm],
    state: w.state,
    after: mark(w.after),
    decidedAt: w.decidedAt,
    stampKey: w.stampKey,
    note: w.note,
  }));
  return JSON.stringify({ format: FORMAT, db, prompts, watches: rows });
}

/** The watches of a file's text, or undefined when it is not a file of `db` in this format. */
function decodeWatches(text: string, db: string): AdoptionWatch[] | undefined {
  let shape: { format?: unknown; db?: unknown; prompts?: unknown; watches?: unknown };
  try {
    shape = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!shape || shape.format !== FORMAT || shape.db !== db || !Array.isArray(shape.prompts) || !Array.isArray(shape.watches)) return undefined;
  const prompts = shape.prompts as unknown[];
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const mark = (v: unknown): TurnMark | null | undefined => {
    if (v === null) return null;
    if (!Array.isArray(v) || v.length !== 7) return undefined;
    const [messages, last, p, stamp, input, read, write] = v as unknown[];
    const prompt = num(p) !== undefined && p !== -1 ? prompts[p as number] : null;
    if (num(messages) === undefined || num(stamp) === undefined || (prompt !== null && typeof prompt !== 'string')) return undefined;
    const counters = num(input) !== undefined && num(read) !== undefined && num(write) !== undefined ? { inputTokens: input as number, cacheReadTokens: read as number, cacheWriteTokens: write as number } : null;
    return { messages: messages as number, lastActivityAt: num(last) ?? null, prompt: prompt as string | null, stamp: stamp as number, counters };
  };
  const watches: AdoptionWatch[] = [];
  for (const row of shape.watches as Array<Record<string, unknown>>) {
    const before = mark(row?.before);
    const after = mark(row?.after ?? null);
    const state = STATES.find((s) => s === row?.state);
    const predicted = predictedOf(row?.predicted);
    if (typeof row?.id !== 'string' || !row.id || num(row.epoch) === undefined || (row.requestedAt !== null && num(row.requestedAt) === undefined) || !before || after === undefined || !state || predicted === undefined) return undefined;
    watches.push({
      sessionId: row.id,
      epoch: row.epoch as number,
      requestedAt: num(row.requestedAt) ?? null,
      by: row.by === 'lens' ? 'lens' : 'seen',
      before,
      atEpochBefore: Array.isArray(row.atEpochBefore) ? row.atEpochBefore.filter((k): k is string => typeof k === 'string') : [],
      predicted,
      state,
      after,
      decidedAt: num(row.decidedAt) ?? null,
      stampKey: typeof row.stampKey === 'string' ? row.stampKey : null,
      note: typeof row.note === 'string' ? row.note : null,
    });
  }
  return watches;
}

function predictedOf(v: unknown): PredictedCost | null | undefined {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v) || v.length !== 3) return undefined;
  const [cost, prefix, warm] = v as unknown[];
  if ((cost !== null && typeof cost !== 'number') || typeof prefix !== 'number' || typeof warm !== 'boolean') return undefined;
  return { costUsd: cost as number | null, prefixTokens: prefix, cacheWarm: warm };
}

function decodeLearned(text: string, home: string): LearnedStamp | undefined {
  const s = JSON.parse(text) as Partial<LearnedStamp> & { format?: unknown; home?: unknown };
  if (s.format !== FORMAT || s.home !== home || typeof s.stampKey !== 'string' || !s.stampKey) return undefined;
  if (typeof s.profile !== 'string' || typeof s.sessionId !== 'string' || typeof s.epoch !== 'number' || typeof s.at !== 'number') return undefined;
  return { stampKey: s.stampKey, profile: s.profile, sessionId: s.sessionId, epoch: s.epoch, at: s.at };
}
