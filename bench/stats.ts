// Small statistics for the benchmarks: medians of runs, percentiles of latencies.

/** The value below which `p`% of the sorted samples fall (linear interpolation between ranks). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export interface Summary {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    p50: round(percentile(samples, 50)),
    p95: round(percentile(samples, 95)),
    p99: round(percentile(samples, 99)),
    max: round(samples.length ? Math.max(...samples) : Number.NaN),
    mean: round(samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : Number.NaN),
  };
}

/** Milliseconds to three decimals, ratios to three significant places. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Epoch milliseconds with sub-millisecond resolution, comparable across processes of this machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
