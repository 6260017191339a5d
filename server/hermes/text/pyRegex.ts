// Ports a Python `re` pattern (str pattern, Unicode mode) to a JS RegExp with the `u` flag. The
// differences that matter for Hermes' threat patterns: Python's `\w`, `\s` and `\b` are Unicode-aware
// while JS's are ASCII-only (or differently sized for `\s`), and Python accepts identity escapes such
// as `\'` or `\~` that the `u` flag rejects.
import { PY_WHITESPACE_CLASS } from './pyText';

const WORD_CLASS_BODY = '\\p{L}\\p{N}_';
const WORD = `[${WORD_CLASS_BODY}]`;
/** Python `\b`: a change between a word character and anything else (or an edge). */
const WORD_BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;
const NOT_WORD_BOUNDARY = `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`;
/** Characters JS allows after a backslash in `u` mode without changing their meaning. */
const SYNTAX_CHARS = new Set('^$\\.*+?()[]{}|/'.split(''));

/** The JS source of a Python pattern; throws on constructs Hermes' patterns never use. */
export function pythonPatternToJs(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) throw new Error(`Dangling backslash in ${source}`);
      i++;
      out += escapeToJs(next, inClass, source);
      continue;
    }
    if (!inClass && c === '[') {
      inClass = true;
      out += c;
      if (source[i + 1] === '^') out += source[++i];
      // Python takes a `]` right after `[` or `[^` literally.
      if (source[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (inClass && c === ']') inClass = false;
    out += c;
  }
  return out;
}

function escapeToJs(c: string, inClass: boolean, source: string): string {
  switch (c) {
    case 'w':
      return inClass ? WORD_CLASS_BODY : WORD;
    case 'W':
      if (inClass) throw new Error(`\\W inside a class is not supported: ${source}`);
      return `[^${WORD_CLASS_BODY}]`;
    case 's':
      return inClass ? PY_WHITESPACE_CLASS : `[${PY_WHITESPACE_CLASS}]`;
    case 'S':
      if (inClass) throw new Error(`\\S inside a class is not supported: ${source}`);
      return `[^${PY_WHITESPACE_CLASS}]`;
    case 'd':
      return inClass ? '\\p{Nd}' : '\\p{Nd}';
    case 'b':
      if (inClass) return '\\x08';
      return WORD_BOUNDARY;
    case 'B':
      return NOT_WORD_BOUNDARY;
    case 'n':
    case 't':
    case 'r':
    case 'f':
    case 'v':
      return `\\${c}`;
    case '-':
      return inClass ? '\\-' : '-';
    default:
      if (SYNTAX_CHARS.has(c)) return `\\${c}`;
      if (/[A-Za-z0-9]/.test(c)) throw new Error(`Unsupported escape \\${c} in ${source}`);
      // Python's identity escapes (`\'`, `\"`, `\~`, ...) are plain characters.
      return c;
  }
}
