// The price library's answers, remembered on disk. Loading @pydantic/genai-prices (half a megabyte
// of data) took a cold `hermes-lens status` ~20 ms, for the same few models every run. What the
// library answers for a (model, provider) pair depends only on its version and, for models whose
// prices change on a date or by time of day, on the moment: each answer is kept with the instant
// it stops holding (never, for most models), so a remembered answer is always the one the library
// would give now. Our own pricing rules run on it live (prices.ts), so no figure of ours is stored.
//
// The file lives next to the token counts (`$HERMES_LENS_TOKEN_CACHE`, `off` turns it off), is
// written atomically with mode 0600, and any problem with it means the library is asked.
import fs = require('node:fs');
import path = require('node:path');
import type * as GenaiPrices from '@pydantic/genai-prices';
import { writeCacheFile } from '../cacheFiles';
import { lensCacheFolder } from '../cacheFolder';

/** The parts of a `calcPrice` result the pricing rules use. */
export interface LibraryAnswer {
  readonly modelId: string;
  readonly providerId: string;
  readonly price: GenaiPrices.ModelPrice;
}

const FORMAT = 1;
const FILE_NAME = 'price-answers-v1.json';
const MAX_ENTRIES = 500;

interface FileShape {
  readonly format: number;
  readonly library: string;
  /** key, answer (null: the library knows no such model), the epoch ms it holds until (null: always). */
  readonly answers: ReadonlyArray<readonly [key: string, answer: LibraryAnswer | null, until: number | null]>;
}

interface Remembered {
  readonly answer: LibraryAnswer | null;
  readonly until: number;
}

export class PriceAnswerStore {
  private entries: Map<string, Remembered> | undefined;

  constructor(
    private readonly file: string,
    /** The library's version: answers of another version are not used. */
    private readonly library: string,
  ) {}

  /** The store of this process, or undefined when disk caches are off or the library's version is unknown. */
  static forProcess(libraryVersion: string | undefined, env: NodeJS.ProcessEnv): PriceAnswerStore | undefined {
    const dir = lensCacheFolder(env);
    return dir && libraryVersion ? new PriceAnswerStore(path.join(dir, FILE_NAME), libraryVersion) : undefined;
  }

  static keyOf(model: string, providerId: string | undefined): string {
    return `${model}\u0000${providerId ?? ''}`;
  }

  /** The answer remembered for `key` that still holds at `now` (epoch ms), else undefined. */
  get(key: string, now: number): LibraryAnswer | null | undefined {
    const hit = this.load().get(key);
    return hit && now < hit.until ? hit.answer : undefined;
  }

  /** Remembers an answer (holding until `until`, epoch ms) and writes the file. */
  remember(key: string, answer: LibraryAnswer | null, until: number): void {
    if (answer && !exactInJson(answer)) return; // it would not read back as the same answer
    const entries = this.load();
    entries.set(key, { answer, until });
    try {
      // Merged with what other processes wrote meanwhile; ours win.
      const merged = new Map([...this.readFile(), ...entries]);
      const kept = [...merged].slice(-MAX_ENTRIES);
      const shape: FileShape = {
        format: FORMAT,
        library: this.library,
        answers: kept.map(([k, r]) => [k, r.answer, Number.isFinite(r.until) ? r.until : null] as const),
      };
      writeCacheFile(this.file, JSON.stringify(shape));
    } catch {
      // A read-only or full disk: the library is asked again next time.
    }
  }

  private load(): Map<string, Remembered> {
    this.entries ??= this.readFile();
    return this.entries;
  }

  private readFile(): Map<string, Remembered> {
    const out = new Map<string, Remembered>();
    try {
      const shape = JSON.parse(fs.readFileSync(this.file, 'utf8')) as FileShape;
      if (shape.format !== FORMAT || shape.library !== this.library || !Array.isArray(shape.answers)) return out;
      for (const entry of shape.answers) {
        if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
        const [key, answer, until] = entry;
        if (answer !== null && !isAnswer(answer)) continue;
        if (until !== null && typeof until !== 'number') continue;
        out.set(key, { answer, until: until ?? Infinity });
      }
    } catch {
      // No file yet, or not ours to understand: nothing remembered.
    }
    return out;
  }
}

function isAnswer(value: unknown): value is LibraryAnswer {
  const a = value as LibraryAnswer;
  return typeof a === 'object' && a !== null && typeof a.modelId === 'string' && typeof a.providerId === 'string' && typeof a.price === 'object' && a.price !== null;
}

/** True when JSON keeps `value` exactly: no undefined, non-finite or negative-zero numbers, plain data only. */
function exactInJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(exactInJson);
  if (typeof value !== 'object') return false;
  return Object.values(value as Record<string, unknown>).every((v) => v !== undefined && exactInJson(v));
}

/**
 * Until when (epoch ms, exclusive) the library gives the same price record for `model` as at
 * `now`: always, unless its prices depend on the date or the time of day. The library picks, from
 * the last entry back, the first whose constraint holds; a start date only ever starts to hold and
 * a time-of-day window holds between its two times each day, so the record can change only at a
 * start date or at one of those times. A constraint it does not know: undefined (do not keep).
 */
export function answerHoldsUntil(model: GenaiPrices.ModelInfo | undefined, now: number): number | undefined {
  if (!model || !Array.isArray(model.prices)) return Infinity;
  let until = Infinity;
  for (const { constraint } of model.prices) {
    if (constraint === undefined) continue;
    if (constraint.type === 'start_date') {
      const at = new Date(constraint.start_date).getTime();
      if (Number.isNaN(at)) return undefined;
      if (at > now) until = Math.min(until, at);
    } else if (constraint.type === 'time_of_date') {
      for (const time of [constraint.start_time, constraint.end_time]) {
        const next = nextTimeOfDay(time, now);
        if (next === undefined) return undefined;
        until = Math.min(until, next);
      }
    } else {
      return undefined;
    }
  }
  return until;
}

const DAY_MS = 86_400_000;
/** The library's time-of-day format: `HH:MM:SS[.fff]` and `Z` or an offset. */
const TIME_OF_DAY = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/;

/** The first instant after `now` (epoch ms) at which the UTC clock shows `time`, or undefined if unreadable. */
function nextTimeOfDay(time: string, now: number): number | undefined {
  const m = TIME_OF_DAY.exec(time);
  if (!m) return undefined;
  const [, hh, mm, ss, fraction = '', zone, sign, oh = '00', om = '00'] = m;
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59 || Number(oh) > 23 || Number(om) > 59) return undefined;
  const offset = zone === 'Z' ? 0 : (sign === '+' ? 1 : -1) * (Number(oh) * 3600 + Number(om) * 60);
  const secondOfDay = (Number(hh) * 3600 + Number(mm) * 60 + Number(ss) + Number(`0.${fraction}`) - offset + 86_400) % 86_400;
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const today = dayStart + secondOfDay * 1000;
  return today > now ? today : today + DAY_MS;
}
