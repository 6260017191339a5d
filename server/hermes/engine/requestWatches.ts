// The sessions a refresh request the lens just recorded concerns, watched from their rows as last
// read and with what their reports said the refresh would cost (refresh/adoption.ts): the
// requested sessions, or for the profile-wide request every live session holding a prompt.
import type { AdoptionLedger } from '../refresh/adoptionLedger';
import type { RefreshKeys } from '../refresh/epochs';
import type { AnalysisCache } from './analysisCache';
import { predictedOf } from './analyzeProfile';

/** Starts the watches; how many sessions are watched. */
export function watchRequest(cache: AnalysisCache, ledger: AdoptionLedger, epoch: number, sessionIds: readonly string[] | undefined, keys: RefreshKeys, now: number): number {
  const only = sessionIds && new Set(sessionIds);
  let watched = 0;
  for (const [id, kept] of cache.reports) {
    const record = kept.inputs.record;
    if ((only && !only.has(id)) || record.endedAt !== undefined || !record.promptKey) continue;
    ledger.watchPending(record, epoch, keys, cache.knownIdentity(record.promptKey), now, predictedOf(kept.report), 'lens');
    watched++;
  }
  return watched;
}
