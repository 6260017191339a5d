// The evaluation the language server runs once a burst of Hermes writes has settled: a full scan of
// the sessions through its kept connection (keptConnection.ts; the quick scan after each write misses a
// row changed without a message). Measured on the engine in this process, as the server's own
// thread spends it: a Hermes turn appended to one live session, then `analyzeProfile` with
// `connection.reading('full')`. Before v25 this is where every session's inline prompt is checked again.
import { appendMessages } from '../server/demo/hermes';
import { AnalysisCache } from '../server/hermes/engine/analysisCache';
import { analyzeProfile } from '../server/hermes/engine/analyzeProfile';
import { readHome, selectProfile } from '../server/hermes/profile/home';
import type { LargeHome } from './largeHome';
import { epochMs, median, round } from './stats';
import { KeptConnection } from '../server/hermes/engine/keptConnection';

export interface SettleResult {
  /** Median of the full scans after one Hermes turn each. */
  readonly fullScanMs: number;
  readonly samples: readonly number[];
}

/** `runs` Hermes turns on the working copy `home`, each followed by the settling full scan. */
export function measureSettle(home: LargeHome, runs: number): SettleResult {
  const profile = selectProfile(readHome({ root: home.root, origin: 'argument' }));
  const cache = new AnalysisCache();
  const connection = new KeptConnection();
  const now = Date.now() / 1000;
  try {
    // The server's first evaluation, and one settle to warm its code: not timed.
    analyzeProfile(profile, { now, cache, sessions: connection.reading() });
    const samples: number[] = [];
    for (let i = -1; i < runs; i++) {
      const session = home.liveSessionIds[((i + 1) * 37) % home.liveSessionIds.length]!;
      appendMessages(home.dbFile, session, 2, { now: now + i + 2, seed: i + 2 });
      const started = epochMs();
      analyzeProfile(profile, { now, cache, sessions: connection.reading('full') });
      if (i >= 0) samples.push(round(epochMs() - started, 2));
    }
    return { fullScanMs: round(median(samples), 1), samples };
  } finally {
    connection.close();
  }
}
