// YAML frontmatter as Hermes reads it (HERMES-FORMATS §4 `SU.parse_frontmatter`, §3.3
// `PB._strip_yaml_frontmatter`). Two different rules exist in Hermes and both are reproduced here:
// skills and DESCRIPTION.md need a closing fence followed by a newline; `.hermes.md` does not.
import { PY_WHITESPACE_CLASS, pyStrip } from './pyText';
import { yamlLibrary } from './yamlLibrary';

export interface Frontmatter {
  /** The parsed mapping; undefined when the text has no frontmatter (no opening or closing fence). */
  readonly data: Record<string, unknown> | undefined;
  /** The text after the closing fence (the whole text without frontmatter). */
  readonly body: string;
  /** 0-based line of the text (BOM dropped) where the body starts. */
  readonly bodyStartLine: number;
  /** Why the frontmatter is not what Hermes expects; Hermes then falls back or ignores it. */
  readonly problem?: { readonly message: string; readonly line: number };
}

// Python `re.search(r"\n---\s*\n", ...)`, with Python's Unicode `\s`.
const CLOSING_FENCE = new RegExp(`\\n---[${PY_WHITESPACE_CLASS}]*\\n`);

/**
 * Where the YAML between the fences is, as UTF-16 offsets of `text` (a leading BOM counted), or
 * undefined when there is no opening `---` or no closing fence (`SU.parse_frontmatter`'s rule).
 */
export function frontmatterYamlSpan(text: string): { start: number; end: number } | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith('---', bom)) return undefined;
  const fence = CLOSING_FENCE.exec(text.slice(bom + 3));
  return fence ? { start: bom + 3, end: bom + 3 + fence.index } : undefined;
}

/** `SU.parse_frontmatter`; never throws. */
export function parseFrontmatter(text: string): Frontmatter {
  const content = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!content.startsWith('---')) return { data: undefined, body: content, bodyStartLine: 0 };
  const fence = CLOSING_FENCE.exec(content.slice(3));
  if (!fence) {
    return {
      data: undefined,
      body: content,
      bodyStartLine: 0,
      problem: { message: 'The frontmatter opened by "---" has no closing "---" line, so Hermes ignores it. Add a "---" line after the last key.', line: 0 },
    };
  }
  const yamlText = content.slice(3, fence.index + 3);
  const bodyStart = fence.index + fence[0].length + 3;
  const body = content.slice(bodyStart);
  const bodyStartLine = countNewlines(content, bodyStart);
  const simple = simpleMapping(yamlText);
  if (simple) return { data: simple, body, bodyStartLine };
  try {
    // PyYAML's SafeLoader speaks YAML 1.1 and lets a repeated key win silently.
    const parsed: unknown = yamlLibrary().parse(yamlText, { version: '1.1', uniqueKeys: false, prettyErrors: true, logLevel: 'error' });
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && !(parsed instanceof Date)) {
      return { data: parsed as Record<string, unknown>, body, bodyStartLine };
    }
    const problem = parsed === null || parsed === undefined
      ? undefined
      : { message: 'The frontmatter is not a mapping of keys, so Hermes ignores it. Write it as "key: value" lines.', line: 1 };
    return { data: {}, body, bodyStartLine, ...(problem ? { problem } : {}) };
  } catch (error) {
    return { data: fallbackKeyValues(yamlText), body, bodyStartLine, problem: yamlProblem(error, yamlText) };
  }
}

