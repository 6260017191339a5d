// Counting a paragraph with the o200k tokenizer itself, in whichever process holds it: the CLI
// counts in-process, the language server in a helper process (tokenCountHelper.ts). The tokenizer
// is a separate file, loaded on first use (scripts/build.mjs keeps it out of the bundles).
import path = require('node:path');
import type * as O200k from './o200kEncoder';

export interface ParagraphCount {
  readonly tokens: number;
  /** A long run was counted in slices: not exact. */
  readonly sliced: boolean;
}

// BPE cost grows with the square of a pre-token's length, and a run without spaces (a base64 blob, a
// line of `=`) is one pre-token: 30 KB of letters takes most of a second, 200 KB over half a minute.
// Such runs are counted in slices; the count is then off by at most a token per slice and not "exact".
const LONG_RUN_CHARS = 1000;
const SLICE = 500;

let encoder: typeof O200k | undefined;
let load: (file: string) => unknown = require;

/** How the tokenizer's file is loaded (the CLI passes its code cache); `require` by default. */
export function loadTokenizerWith(loader: (file: string) => unknown): void {
  load = loader;
}

function o200k(): typeof O200k {
  // The file sits next to this one, in out/ as in dist/.
  encoder ??= load(path.join(__dirname, 'o200kEncoder.js')) as typeof O200k;
  return encoder;
}

export function countWithTokenizer(text: string): ParagraphCount {
  const { countTokens: count } = o200k();
  let tokens = 0;
  let sliced = false;
  let last = 0;
  for (const [start, end] of longRuns(text)) {
    tokens += count(text.slice(last, start));
    for (let offset = start; offset < end; offset += SLICE) tokens += count(text.slice(offset, Math.min(end, offset + SLICE)));
    last = end;
    sliced = true;
  }
  tokens += count(last === 0 ? text : text.slice(last));
  return { tokens, sliced };
}

// `\s` of JavaScript regular expressions (the o200k pre-tokenizer's class).
export function isWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Maximal runs of at least LONG_RUN_CHARS UTF-16 units that are all whitespace or all not (what
 * `/\S{1000,}|\s{1000,}/g` finds), by a single scan.
 */
function longRuns(text: string): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = 0;
  let space = text.length > 0 && isWhitespace(text.charCodeAt(0));
  for (let i = 1; i <= text.length; i++) {
    const s = i < text.length ? isWhitespace(text.charCodeAt(i)) : !space;
    if (s === space) continue;
    if (i - start >= LONG_RUN_CHARS) runs.push([start, i]);
    start = i;
    space = s;
  }
  return runs;
}
