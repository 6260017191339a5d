// The report as plain JSON (undefined → null), one shape for `hermes-lens status --json` and the
// language server's session list, so both always say the same thing.
import type { StaleReason } from '../model';
import { sameReasons } from './staleness';
import { VERDICT_FIELDS } from './sessionReport';
import { adoptionJson } from '../refresh/adoptionWords';
import type { ProfileReport, SessionReport } from './types';

/** The two field functions most fields share (plain, orNull): the compiled code writes them out instead of calling them. */
const PLAIN = (value: unknown) => value;
const OR_NULL = (value: unknown) => value ?? null;

/**
 * The one definition of a session's JSON: each field is the report field of the same name as the
 * function given here writes it, and depends on nothing else. So a field whose report value is the
 * same has the same JSON: what lets the language server tell the fields a client must be sent from
 * the report fields themselves (changedSessionFields), without making JSON to compare.
 */
const SESSION_JSON = {
  profile: plain(),
  id: plain(),
  title: orNull(),
  source: orNull(),
  model: orNull(),
  provider: orNull(),
  state: plain(),
  reasons: (v) => v.map(reasonJson),
  otherBuild: orNull(),
  tipSessionId: orNull(),
  lastActivityAt: orNull(),
  requestedEpoch: plain(),
  stampedEpoch: plain(),
  unadoptableRequest: plain(),
  adoption: adoptionJson,
  systemPromptTokens: plain(),
  toolTokens: plain(),
  prefixTokens: plain(),
  tokensExact: plain(),
  deltaTokens: plain(),
  ttlSeconds: plain(),
  cacheWarm: plain(),
  cacheExpiresAt: orNull(),
  refreshCostUsd: usdJson,
  refreshCostColdUsd: usdJson,
  apiEquivalent: plain(),
} satisfies { readonly [K in keyof SessionReport]?: (value: SessionReport[K]) => unknown };

export type SessionJsonField = keyof typeof SESSION_JSON;
export type SessionJson = { -readonly [K in SessionJsonField]: ReturnType<(typeof SESSION_JSON)[K]> };

/**
 * Fields whose JSON is compared without making it (the others: their JSON values, by sameJsonValue).
 * Reasons are usually the very same array (judgement.ts keeps it while they read the same), and
 * their JSON carries the four fields sameReasons compares (reasonJson).
 */
const SAME_JSON: { readonly [K in SessionJsonField]?: (a: SessionReport[K], b: SessionReport[K]) => boolean } = {
  reasons: sameReasons,
  refreshCostUsd: sameUsdJson,
  refreshCostColdUsd: sameUsdJson,
};

/** The session's JSON fields in their order; bit f of a SessionFieldSet stands for SESSION_JSON_FIELDS[f]. */
export const SESSION_JSON_FIELDS = Object.keys(SESSION_JSON) as readonly SessionJsonField[];

/** A set of a session's JSON fields as bits (an integer: sets are made and compared without allocating). */
export type SessionFieldSet = number;
if (SESSION_JSON_FIELDS.length > 31) throw new Error('a SessionFieldSet holds 31 fields at most');

/**
 * A session's JSON, every field. Compiled from SESSION_JSON into one object literal,
 * `{ "profile": s["profile"], "title": s["title"] ?? null, "reasons": json["reasons"](s["reasons"]), … }`:
 * as fast as a hand-written literal, where a loop setting the fields one by one makes a list of
 * thousands of sessions several times slower.
 */
export const sessionJson = compiled<(s: SessionReport) => SessionJson>(`
  return function sessionJson(s) {
    return { ${SESSION_JSON_FIELDS.map((f) => `${q(f)}: ${fieldJsonCode(f, `s[${q(f)}]`)}`).join(', ')} };
  };`);

/**
 * The fields whose JSON differs between two reports of a session (0: none). Compiled into one test
 * per field, `a.f !== b.f && !sameF(a.f, b.f)`: most report values are the same, and that alone
 * says the JSON is; else `sameF`, a function of that field alone, compares their JSON (so V8 can
 * inline each and keep numbers unboxed). A loop calling each field's functions instead was 5×
 * slower on the 2,000 sessions a save changes.
 */
export const changedSessionFields = fieldsComparer('changedSessionFields', SESSION_JSON_FIELDS);

/**
 * changedSessionFields of the verdict's fields alone, for a report compared with a copy of the
 * same report object (updated in place since: only its verdict can differ, sessionReport.ts).
 */
export const changedVerdictFields = fieldsComparer(
  'changedVerdictFields',
  SESSION_JSON_FIELDS.filter((f) => (VERDICT_FIELDS as readonly string[]).includes(f)),
);

/** A function telling which of `fields` differ in JSON between two reports, as a SessionFieldSet. */
function fieldsComparer(name: string, fields: readonly SessionJsonField[]): (sent: SessionReport, now: SessionReport) => SessionFieldSet {
  const bitOf = (f: SessionJsonField) => SESSION_JSON_FIELDS.indexOf(f);
  return compiled(`
  ${fields.map((f) => `const same${bitOf(f)} = ${sameJsonCode(f)};`).join('\n  ')}
  return function ${name}(a, b) {
    let set = 0;
    ${fields.map((f) => `if (a[${q(f)}] !== b[${q(f)}] && !same${bitOf(f)}(a[${q(f)}], b[${q(f)}])) set |= ${1 << bitOf(f)};`).join('\n    ')}
    return set;
  };`);
}

