// The o200k_base vocabulary as a ready hash table in one byte string, so that a process needing a
// count reads a file instead of compiling gpt-tokenizer's 3 MB of arrays and building maps from
// them (over 300 ms in a fresh process). scripts/build.mjs writes it as dist/o200kRanks.bin; where
// that file is absent (out/, the tests) it is packed here from gpt-tokenizer's ranks.
//
// Layout, little-endian: the number of tokens (u32), log2 of the slot count (u32), the slots (i32
// each: rank + 1 of the token hashed there by FNV-1a with linear probing, negated for a token
// gpt-tokenizer keeps as bytes rather than text, 0 for none), each token's length in bytes (u8
// each, in rank order), then every token's bytes in rank order.

/** gpt-tokenizer's ranks: the token of each rank as text, or as bytes where they are no UTF-8. */
export type RawRanks = ReadonlyArray<string | readonly number[]>;

export const HEADER_BYTES = 8;

/** The vocabulary of gpt-tokenizer's o200k_base, packed. */
export function packedRanks(): Uint8Array {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require('gpt-tokenizer/bpeRanks/o200k_base') as { default: RawRanks };
  return packRanks(loaded.default);
}

export function packRanks(ranks: RawRanks): Uint8Array {
  const encoder = new TextEncoder();
  const tokens = ranks.map((token) => (typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token)));
  let log2 = 1;
  while (1 << log2 < tokens.length * 2) log2++;
  const slots = new Int32Array(1 << log2);
  const mask = slots.length - 1;
  tokens.forEach((token, rank) => {
    // No o200k token is longer than 128 bytes, nor empty, nor the same bytes as another.
    if (token.length === 0 || token.length > 255) throw new Error(`o200k token ${rank} has ${token.length} bytes`);
    let slot = fnv1a(token, 0, token.length) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = typeof ranks[rank] === 'string' ? rank + 1 : -(rank + 1);
  });
  const lengthsAt = HEADER_BYTES + slots.byteLength;
  const packed = new Uint8Array(lengthsAt + tokens.length + tokens.reduce((n, t) => n + t.length, 0));
  const view = new DataView(packed.buffer);
  view.setUint32(0, tokens.length, true);
  view.setUint32(4, log2, true);
  slots.forEach((entry, i) => view.setInt32(HEADER_BYTES + 4 * i, entry, true));
  let at = lengthsAt + tokens.length;
  tokens.forEach((token, rank) => {
    packed[lengthsAt + rank] = token.length;
    packed.set(token, at);
    at += token.length;
  });
  return packed;
}

/** The hash of the table's slots. */
export function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}