// Most frontmatter is a few `key: plain words` lines. Those are read without the YAML parser (a
// thousand skills took a third of a second of parsing): keys and values that YAML 1.1 reads as plain
// strings only (starting with a letter, no quotes, colons, comments, flow or block indicators, no
// yes/no/on/off/null words), one per line, or a long value wrapped onto indented lines of such words
// (a multi-line plain scalar: YAML folds each line break into one space), or a one-line quoted
// value without escapes (a description holding ": " is usually quoted). Anything else goes to the
// parser.
const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const SIMPLE_VALUE = /^[A-Za-z][A-Za-z0-9 .,;?()/+=$~^_'\u00c0-\u024f\u2013\u2014\u2018\u2019\u201c\u201d-]*$/;
const YAML11_WORDS = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/;
/** YAML11_WORDS, asked only of words short enough to be one (a regex call per line was felt over a thousand skills). */
function isYaml11Word(text: string): boolean {
  return text.length <= 5 && YAML11_WORDS.test(text);
}

/** What a quoted scalar read verbatim must not hold: controls, BOM, surrogates, non-characters. */
const NOT_VERBATIM = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]/;

/**
 * The string a `'…'` or `"…"` value stands for when it is read verbatim: no quote inside (an
 * escaped `''` included), no backslash in double quotes; else undefined.
 */
function verbatimQuoted(written: string): string | undefined {
  const quote = written[0];
  if ((quote !== '"' && quote !== "'") || written.length < 2 || !written.endsWith(quote)) return undefined;
  const inner = written.slice(1, -1);
  if (inner.includes(quote) || (quote === '"' && inner.includes('\\')) || NOT_VERBATIM.test(inner)) return undefined;
  return inner;
}

/** The mapping of `key: value` lines when every line is that simple, else undefined. */
export function simpleMapping(yamlText: string): Record<string, string> | undefined {
  const lines = simpleLines(yamlText);
  if (!lines) return undefined;
  const data: Record<string, string> = {};
  for (const line of lines) data[line.key] = line.value;
  return data;
}

interface SimpleLine {
  readonly key: string;
  /** Where the value is written (offsets in `yamlText`; a wrapped value spans its lines). */
  readonly start: number;
  readonly end: number;
  /** The value YAML reads: the written words, each line break folded into one space. */
  readonly value: string;
}

/** Each simple entry's key, value and where it is written; undefined unless all are simple. */
function simpleLines(yamlText: string): SimpleLine[] | undefined {
  if (!yamlText.startsWith('\n')) return undefined;
  const out: SimpleLine[] = [];
  let open: { key: string; start: number; end: number; parts: string[]; quoted: boolean } | undefined;
  let blankSinceOpen = false;
  const close = () => {
    if (open) out.push({ key: open.key, start: open.start, end: open.end, value: open.parts.join(' ') });
    open = undefined;
  };
  for (let at = 1; at <= yamlText.length; ) {
    const next = yamlText.indexOf('\n', at);
    const lineEnd = next < 0 ? yamlText.length : next;
    const line = yamlText.slice(at, lineEnd);
    if (line === '') {
      blankSinceOpen = true;
    } else if (line.charCodeAt(0) === 0x20) {
      // A wrapped value's next line. After a blank line YAML would keep a line break: the parser's job.
      if (!open || blankSinceOpen || open.quoted) return undefined;
      const { start, end } = trimmedSpaces(line, 0);
      const words = line.slice(start, end);
      if (!SIMPLE_VALUE.test(words)) return undefined;
      open.parts.push(words);
      open.end = at + end;
    } else {
      close();
      const colon = line.indexOf(': ');
      if (colon <= 0) return undefined;
      const key = line.slice(0, colon);
      if (!SIMPLE_KEY.test(key) || isYaml11Word(key) || key === '__proto__') return undefined;
      const { start, end } = trimmedSpaces(line, colon + 2);
      const value = line.slice(start, end);
      const quoted = verbatimQuoted(value);
      if (quoted === undefined && (!SIMPLE_VALUE.test(value) || isYaml11Word(value))) return undefined;
      open = { key, start: at + start, end: at + end, parts: [quoted ?? value], quoted: quoted !== undefined };
      blankSinceOpen = false;
    }
    at = lineEnd + 1;
  }
  close();
  return out.length > 0 ? out : undefined;
}