/**
 * Field SESSION_JSON_FIELDS[f] of `s`'s JSON. Compiled into a switch with a case per field, for the
 * same reason: looking the field and its function up by name was slower than making all of the JSON.
 */
export const sessionFieldJson = compiled<(s: SessionReport, f: number) => unknown>(`
  return function sessionFieldJson(s, f) {
    switch (f) {
      ${SESSION_JSON_FIELDS.map((f, bit) => `case ${bit}: return ${fieldJsonCode(f, `s[${q(f)}]`)};`).join('\n      ')}
    }
  };`);

/**
 * The report fields a session's JSON is made from, copied: what a client was sent of a session,
 * to compare later reports with (changedSessionFields takes it in place of the report it copies).
 * Compiled into one object literal, so every copy has the same shape.
 */
export const sessionFieldsCopy = compiled<(s: SessionReport) => SessionReport>(`
  return function sessionFieldsCopy(s) {
    return { ${SESSION_JSON_FIELDS.map((f) => `${q(f)}: s[${q(f)}]`).join(', ')} };
  };`);

/** Copies the `fields` (a SessionFieldSet) of `from` into a sessionFieldsCopy, compiled into one test per field. */
export const copySessionFields = compiled<(into: SessionReport, from: SessionReport, fields: SessionFieldSet) => void>(`
  return function copySessionFields(into, from, fields) {
    ${SESSION_JSON_FIELDS.map((f, bit) => `if (fields & ${1 << bit}) into[${q(f)}] = from[${q(f)}];`).join('\n    ')}
  };`);

/**
 * The JSON of the field `f` whose report value is the expression `value`, as code: the value itself or
 * `?? null` where the field's function is one of those two (no call for each), else the call.
 */
function fieldJsonCode(f: SessionJsonField, value: string): string {
  const make = SESSION_JSON[f] as unknown;
  return make === PLAIN ? value : make === OR_NULL ? `(${value} ?? null)` : `json[${q(f)}](${value})`;
}

/** Code of a function telling whether two report values of field `f` have the same JSON. */
function sameJsonCode(f: SessionJsonField): string {
  return f in SAME_JSON ? `sameJson[${q(f)}]` : `(x, y) => sameJsonValue(json[${q(f)}](x), json[${q(f)}](y))`;
}

/** What `code` returns, run where it sees the field definitions above as `json`, `sameJson` and `sameJsonValue`. */
function compiled<F>(code: string): F {
  // Field names come from SESSION_JSON's keys and go in as string literals: no outside text.
  return new Function('json', 'sameJson', 'sameJsonValue', code)(SESSION_JSON, SAME_JSON, sameJsonValue) as F;
}

/** The JSON of a field that is its report value as it is. */
function plain<T>(): (value: T) => T {
  return PLAIN as (value: T) => T;
}

/** The JSON of a field that is its report value, null where that is undefined. */
function orNull<T>(): (value: T | undefined) => T | null {
  return OR_NULL as (value: T | undefined) => T | null;
}

/** A field name as a string literal of the compiled code. */
function q(field: string): string {
  return JSON.stringify(field);
}

/**
 * Dollars in JSON: to a hundred-millionth (float noise such as 0.12276200000000001 is neither
 * information nor free to send 2,000 times per save); null when unknown.
 */
export function usdJson(amount: number | undefined): number | null {
  return amount === undefined ? null : Math.round(amount * 1e8) / 1e8;
}

/** Whether two amounts have the same usdJson, compared as integers (no number made per comparison). */
function sameUsdJson(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const x = Math.round(a * 1e8);
  const y = Math.round(b * 1e8);
  // NaN goes out as null, as sameJsonValue has it.
  return x === y || (x !== x && y !== y);
}

/** The same value once in JSON: undefined and null are both null, and so is NaN (numbers compare by value). */
function sameJsonValue(a: unknown, b: unknown): boolean {
  return a === b || (a == null && b == null) || (a !== a && b !== b);
}

export function reasonJson(r: StaleReason) {
  return { source: r.source, path: r.path, change: r.change, detail: r.detail };
}

/** A profile without its sessions (for updates that carry only the sessions that changed). */
export function profileSummaryJson(r: ProfileReport) {
  return {
    name: r.name,
    home: r.home,
    dbFile: r.dbFile,
    active: r.isActive,
    unavailable: r.unavailable ?? null,
    storedPromptSessions: r.storedPromptSessions,
    requestedEpoch: r.requestedEpoch,
    adoption: { ...r.adoption },
    problems: [...r.problems],
    totals: { ...r.totals, staleRefreshCostUsd: usdJson(r.totals.staleRefreshCostUsd) ?? 0 },
  };
}
