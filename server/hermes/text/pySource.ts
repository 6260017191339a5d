// Python source as far as the lens reads it without running it: its string literals and the code
// around them, comments left out. Enough to find a subcommand's name (`add_parser("x")`) and the
// keys a module names (`get_meta("k")`) in a Hermes installation; not a Python parser.

export interface PyString {
  /** The literal's text between its quotes, escapes left as written. */
  readonly value: string;
  /** Its prefix, lower-cased: '', 'f', 'r', 'b', 'u', 'rb', 'fr', … */
  readonly prefix: string;
  /** Where the literal (its prefix) starts and where it ends, after the closing quote. */
  readonly start: number;
  readonly end: number;
}

export interface PySource {
  readonly strings: readonly PyString[];
  /**
   * The text with every comment blanked and every string literal's content blanked (its quotes
   * kept), at the same offsets: code to look around a literal in, where no text of another
   * literal or of a comment can pass for code.
   */
  readonly code: string;
}


/** Where a comment or a string literal may begin. */
const NEXT = /[#"']/g;
/** The rest of a literal after its opening quote, through its closing quote (a lone one ends at the line's end). */
const REST: Record<string, RegExp> = {
  '"""': /(?:[^"\\]|\\[\s\S]|"(?!""))*(""")?/y,
  "'''": /(?:[^'\\]|\\[\s\S]|'(?!''))*(''')?/y,
  '"': /(?:[^"\\\n]|\\[\s\S])*(")?/y,
  "'": /(?:[^'\\\n]|\\[\s\S])*(')?/y,
};
const PREFIX = /^(?:[rR][bBfF]?|[bBfF][rR]?|[uU])$/;

export function scanPython(text: string): PySource {
  const strings: PyString[] = [];
  const code: string[] = [];
  let copiedTo = 0;
  const blank = (from: number, to: number) => {
    code.push(text.slice(copiedTo, from), ' '.repeat(to - from));
    copiedTo = to;
  };
  const next = new RegExp(NEXT);
  for (let m = next.exec(text); m; m = next.exec(text)) {
    const at = m.index;
    if (m[0] === '#') {
      const end = text.indexOf('\n', at);
      blank(at, end < 0 ? text.length : end);
      next.lastIndex = end < 0 ? text.length : end;
      continue;
    }
    const triple = text.startsWith(m[0].repeat(3), at);
    const quote = triple ? m[0].repeat(3) : m[0];
    const prefix = prefixBefore(text, at);
    const open = at + quote.length;
    const rest = REST[quote]!;
    rest.lastIndex = open;
    const tail = rest.exec(text)!;
    const closed = tail[1] !== undefined;
    const contentEnd = open + tail[0].length - (closed ? quote.length : 0);
    strings.push({ value: text.slice(open, contentEnd), prefix: prefix.toLowerCase(), start: at - prefix.length, end: open + tail[0].length });
    blankKeepingLines(open, contentEnd);
    next.lastIndex = open + tail[0].length;
  }
  code.push(text.slice(copiedTo));
  return { strings, code: code.join('') };

  /** A literal's content blanked with its line breaks kept, so code around it stays on its lines. */
  function blankKeepingLines(from: number, to: number): void {
    code.push(text.slice(copiedTo, from), text.slice(from, to).replace(/[^\n]/g, ' '));
    copiedTo = to;
  }
}

/** The prefix letters right before a quote (`rb`, `f`…) when they make a whole word; '' otherwise. */
function prefixBefore(text: string, quoteAt: number): string {
  let from = quoteAt;
  while (from > 0 && quoteAt - from < 2 && /[rRbBuUfF]/.test(text[from - 1]!)) from--;
  if (from === quoteAt) return '';
  const before = from > 0 ? text[from - 1]! : '';
  const prefix = text.slice(from, quoteAt);
  return /[A-Za-z0-9_]/.test(before) || !PREFIX.test(prefix) ? '' : prefix;
}
