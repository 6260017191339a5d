// The o200k_base token count on its own, as gpt-tokenizer counts plain text (no special tokens):
// its pre-tokenizer's regular expression, then each piece a token if the vocabulary holds it, else
// byte-pair merges, lowest rank first. The vocabulary is a hash table read from a file
// (o200kRanks.ts), a few milliseconds where gpt-tokenizer's own tables took a fresh process over
// 300 ms. scripts/build.mjs bundles this file apart (dist/o200kEncoder.js) and tokens.ts requires it
// only when a count misses both caches. Equality with gpt-tokenizer's counts, its quirks included,
// is checked by test/unit/cost/o200kEncoder.test.ts.
import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { fnv1a, HEADER_BYTES, packedRanks } from './o200kRanks';

const NONE = -1;

/** Rank by token bytes, over the packed table (o200kRanks.ts). */
class RankTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly starts: Uint32Array;

  constructor(private readonly bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.getUint32(0, true);
    const size = 2 ** view.getUint32(4, true);
    this.mask = size - 1;
    const viewable = os.endianness() === 'LE' && (bytes.byteOffset + HEADER_BYTES) % 4 === 0;
    this.slots = viewable ? new Int32Array(bytes.buffer, bytes.byteOffset + HEADER_BYTES, size) : Int32Array.from({ length: size }, (_, i) => view.getInt32(HEADER_BYTES + 4 * i, true));
    const lengthsAt = HEADER_BYTES + 4 * size;
    this.starts = new Uint32Array(count + 1);
    let at = lengthsAt + count;
    for (let rank = 0; rank < count; rank++) {
      this.starts[rank] = at;
      at += bytes[lengthsAt + rank]!;
    }
    this.starts[count] = at;
  }

  /**
   * The rank of `buf[start, end)` among the tokens gpt-tokenizer keeps as text (`asBytes` false) or
   * as bytes (true: those it could not decode, a few of them valid UTF-8 all the same), or NONE.
   */
  rank(buf: Uint8Array, start: number, end: number, asBytes: boolean): number {
    const length = end - start;
    for (let slot = fnv1a(buf, start, end) & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return NONE;
      const rank = (entry < 0 ? -entry : entry) - 1;
      const from = this.starts[rank]!;
      if (this.starts[rank + 1]! - from !== length) continue;
      let i = 0;
      while (i < length && this.bytes[from + i] === buf[start + i]) i++;
      if (i === length) return entry < 0 === asBytes ? rank : NONE;
    }
  }
}

/** dist/o200kRanks.bin, next to this file's bundle; packed anew where it is absent (out/). */
function loadTable(): RankTable {
  let packed: Uint8Array;
  try {
    packed = fs.readFileSync(path.join(__dirname, 'o200kRanks.bin'));
  } catch {
    packed = packedRanks();
  }
  return new RankTable(packed);
}

let table: RankTable | undefined;
const splitter = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu');
const encoder = new TextEncoder();
let scratch = new Uint8Array(4096);
// Pieces that took merges, by text: words recur (gpt-tokenizer keeps such a cache too).
const merged = new Map<string, number>();
const MERGED_KEPT = 100_000;

/** The o200k tokens of `text` as plain text (text like "<|endoftext|>" counts as the characters it is). */
export function countTokens(text: string): number {
  table ??= loadTable();
  let tokens = 0;
  splitter.lastIndex = 0;
  for (let match = splitter.exec(text); match !== null; match = splitter.exec(text)) tokens += pieceTokens(table, match[0]);
  return tokens;
}

function pieceTokens(ranks: RankTable, piece: string): number {
  if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
  const length = encoder.encodeInto(piece, scratch).written;
  // gpt-tokenizer looks a piece up as text: one holding a lone surrogate is never found whole.
  if (ranks.rank(scratch, 0, length, false) !== NONE && wellFormed(piece)) return 1;
  let count = merged.get(piece);
  if (count === undefined) {
    count = mergedTokens(ranks, scratch, length);
    if (merged.size >= MERGED_KEPT) merged.clear();
    merged.set(piece, count);
  }
  return count;
}

/**
 * The tokens left once every adjacent pair the vocabulary holds has been merged, the lowest rank
 * first and, among equal ranks, the leftmost (tiktoken's byte_pair_merge, as gpt-tokenizer runs it).
 */
function mergedTokens(ranks: RankTable, piece: Uint8Array, length: number): number {
  if (length <= 1) return length;
  // starts[i]: where part i begins; pairRank[i]: the rank of parts i and i+1 joined (NONE: no such token).
  const starts = new Int32Array(length + 1);
  const pairRank = new Int32Array(length + 1);
  for (let i = 0; i <= length; i++) {
    starts[i] = i;
    pairRank[i] = i < length - 1 ? pairRankOf(ranks, piece, i, i + 2) : NONE;
  }
  let parts = length + 1;
  for (;;) {
    let lowest = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      const rank = pairRank[i]!;
      if (rank !== NONE && (lowest === NONE || rank < lowest)) {
        lowest = rank;
        at = i;
      }
    }
    if (at < 0) break;
    starts.copyWithin(at + 1, at + 2, parts);
    pairRank.copyWithin(at, at + 1, parts);
    parts--;
    pairRank[at] = at + 2 < parts ? pairRankOf(ranks, piece, starts[at]!, starts[at + 2]!) : NONE;
    if (at > 0) pairRank[at - 1] = pairRankOf(ranks, piece, starts[at - 1]!, starts[at + 1]!);
  }
  return parts - 1;
}

/**
 * The rank of a merge candidate as gpt-tokenizer finds it: bytes that are valid UTF-8 are decoded
 * and looked up as text (its decoder drops a leading byte-order mark), the rest as bytes.
 */
function pairRankOf(ranks: RankTable, piece: Uint8Array, start: number, end: number): number {
  if (!validUtf8(piece, start, end)) return ranks.rank(piece, start, end, true);
  const bom = end - start >= 3 && piece[start] === 0xef && piece[start + 1] === 0xbb && piece[start + 2] === 0xbf;
  return bom ? (end - start === 3 ? NONE : ranks.rank(piece, start + 3, end, false)) : ranks.rank(piece, start, end, false);
}

/** gpt-tokenizer's test of UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
function validUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const lead = bytes[i]!;
    let size: number;
    let code: number;
    if (lead <= 0x7f) (size = 1), (code = lead);
    else if ((lead & 0xe0) === 0xc0) {
      if (lead <= 0xc1) return false;
      (size = 2), (code = lead & 0x1f);
    } else if ((lead & 0xf0) === 0xe0) (size = 3), (code = lead & 0x0f);
    else if ((lead & 0xf8) === 0xf0) {
      if (lead > 0xf4) return false;
      (size = 4), (code = lead & 0x07);
    } else return false;
    if (i + size > end) return false;
    for (let j = 1; j < size; j++) {
      const next = bytes[i + j]!;
      if ((next & 0xc0) !== 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    if ((size === 2 && code < 0x80) || (size === 3 && code < 0x800) || (size === 4 && code < 0x10000)) return false;
    if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return false;
    i += size;
  }
  return true;
}

/** No lone surrogate. */
function wellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff || i + 1 >= text.length) return false;
    const next = text.charCodeAt(i + 1);
    if (next < 0xdc00 || next > 0xdfff) return false;
    i++;
  }
  return true;
}
