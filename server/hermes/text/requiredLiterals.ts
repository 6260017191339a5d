// What text every match of a Python `re` pattern must contain, so a scan can skip the patterns that
// cannot match without running them. A cold process spends most of its scan time compiling Hermes'
// case-insensitive Unicode patterns on first use; text that lacks a pattern's words never needs it.
//
// The answer is a list of clauses, each a list of lower-case ASCII strings: a match contains, for
// every clause, at least one of its strings (ignoring ASCII case). Anything the reading does not
// understand contributes nothing, so the answer can only be weaker than the truth, never wrong.

export type RequiredLiterals = ReadonlyArray<readonly string[]>;

/** The clauses of `source`, or [] when nothing is known to be required. */
export function requiredLiterals(source: string): RequiredLiterals {
  try {
    const reader = new PatternReader(source);
    const required = reader.alternation();
    return reader.atEnd() ? required : [];
  } catch {
    return [];
  }
}

/**
 * True when `lowerText` (the scanned text, lower-cased) holds every clause. For ASCII, the only
 * characters a case-insensitive Unicode match puts in place of a letter besides its other case are
 * the Kelvin sign and the long s, which NFKC (applied before any scan) replaces by K and s.
 */
export function mayMatch(required: RequiredLiterals, lowerText: string): boolean {
  return required.every((clause) => clause.some((literal) => lowerText.includes(literal)));
}

interface Sequence {
  clauses: Array<readonly string[]>;
  run: string;
}

class PatternReader {
  private at = 0;

  constructor(private readonly source: string) {}

  atEnd(): boolean {
    return this.at >= this.source.length;
  }

  /** `a|b|…` up to a `)` or the end: one clause of each branch's best one, when every branch has one. */
  alternation(): RequiredLiterals {
    const branches: RequiredLiterals[] = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      branches.push(this.sequence());
    }
    if (branches.length === 1) return branches[0]!;
    const union = new Set<string>();
    for (const branch of branches) {
      const best = strongest(branch);
      if (!best) return [];
      for (const literal of best) union.add(literal);
    }
    return [[...union]];
  }

  private sequence(): RequiredLiterals {
    const seq: Sequence = { clauses: [], run: '' };
    while (!this.atEnd() && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      const { min, once } = this.quantifier();
      if (min === 0) {
        endRun(seq);
        continue;
      }
      if (atom.kind === 'char') {
        seq.run += atom.char;
        if (!once) endRun(seq); // repeated: what follows need not come right after one copy
      } else {
        endRun(seq);
        if (atom.kind === 'group') seq.clauses.push(...atom.required);
      }
    }
    endRun(seq);
    return seq.clauses;
  }

  private atom(): { kind: 'char'; char: string } | { kind: 'group'; required: RequiredLiterals } | { kind: 'other' } {
    const c = this.source[this.at++]!;
    if (c === '(') return this.group();
    if (c === '[') {
      this.skipClass();
      return { kind: 'other' };
    }
    if (c === '\\') {
      const next = this.source[this.at++];
      if (next === undefined) throw new Error('dangling backslash');
      // Letters and digits are classes, anchors, control characters or references: no literal.
      return /[A-Za-z0-9]/.test(next) ? { kind: 'other' } : literalChar(next);
    }
    if (c === '.' || c === '^' || c === '$') return { kind: 'other' };
    if (c === '*' || c === '+' || c === '?' || c === '{') throw new Error('quantifier without an atom');
    return literalChar(c);
  }

  private group(): { kind: 'group'; required: RequiredLiterals } | { kind: 'other' } {
    let lookaround = false;
    if (this.source[this.at] === '?') {
      const head = this.source.slice(this.at + 1, this.at + 3);
      if (head.startsWith(':')) this.at += 2;
      else if (head.startsWith('=') || head.startsWith('!')) (this.at += 2), (lookaround = true);
      else if (head === '<=' || head === '<!') (this.at += 3), (lookaround = true);
      else if (head === 'P<') {
        const close = this.source.indexOf('>', this.at);
        if (close < 0) throw new Error('unclosed group name');
        this.at = close + 1;
      } else {
        throw new Error(`unsupported group (?${head}`); // flags, conditionals, …
      }
    }
    const required = this.alternation();
    if (this.source[this.at] !== ')') throw new Error('unclosed group');
    this.at++;
    // A lookaround matches no text of its own.
    return lookaround ? { kind: 'other' } : { kind: 'group', required };
  }

  /** Python's class syntax: a `]` first (after an optional `^`) is literal; `\` escapes. */
  private skipClass(): void {
    if (this.source[this.at] === '^') this.at++;
    if (this.source[this.at] === ']') this.at++;
    while (this.at < this.source.length && this.source[this.at] !== ']') this.at += this.source[this.at] === '\\' ? 2 : 1;
    if (this.at >= this.source.length) throw new Error('unclosed class');
    this.at++;
  }

  /** The least number of repeats the quantifier after an atom allows; `once` without a quantifier. */
  private quantifier(): { min: number; once: boolean } {
    const c = this.source[this.at];
    let min = 1;
    if (c === '*' || c === '?') (min = 0), this.at++;
    else if (c === '+') this.at++;
    else if (c === '{') {
      const braces = /^\{(\d*)(,\d*)?\}/.exec(this.source.slice(this.at));
      // Python reads a `{` that does not open a valid repeat as a literal; we do not guess.
      if (!braces || (braces[1] === '' && braces[2] === undefined)) throw new Error('literal brace');
      min = braces[1] === '' ? 0 : Number(braces[1]);
      this.at += braces[0].length;
    } else {
      return { min: 1, once: true };
    }
    if (this.source[this.at] === '?' || this.source[this.at] === '+') this.at++; // lazy or possessive
    return { min, once: false };
  }
}

/** A character of the pattern that matches itself: known here only for ASCII (case folded). */
function literalChar(c: string): { kind: 'char'; char: string } | { kind: 'other' } {
  return c.charCodeAt(0) < 0x80 ? { kind: 'char', char: c.toLowerCase() } : { kind: 'other' };
}

function endRun(seq: Sequence): void {
  if (seq.run) seq.clauses.push([seq.run]);
  seq.run = '';
}

/** The clause that rules out the most text: its shortest literal the longest. */
function strongest(required: RequiredLiterals): readonly string[] | undefined {
  let best: readonly string[] | undefined;
  let bestLength = 0;
  for (const clause of required) {
    const shortest = Math.min(...clause.map((literal) => literal.length));
    if (shortest > bestLength) (best = clause), (bestLength = shortest);
  }
  return best;
}