/** The part of `line` from `from` without the spaces around it. */
function trimmedSpaces(line: string, from: number): { start: number; end: number } {
  let start = from;
  while (line.charCodeAt(start) === 0x20) start++;
  let end = line.length;
  while (end > start && line.charCodeAt(end - 1) === 0x20) end--;
  return { start, end };
}

/** Hermes' fallback for malformed YAML: every `key: value` line, split at the first colon. */
function fallbackKeyValues(yamlText: string): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const line of pyStrip(yamlText).split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    data[pyStrip(line.slice(0, colon))] = pyStrip(line.slice(colon + 1));
  }
  return data;
}

function yamlProblem(error: unknown, yamlText: string): { message: string; line: number } {
  const linePos = (error as { linePos?: Array<{ line: number }> }).linePos;
  // YAML line 1 is the rest of the opening `---` line, i.e. line 0 of the file. An error found at
  // the very end (an unclosed bracket or quote) is shown on the last line that holds YAML.
  const lines = yamlText.split('\n');
  let lastFilled = lines.length - 1;
  while (lastFilled > 0 && !pyStrip(lines[lastFilled]!)) lastFilled--;
  const line = linePos?.[0] ? Math.min(Math.max(0, linePos[0].line - 1), lastFilled) : 0;
  // The parser's own "at line N" counts from the opening fence's line: leave it out.
  const first = String((error as Error).message ?? error).split('\n')[0]!.replace(/ at line \d+, column \d+:?\s*$/, '');
  return { message: `The frontmatter is not valid YAML (${first}); Hermes falls back to reading plain "key: value" lines, so values may differ. Fix the YAML, e.g. quote a value that holds ": " or starts with [, {, *, & or !.`, line };
}

function countNewlines(text: string, end: number): number {
  // indexOf jumps from line to line natively: cold code walking every character was slower.
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * Where the value of the top-level `key` is written in `text` (UTF-16 offsets of `text`; for a
 * quoted or block scalar the quotes and indicators are included), to point
 * at it. The last of repeated keys wins, as in PyYAML. Malformed YAML: the rest of the `key:` line.
 * `key` is a plain identifier (`description`, `name`).
 */
export function frontmatterValueSpan(text: string, key: string): { start: number; end: number } | undefined {
  const yaml = frontmatterYamlSpan(text);
  if (!yaml) return undefined;
  const yamlText = text.slice(yaml.start, yaml.end);
  const base = yaml.start;
  const simple = simpleLines(yamlText);
  if (simple) {
    const last = simple.filter((l) => l.key === key).pop();
    return last ? { start: base + last.start, end: base + last.end } : undefined;
  }
  try {
    const { isMap, isScalar, parseDocument } = yamlLibrary();
    const doc = parseDocument(yamlText, { version: '1.1', uniqueKeys: false, logLevel: 'silent' });
    if (doc.errors.length === 0 && isMap(doc.contents)) {
      let span: { start: number; end: number } | undefined;
      for (const pair of doc.contents.items) {
        if (!isScalar(pair.key) || String(pair.key.value) !== key) continue;
        const range = (pair.value as { range?: [number, number, number] } | null)?.range;
        if (range) span = { start: base + range[0], end: base + range[1] };
      }
      return span;
    }
  } catch {
    // fall through to the line-based reading Hermes falls back to
  }
  const line = new RegExp(`^${key}[ \t]*:[ \t]*(.*)$`, 'm').exec(yamlText);
  if (!line) return undefined;
  const end = base + line.index + line[0].length;
  return { start: end - line[1]!.length, end };
}

/**
 * `PB._strip_yaml_frontmatter` for `.hermes.md`/`HERMES.md` (already stripped text): the closing
 * fence is the first `\n---` after offset 3, with no newline required after it.
 */
export function stripHermesMdFrontmatter(text: string): string {
  let s = text;
  while (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  if (!s.startsWith('---')) return s;
  const end = s.indexOf('\n---', 3);
  if (end === -1) return s;
  return s.slice(end + 4).replace(/^\n+/, '') || s;
}
