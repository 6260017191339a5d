// A tiny seeded PRNG (mulberry32) so a demo home is byte-for-byte reproducible from its seed:
// tests can assert exact ids, and the README demo looks the same on every machine.

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `n` lowercase hex digits. */
  hex(n: number): string;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    hex: (n) => {
      let out = '';
      while (out.length < n) out += Math.floor(next() * 16).toString(16);
      return out;
    },
    chance: (p) => next() < p,
  };
}
