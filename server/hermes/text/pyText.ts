// Python string semantics the renderers must reproduce. Hermes measures, cuts and strips text with
// Python's `len()`, slicing and `str.strip()`, which count code points and know a wider set of
// whitespace than JavaScript; every length, cap or cut we reproduce goes through these helpers
// (docs/HERMES-FORMATS.md, preamble).

/** The characters Python's `str.isspace()` accepts (what `str.strip()` removes). All are BMP. */
const PY_WHITESPACE = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** The same set as a regex character-class body, for porting Python's `\s`. */
export const PY_WHITESPACE_CLASS = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** A surrogate anywhere: only then do code points and UTF-16 units differ. */
const SURROGATE = /[\ud800-\udfff]/;

/** Python `len(s)`: the number of code points (a lone surrogate counts as one). */
export function codePointLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length; // one native scan instead of a loop in cold code
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    if (isHighSurrogate(s.charCodeAt(i)) && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1))) i++;
    count++;
  }
  return count;
}

/** The UTF-16 offset of code point number `index` (clamped to the string). */
export function unitOffset(s: string, index: number): number {
  if (index <= 0) return 0;
  if (!SURROGATE.test(s)) return Math.min(index, s.length);
  let seen = 0;
  for (let i = 0; i < s.length; i++) {
    if (seen === index) return i;
    if (isHighSurrogate(s.charCodeAt(i)) && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1))) i++;
    seen++;
  }
  return s.length;
}

/** Python `s[start:end]` in code points, negative indices included. */
export function sliceCodePoints(s: string, start: number, end?: number): string {
  const needsLength = start < 0 || (end !== undefined && end < 0);
  const length = needsLength ? codePointLength(s) : 0;
  const from = start < 0 ? Math.max(0, length + start) : start;
  const to = end === undefined ? undefined : end < 0 ? Math.max(0, length + end) : end;
  const a = unitOffset(s, from);
  const b = to === undefined ? s.length : unitOffset(s, to);
  return b > a ? s.slice(a, b) : '';
}

/** Python `s.strip(chars)`; without `chars`, Python's whitespace set. */
export function pyStrip(s: string, chars?: string): string {
  return pyRstrip(pyLstrip(s, chars), chars);
}

export function pyLstrip(s: string, chars?: string): string {
  const strip = stripTest(chars);
  let i = 0;
  while (i < s.length && strip(s.charCodeAt(i))) i++;
  return s.slice(i);
}

export function pyRstrip(s: string, chars?: string): string {
  const strip = stripTest(chars);
  let j = s.length;
  while (j > 0 && strip(s.charCodeAt(j - 1))) j--;
  return s.slice(0, j);
}

const isPyWhitespace = (unit: number) => PY_WHITESPACE.has(unit);
/** The tests of the few `chars` arguments used, made once: strips run for every skill of a profile. */
const charTests = new Map<string, (unit: number) => boolean>();

function stripTest(chars: string | undefined): (unit: number) => boolean {
  if (chars === undefined) return isPyWhitespace;
  let test = charTests.get(chars);
  if (!test) {
    const set = new Set(Array.from(chars, (c) => c.charCodeAt(0)));
    test = (unit) => set.has(unit);
    if (charTests.size < 32) charTests.set(chars, test);
  }
  return test;
}

/**
 * Python's default string order (code points), unlike JS `<` which compares UTF-16 units. Only
 * the sign counts. The two orders differ only where a surrogate is involved, so units are compared
 * directly up to the first difference, and only a difference at a surrogate (or a prefix ending in
 * one) takes the code-point walk: sorting a thousand paths allocated arrays for every comparison.
 */
export function compareCodePoints(a: string, b: string): number {
  const common = Math.min(a.length, b.length);
  let i = 0;
  while (i < common && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const x = i < a.length ? a.charCodeAt(i) : -1;
  const y = i < b.length ? b.charCodeAt(i) : -1;
  if (!isSurrogate(x) && !isSurrogate(y)) return x - y; // -1: one string ends; both end: 0
  return compareCodePointArrays(a, b);
}

/**
 * `list` sorted in place by code point (Python's `sorted`). Without surrogates UTF-16 order is
 * code-point order, and the engine's own string comparison sorts a thousand paths at no cost.
 */
export function sortByCodePoints(list: string[]): string[] {
  return list.some((s) => SURROGATE.test(s)) ? list.sort(compareCodePoints) : list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function isSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdfff;
}

function compareCodePointArrays(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python `f"{n:,}"` for integers. */
export function formatThousands(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Python `str(value)` for the values YAML frontmatter can hold (str, int, float, bool, None, list, dict, date). */
export function pyStr(value: unknown): string {
  if (typeof value === 'string') return value;
  return pyRepr(value, false);
}

function pyRepr(value: unknown, nested: boolean): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value > 0 ? 'inf' : value < 0 ? '-inf' : 'nan';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return nested ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (Array.isArray(value)) return `[${value.map((v) => pyRepr(v, true)).join(', ')}]`;
  if (typeof value === 'object') {
    const items = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyRepr(k, true)}: ${pyRepr(v, true)}`);
    return `{${items.join(', ')}}`;
  }
  return String(value);
}
