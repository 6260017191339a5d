// Engine reports → the plain DTOs of shared/protocol.ts (the same JSON as `status --json`, plus
// the totals flattened for the views).
import { profileSummaryJson, usdJson } from '../hermes/engine/reportJson';
import type { ProfileReport } from '../hermes/engine/types';
import type { ProfileSummaryDto, StatusParams } from '../../shared/protocol';
import { formatUsd } from '../hermes/cost/refreshCost';
import { hermesJson, protocolSummary } from '../hermes/refresh/refreshProtocol';
import { adoptionCountsText, CLEAR_INSTEAD, NOT_ADOPTED } from '../hermes/refresh/adoptionWords';
import type { AdoptionCounts } from '../hermes/refresh/adoptionLedger';
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
  const hermes = hermesJson(model.build, model.protocol);
  const none: AdoptionCounts = { adopted: 0, adoptedStampUnread: 0, waiting: 0, notAdopted: 0 };
  if (driverProblem) {
    return { severity: 'error', text: 'database unavailable', detail: driverProblem, stale: 0, pending: 0, staleRefreshCostUsd: 0, driver: null, hermes, adoption: none };
  }
  if (model.problem) {
    return { severity: 'warning', text: 'no home', detail: model.problem, stale: 0, pending: 0, staleRefreshCostUsd: 0, driver, hermes, adoption: none };
  }
  const reports = model.profiles().map((a) => a.report);
  const stale = reports.reduce((n, r) => n + r.totals.stale, 0);
  const pending = reports.reduce((n, r) => n + r.totals.pending, 0);
  const cost = reports.reduce((n, r) => n + r.totals.staleRefreshCostUsd, 0);
  const unavailable = reports.filter((r) => r.unavailable).map((r) => `${r.name}: ${r.unavailable}`);
  const adoption = sumCounts(reports.map((r) => r.adoption));
  // The client puts `Hermes: ` before this on the status bar; the language status item names it.
  const main = stale > 0 ? `${stale} stale · ${formatUsd(cost, true)}` : pending > 0 ? `${pending} pending` : 'all current';
  const text = adoption.notAdopted > 0 ? `${main} · ${adoption.notAdopted} not adopted` : main;
  const watched = adoptionCountsText(adoption);
  const detail = [
    `${reports.length} profile(s) · ${stale} stale · ${pending} pending`,
    ...(watched ? [`Refresh requests: ${watched}.`] : []),
    ...(adoption.notAdopted > 0 ? [`${adoption.notAdopted === 1 ? 'One session' : `${adoption.notAdopted} sessions`} ${NOT_ADOPTED}. ${CLEAR_INSTEAD}`] : []),
    hermes.summary,
    protocolSummary(model.protocol),
    ...unavailable,
  ].join('\n');
  // A build that cannot take a refresh request, or cannot be read, or a request not adopted, is worth the user's eye.
  const severity = unavailable.length || hermes.refresh === false || hermes.problem || adoption.notAdopted > 0 ? 'warning' : 'ok';
  return { severity, text, detail, stale, pending, staleRefreshCostUsd: cost, driver, hermes, adoption };
}

function sumCounts(all: readonly AdoptionCounts[]): AdoptionCounts {
  return {
    adopted: all.reduce((n, c) => n + c.adopted, 0),
    adoptedStampUnread: all.reduce((n, c) => n + c.adoptedStampUnread, 0),
    waiting: all.reduce((n, c) => n + c.waiting, 0),
    notAdopted: all.reduce((n, c) => n + c.notAdopted, 0),
  };
}
