// A config.yaml value that names skills (`skills.disabled`, each `skills.platform_disabled` list), read
// as Hermes reads it (`_normalize_string_set` over `parse_config_string_list` in agent/skill_utils.py,
// 0.20.3): a list; a string that is a Python or JSON list literal (what `hermes config set` and JSON-mode
// editors store); else a string is one name; anything else names nothing. Each name is stripped, and
// empty ones dropped. Checked against Hermes' own reader (test/fixtures/hermes-builds/config-readings.json).

export function configNames(value: unknown): string[] {
  const names = new Set<string>();
  for (const name of stringList(value)) if (name.trim()) names.add(name.trim());
  return [...names];
}

function stringList(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') {
    const stripped = value.trim();
    const parsed = stripped.startsWith('[') ? listLiteral(stripped) : undefined;
    return parsed ?? [value];
  }
  return Array.isArray(value) ? value.map(pythonStr) : [];
}

/** Python's `str()` of a YAML scalar. */
export function pythonStr(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  return String(value);
}

// One item of a literal list: a quoted string, a number, True/False/None.
const ITEM = /\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)|(True|False|None))\s*/y;
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

/**
 * `ast.literal_eval` of a flat list literal, its items as `str()` gives them; undefined for anything
 * else (Hermes then takes the string for one name).
 */
function listLiteral(text: string): string[] | undefined {
  if (!text.endsWith(']')) return undefined;
  const items: string[] = [];
  let at = 1;
  const end = text.length - 1;
  if (text.slice(1, end).trim() === '') return items;
  for (;;) {
    ITEM.lastIndex = at;
    const match = ITEM.exec(text);
    if (!match || match.index !== at) return undefined;
    const quoted = match[1] ?? match[2];
    items.push(quoted !== undefined ? unescape(quoted) : match[3] ?? match[4]!);
    at = ITEM.lastIndex;
    if (at === end) return items;
    if (text[at] !== ',') return undefined;
    at++;
    // A trailing comma closes the list as well.
    if (text.slice(at, end).trim() === '') return items;
  }
}

function unescape(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (whole, code: string) =>
    code.length > 1 ? String.fromCharCode(parseInt(code.slice(1), 16)) : (ESCAPES[code] ?? whole),
  );
}
