// YAML frontmatter as Hermes reads it (HERMES-FORMATS §4 `SU.parse_frontmatter`, §3.3
// `PB._strip_yaml_frontmatter`). Two different rules exist in Hermes and both are reproduced here:
// skills and DESCRIPTION.md need a closing fence followed by a newline; `.hermes.md` does not.
import { parse } from 'yaml';
import { PY_WHITESPACE_CLASS, pyStrip } from './pyText';

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
      problem: { message: 'The frontmatter opened by "---" has no closing "---" line, so Hermes ignores it.', line: 0 },
    };
  }
  const yamlText = content.slice(3, fence.index + 3);
  const bodyStart = fence.index + fence[0].length + 3;
  const body = content.slice(bodyStart);
  const bodyStartLine = countNewlines(content, bodyStart);
  try {
    // PyYAML's SafeLoader speaks YAML 1.1 and lets a repeated key win silently.
    const parsed: unknown = parse(yamlText, { version: '1.1', uniqueKeys: false, prettyErrors: true, logLevel: 'error' });
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && !(parsed instanceof Date)) {
      return { data: parsed as Record<string, unknown>, body, bodyStartLine };
    }
    const problem = parsed === null || parsed === undefined
      ? undefined
      : { message: 'The frontmatter is not a mapping of keys, so Hermes ignores it.', line: 1 };
    return { data: {}, body, bodyStartLine, ...(problem ? { problem } : {}) };
  } catch (error) {
    return { data: fallbackKeyValues(yamlText), body, bodyStartLine, problem: yamlProblem(error) };
  }
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

function yamlProblem(error: unknown): { message: string; line: number } {
  const linePos = (error as { linePos?: Array<{ line: number }> }).linePos;
  // YAML line 1 is the rest of the opening `---` line, i.e. line 0 of the file.
  const line = linePos?.[0] ? Math.max(0, linePos[0].line - 1) : 0;
  const first = String((error as Error).message ?? error).split('\n')[0];
  return { message: `The frontmatter is not valid YAML (${first}); Hermes falls back to reading plain "key: value" lines.`, line };
}

function countNewlines(text: string, end: number): number {
  let lines = 0;
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 0x0a) lines++;
  return lines;
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
