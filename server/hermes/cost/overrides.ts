// User price overrides: a JSON file (or a settings object) mapping a model id or glob to prices in $ per
// million tokens, e.g. { "claude-opus-4-5": { "input": 5, "cacheRead": 0.5, "cacheWrite5m": 6.25,
// "cacheWrite1h": 10 }, "my-vllm-*": { "input": 0 } }. They cover negotiated rates, self-hosted
// endpoints and models the price library does not know yet, and they win over the library.
// A broken file is reported once (naming the file and what to fix) and ignored as a whole, so a typo
// can never half-apply and silently skew figures.
import fs = require('node:fs');
import picomatch from 'picomatch';

export interface PriceOverride {
  /** The key as written in the file. */
  readonly pattern: string;
  /** $ per million uncached input tokens. */
  readonly input: number;
  /** $ per million cache-read tokens; derived from the provider family's multiplier when absent. */
  readonly cacheRead?: number;
  /** $ per million 5-minute cache-write tokens; derived when absent. */
  readonly cacheWrite5m?: number;
  /** $ per million 1-hour cache-write tokens; derived when absent. */
  readonly cacheWrite1h?: number;
  /** Case-insensitive match of a model name against `pattern` (exact id or glob). */
  readonly matches: (name: string) => boolean;
  readonly isGlob: boolean;
}

export type PriceOverrides = readonly PriceOverride[];

export interface LoadedPriceOverrides {
  readonly overrides: PriceOverrides;
  /** Why the overrides could not be used; undefined when all is well. */
  readonly problem?: string;
}

const FIELDS = ['input', 'cacheRead', 'cacheWrite5m', 'cacheWrite1h'] as const;
const EXAMPLE = '{ "claude-opus-4-5": { "input": 5, "cacheRead": 0.5, "cacheWrite5m": 6.25, "cacheWrite1h": 10 } }';
const MAX_LISTED_ERRORS = 5;

export function loadPriceOverrides(file: string): LoadedPriceOverrides {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : (error as Error).message;
    return { overrides: [], problem: `Price overrides ${file} cannot be read (${reason}); fix the path in the settings. Using library prices.` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return {
      overrides: [],
      problem: `Price overrides ${file} is not valid JSON (${(error as Error).message}). Expected ${EXAMPLE}. Using library prices.`,
    };
  }
  return parsePriceOverrides(json, file);
}

/** Validates an already-parsed object (a settings value or a file's JSON); `file` names it in messages. */
export function parsePriceOverrides(json: unknown, file: string): LoadedPriceOverrides {
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    return { overrides: [], problem: `Price overrides ${file} must be a JSON object of model id or glob to prices, e.g. ${EXAMPLE}. Using library prices.` };
  }
  const errors: string[] = [];
  const exact: PriceOverride[] = [];
  const globs: PriceOverride[] = [];
  for (const [pattern, value] of Object.entries(json as Record<string, unknown>)) {
    if (pattern.startsWith('$')) continue; // "$comment", "$schema": room for notes in the file
    const entry = parseEntry(pattern, value, errors);
    if (entry) (entry.isGlob ? globs : exact).push(entry);
  }
  if (errors.length > 0) {
    const listed = errors.slice(0, MAX_LISTED_ERRORS).join('; ');
    const more = errors.length > MAX_LISTED_ERRORS ? `; and ${errors.length - MAX_LISTED_ERRORS} more` : '';
    return { overrides: [], problem: `Price overrides ${file} ignored: ${listed}${more}. Prices are $ per million tokens, e.g. ${EXAMPLE}.` };
  }
  // Exact ids first so `"claude-opus-4-5"` beats `"claude-*"`; globs keep the file's order.
  return { overrides: [...exact, ...globs] };
}

/** The first override matching any of the names (tried in the override order, then name order). */
export function findOverride(overrides: PriceOverrides | undefined, names: readonly string[]): PriceOverride | undefined {
  if (!overrides || overrides.length === 0) return undefined;
  for (const override of overrides) {
    if (names.some((name) => override.matches(name))) return override;
  }
  return undefined;
}

function parseEntry(pattern: string, value: unknown, errors: string[]): PriceOverride | undefined {
  const key = pattern.trim();
  if (!key) {
    errors.push('an entry has an empty model id');
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    errors.push(`"${pattern}" must be an object such as { "input": 3 }`);
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((field) => !(FIELDS as readonly string[]).includes(field) && !field.startsWith('$'));
  if (unknown.length > 0) {
    errors.push(`"${pattern}" has unknown field ${unknown.map((field) => `"${field}"`).join(', ')} (expected ${FIELDS.join(', ')})`);
    return undefined;
  }
  const prices: Partial<Record<(typeof FIELDS)[number], number>> = {};
  let valid = true;
  for (const field of FIELDS) {
    const price = record[field];
    if (price === undefined) continue;
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
      errors.push(`"${pattern}".${field} must be a number ≥ 0 ($ per million tokens), not ${JSON.stringify(price)}`);
      valid = false;
    } else {
      prices[field] = price;
    }
  }
  if (prices.input === undefined && valid) {
    errors.push(`"${pattern}" needs "input" ($ per million uncached input tokens)`);
    return undefined;
  }
  if (!valid || prices.input === undefined) return undefined;
  const lower = key.toLowerCase();
  const isGlob = picomatch.scan(lower).isGlob;
  const matches = isGlob ? picomatch(lower, { nocase: true, dot: true }) : (name: string) => name.toLowerCase() === lower;
  return {
    pattern,
    input: prices.input,
    cacheRead: prices.cacheRead,
    cacheWrite5m: prices.cacheWrite5m,
    cacheWrite1h: prices.cacheWrite1h,
    matches,
    isGlob,
  };
}
