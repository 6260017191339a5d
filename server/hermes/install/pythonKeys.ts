// The refresh protocol's names as one Python source writes them: string literals naming a
// `state_meta` key (`db.get_meta("…")`, `set_meta(f"…:{session_id}")`, SQL on state_meta) or a
// `model_config` key (`model_config["…"]`, `.get("…")`, `{**model_config, "…": epoch}`,
// `json_extract(model_config, '$.…')`), directly or through a module constant. Only names that
// say "refresh" or "epoch" count: the same modules keep other bookkeeping in state_meta.
import type { PySource } from '../text/pySource';

export interface KeyFinding {
  readonly file: string;
  /** Literals used as the profile-wide request's key in state_meta. */
  readonly request: string[];
  /** Literals used as a model_config key. */
  readonly stamp: string[];
  /** Heads of per-session request keys (`f"…:{session_id}"`, `"…:" + session_id`), separator included. */
  readonly sessionPrefix: string[];
  /** Module constants holding a key-like literal: `NAME = "…"`. */
  readonly constants: Map<string, string>;
  /** Constants used as such keys (resolved against every file's constants). */
  readonly requestConstants: string[];
  readonly stampConstants: string[];
  readonly prefixConstants: string[];
  /** For each prefix constant, the separator written after it (`f"{NAME}:{id}"`), '' for `NAME + id`. */
  readonly prefixSeparator: Map<string, string>;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_.:-]{2,100}$/;
const SAYS_REFRESH = /refresh|epoch/i;
const SEPARATOR = /[:/.#|-]$/;
/** Code right before a state_meta key: a call of a meta accessor (`get_meta(`, `db.set_meta(key=`). */
const META_CALL = /\b\w*meta\w*\s*\(\s*(?:key\s*=\s*)?$/i;
/** Code right before a model_config key. */
const STAMP_ACCESS = [
  /model_config\w*\s*(?:\[|\.(?:get|setdefault|pop)\()\s*$/,
  /\*\*\s*[\w.]*model_config\w*\s*,[^{}]*$/, // {**model_config, "…": epoch}
  /model_config\w*\([^()]*\{[^{}]*$/, // update_model_config(sid, {"…": epoch})
];
/** `NAME = ` (an annotation allowed) right before a literal. */
const CONSTANT = /(?:^|\n)[ \t]*([A-Z_][A-Z0-9_]*)[ \t]*(?::[ \t]*[\w.[\], ]+)?=[ \t]*$/;
const CONSTANT_NAME = String.raw`([A-Z_][A-Z0-9_]*)`;

export function isKeyLike(value: string): boolean {
  return KEY.test(value) && SAYS_REFRESH.test(value) && value !== 'refresh-prompts' && !value.endsWith('.py');
}

export function keysNamedIn(source: PySource, file: string): KeyFinding {
  const { strings, code } = source;
  const found: KeyFinding = {
    file,
    request: [],
    stamp: [],
    sessionPrefix: [],
    constants: new Map(),
    requestConstants: [],
    stampConstants: [],
    prefixConstants: [],
    prefixSeparator: new Map(),
  };
  for (const s of strings) {
    if (s.prefix.includes('b')) continue;
    const v = s.value;
    const before = code.slice(Math.max(0, s.start - 160), s.start);
    if (/\bstate_meta\b/.test(v)) for (const m of v.matchAll(/'([^'\s]+)'/g)) if (isKeyLike(m[1]!)) found.request.push(m[1]!);
    if (/\bmodel_config\b/.test(v)) for (const m of v.matchAll(/'\$\.([A-Za-z_]\w*)'/g)) if (isKeyLike(m[1]!)) found.stamp.push(m[1]!);
    if (s.prefix.includes('f') && v.includes('{')) {
      fStringKey(v, found);
      continue;
    }
    if (!isKeyLike(v)) continue;
    const after = code.slice(s.end, s.end + 8);
    if (SEPARATOR.test(v) && /^\s*\+/.test(after)) found.sessionPrefix.push(v);
    else if (META_CALL.test(before)) found.request.push(v);
    else if (STAMP_ACCESS.some((r) => r.test(before))) found.stamp.push(v);
    else {
      const constant = CONSTANT.exec(before);
      if (constant) found.constants.set(constant[1]!, v);
    }
  }
  constantUses(code, found);
  return found;
}

/** `f"prompt_refresh_epoch:{session_id}"` or `f"{KEY}:{session_id}"`: a per-session key's head. */
function fStringKey(v: string, found: KeyFinding): void {
  const head = v.slice(0, v.indexOf('{'));
  if (head && SEPARATOR.test(head) && isKeyLike(head.slice(0, -1))) {
    found.sessionPrefix.push(head);
    return;
  }
  const named = new RegExp(String.raw`^\{${CONSTANT_NAME}\}([:/.#|-])\{`).exec(v);
  if (named) {
    found.prefixConstants.push(named[1]!);
    found.prefixSeparator.set(named[1]!, named[2]!);
  }
}

/** Constants used as keys: `get_meta(KEY)`, `get_meta(PREFIX + sid)`, `model_config[KEY]`, `{**model_config, KEY: e}`. */
function constantUses(code: string, found: KeyFinding): void {
  for (const m of code.matchAll(new RegExp(String.raw`\b\w*meta\w*\s*\(\s*(?:key\s*=\s*)?${CONSTANT_NAME}\s*([+),])`, 'gi'))) {
    const name = m[1]!;
    if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) continue;
    if (m[2] === '+') {
      found.prefixConstants.push(name);
      found.prefixSeparator.set(name, '');
    } else {
      found.requestConstants.push(name);
    }
  }
  for (const m of code.matchAll(new RegExp(String.raw`model_config\w*\s*(?:\[|\.(?:get|setdefault|pop)\()\s*${CONSTANT_NAME}\b`, 'g'))) found.stampConstants.push(m[1]!);
  for (const m of code.matchAll(new RegExp(String.raw`\*\*\s*[\w.]*model_config\w*\s*,[^{}]*?\b${CONSTANT_NAME}\s*:`, 'g'))) found.stampConstants.push(m[1]!);
}
