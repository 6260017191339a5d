// Figures about one source file that hover, code lens and code actions all show: how many
// sessions it feeds, how many are stale because of it, and what refreshing those costs now.
import type { ProfileReport, SessionReport } from '../hermes/engine/types';
import { countsOf, type AdoptionCounts } from '../hermes/refresh/adoptionLedger';
import type { ProfileAnalysis } from '../hermes/engine/analyzeProfile';
import type { SourceRole } from './hermesModel';

export interface ProfileStale {
  readonly profile: string;
  /** Stale sessions whose reasons name this file. */
  readonly stale: readonly SessionReport[];
  readonly costUsd: number;
  readonly unknownCost: number;
  /** The whole profile's figures: a refresh of the profile reaches its every stale session, whatever file made it stale. */
  readonly profileTotals: ProfileReport['totals'];
}

export interface RoleSummary {
  readonly sessions: number;
  readonly profiles: number;
  readonly stale: number;
  /** Sessions carrying the file whose refresh is requested and not yet adopted. */
  readonly pending: number;
  readonly costUsd: number;
  readonly unknownCost: number;
  readonly warm: number;
  /** Sessions carrying the file whose prompt another Hermes build wrote (not stale for that). */
  readonly otherBuild: number;
  /** Their watched refresh requests, by how each stands. */
  readonly adoption: AdoptionCounts;
  /** The sessions among them that took a turn without adopting their refresh request. */
  readonly notAdopted: ReadonlyArray<{ readonly profile: string; readonly session: SessionReport }>;
  readonly byProfile: readonly ProfileStale[];
}

// Hovers, the code lens and the code actions ask for one file's figures again and again between
// two evaluations: a one-profile role's summary is kept with the list of sessions it was made of
// (a profile's own files share the list of its live sessions, made anew by each evaluation).
const kept = new WeakMap<readonly SessionReport[], { readonly file: string; readonly analysis: ProfileAnalysis; readonly summary: RoleSummary }>();

export function summarizeRole(role: SourceRole): RoleSummary {
  const only = role.uses.length === 1 ? role.uses[0]! : undefined;
  if (!only) return summarize(role);
  const last = kept.get(only.sessions);
  if (last && last.file === role.file && last.analysis === only.analysis) return last.summary;
  const summary = summarize(role);
  kept.set(only.sessions, { file: role.file, analysis: only.analysis, summary });
  return summary;
}

function summarize(role: SourceRole): RoleSummary {
  const byProfile: ProfileStale[] = [];
  let sessions = 0;
  for (const use of role.uses) {
    sessions += use.sessions.length;
    const stale = use.sessions.filter((s) => s.state === 'stale' && s.reasons.some((r) => r.path === role.file));
    if (stale.length) {
      byProfile.push({
        profile: use.analysis.profile.name,
        stale,
        costUsd: stale.reduce((n, s) => n + (s.refreshCostUsd ?? 0), 0),
        unknownCost: stale.filter((s) => s.refreshCostUsd === undefined).length,
        profileTotals: use.analysis.report.totals,
      });
    }
  }
  const all = byProfile.flatMap((p) => p.stale);
  return {
    sessions,
    profiles: role.uses.filter((u) => u.sessions.length > 0).length,
    stale: all.length,
    pending: role.uses.reduce((n, u) => n + u.sessions.filter((s) => s.state === 'pending').length, 0),
    costUsd: byProfile.reduce((n, p) => n + p.costUsd, 0),
    unknownCost: byProfile.reduce((n, p) => n + p.unknownCost, 0),
    warm: all.filter((s) => s.cacheWarm).length,
    otherBuild: role.uses.reduce((n, u) => n + u.sessions.filter((s) => s.otherBuild !== undefined).length, 0),
    adoption: countsOf(role.uses.flatMap((u) => u.sessions.map((s) => s.adoption))),
    notAdopted: role.uses.flatMap((u) => u.sessions.filter((s) => s.adoption?.state === 'not-adopted').map((session) => ({ profile: u.analysis.profile.name, session }))),
    byProfile,
  };
}
