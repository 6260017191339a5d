// A refresh request `hermes-lens refresh` records, watched as the language server watches its own
// (refresh/adoption.ts): the profile is read first (as `status` reads it, from what the cache
// folder keeps), so each session the request concerns is watched from its row before the request,
// with the cost the lens predicted; a later `status`, or any editor window, follows them.
import { AnalysisCache } from '../hermes/engine/analysisCache';
import { analyzeProfile } from '../hermes/engine/analyzeProfile';
import { diskVerdicts } from '../hermes/engine/diskVerdicts';
import { watchRequest } from '../hermes/engine/requestWatches';
import { adoptsRefreshRequests, type HermesBuild } from '../hermes/install/hermesBuild';
import type { Profile } from '../hermes/model';
import { profilePaths } from '../hermes/profile/home';
import { AdoptionLedger, countsOf, type AdoptionCounts } from '../hermes/refresh/adoptionLedger';
import type { AdoptionFiles } from '../hermes/refresh/adoptionFiles';
import type { RefreshProtocol } from '../hermes/refresh/refreshProtocol';
import type { RefreshResult } from '../hermes/refresh/requestRefresh';

export interface WatchedRefresh {
  readonly result: RefreshResult;
  /** How the request stands for the sessions it concerns; undefined when none is watched (a dry run, clearing prompts). */
  readonly adoption: AdoptionCounts | undefined;
}

export function watchedRefresh(profile: Profile, build: HermesBuild, protocol: RefreshProtocol, files: AdoptionFiles, now: number, write: () => RefreshResult): WatchedRefresh {
  const dbFile = profilePaths(profile).stateDb;
  const cache = new AnalysisCache();
  const ledger = new AdoptionLedger(dbFile, files);
  let read = false;
  try {
    const report = analyzeProfile(profile, { now, cache, verdicts: diskVerdicts(dbFile), adoptsRefreshRequests: adoptsRefreshRequests(build), refreshKeys: protocol.keys, adoption: ledger }).report;
    read = report.unavailable === undefined;
  } catch {
    // Not readable before the write: the write says why; nothing is watched.
  }
  const result = write();
  if (!read || result.dryRun || result.epoch === undefined) return { result, adoption: undefined };
  watchRequest(cache, ledger, result.epoch, result.scope === 'session' ? result.sessionIds : undefined, protocol.keys, now);
  ledger.persist();
  return { result, adoption: countsOf(ledger.all().filter((w) => w.epoch === result.epoch)) };
}
