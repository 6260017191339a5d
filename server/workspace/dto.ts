// Engine reports → the plain DTOs of shared/protocol.ts (the same JSON as `status --json`, plus
// the totals flattened for the views).
import { profileSummaryJson, usdJson } from '../hermes/engine/reportJson';
import type { ProfileReport } from '../hermes/engine/types';
import type { ProfileSummaryDto, StatusParams } from '../../shared/protocol';
import { formatUsd } from '../hermes/cost/refreshCost';
import { hermesBuildJson } from '../hermes/install/describeBuild';
import type { HermesModel } from './hermesModel';

export function profileSummaryDto(r: ProfileReport): ProfileSummaryDto {
  return {
    ...profileSummaryJson(r),
    stale: r.totals.stale,
    pending: r.totals.pending,
    staleRefreshCostUsd: usdJson(r.totals.staleRefreshCostUsd) ?? 0,
    unknownCost: r.totals.unknownCost,
  };
}

/** The status item's text: `3 stale · ≈ $0.84`, or what is wrong; its detail says which Hermes build serves the home. */
export function statusOf(model: HermesModel, driver: string | null, driverProblem: string | undefined): StatusParams {
  const hermes = hermesBuildJson(model.build);
  if (driverProblem) {
    return { severity: 'error', text: 'database unavailable', detail: driverProblem, stale: 0, pending: 0, staleRefreshCostUsd: 0, driver: null, hermes };
  }
  if (model.problem) {
    return { severity: 'warning', text: 'no home', detail: model.problem, stale: 0, pending: 0, staleRefreshCostUsd: 0, driver, hermes };
  }
  const reports = model.profiles().map((a) => a.report);
  const stale = reports.reduce((n, r) => n + r.totals.stale, 0);
  const pending = reports.reduce((n, r) => n + r.totals.pending, 0);
  const cost = reports.reduce((n, r) => n + r.totals.staleRefreshCostUsd, 0);
  const unavailable = reports.filter((r) => r.unavailable).map((r) => `${r.name}: ${r.unavailable}`);
  // The client puts `Hermes: ` before this on the status bar; the language status item names it.
  const text = stale > 0 ? `${stale} stale · ${formatUsd(cost, true)}` : pending > 0 ? `${pending} pending` : 'all current';
  const detail = [`${reports.length} profile(s) · ${stale} stale · ${pending} pending`, hermes.summary, ...unavailable].join('\n');
  // A build that cannot take a refresh request, or cannot be read, is worth the user's eye.
  const severity = unavailable.length || hermes.refresh === false || hermes.problem ? 'warning' : 'ok';
  return { severity, text, detail, stale, pending, staleRefreshCostUsd: cost, driver, hermes };
}
