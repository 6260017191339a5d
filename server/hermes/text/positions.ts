// Problems point at text in the user's file: these turn UTF-16 offsets of a file's text (BOM
// removed, as editors show it) into the 0-based line/character ranges of SourceProblem.
/** A range of a file's text: 0-based lines and UTF-16 characters, as editors count them. */
export interface ProblemRange {
  readonly startLine: number;
  readonly startCharacter: number;
  readonly endLine: number;
  readonly endCharacter: number;
}

/** Offsets where each line starts; `\r\n`, `\n` and a lone `\r` end a line, as in editors. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue;
    if (c === 0x0a || c === 0x0d) starts.push(i + 1);
  }
  return starts;
}

/** Converts offsets of one text to positions; build once per file. */
export function positionsOf(text: string): { range(start: number, end: number): ProblemRange; line(line: number): ProblemRange } {
  const starts = lineStarts(text);
  const position = (offset: number) => {
    const at = Math.max(0, Math.min(offset, text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: at - starts[lo]! };
  };
  return {
    range(start, end) {
      const a = position(start);
      const b = position(Math.max(start, end));
      return { startLine: a.line, startCharacter: a.character, endLine: b.line, endCharacter: b.character };
    },
    /** The whole of one line (0-based, clamped to the text), without its line break. */
    line(line) {
      const n = Math.max(0, Math.min(line, starts.length - 1));
      let end = n + 1 < starts.length ? starts[n + 1]! : text.length;
      while (end > starts[n]! && (text.charCodeAt(end - 1) === 0x0a || text.charCodeAt(end - 1) === 0x0d)) end--;
      return { startLine: n, startCharacter: 0, endLine: n, endCharacter: end - starts[n]! };
    },
  };
}

/** The whole of one line (0-based), for problems about a line rather than a span. */
export function lineRange(line: number, length = 0): ProblemRange {
  return { startLine: line, startCharacter: 0, endLine: line, endCharacter: length };
}
