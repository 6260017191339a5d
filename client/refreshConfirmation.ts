// The words of the refresh confirmation, from the server's preview: what the refresh touches and
// costs (warm and cold caches), what it does, and which Hermes build will read it; or, where that
// build cannot adopt a refresh request, the offer of the older way with its drawbacks. Pure (no
// vscode import): unit-tested, and read by the in-host tests, where VS Code refuses modal dialogs.
import type { RefreshParams, RefreshPreviewDto } from '../shared/protocol';
import { formatCost, plural } from './format';
import { fullKey } from './settingsKeys';

export interface Confirmation {
  readonly title: string;
  readonly detail: string;
  /** The one button that goes ahead (the dialog also has Cancel). */
  readonly button: string;
}

export const REFRESH_BUTTON = 'Refresh';
export const CLEAR_BUTTON = 'Clear Stored Prompts';

/** What the request is about, for the title: a session (its label) or the profile's stale sessions. */
export interface Subject {
  /** The session's label when the request names one session. */
  readonly sessionLabel?: string;
  /** Whether every session it costs is stale (the "Refresh N stale sessions" action). */
  readonly allStale: boolean;
}

/** The confirmation of `request` (skippable with hermesLens.confirmRefresh). */
export function refreshConfirmation(request: RefreshParams, preview: RefreshPreviewDto, subject: Subject): Confirmation {
  const clearing = request.strategy === 'clear-prompt';
  const lines = [...costLines(preview), '', preview.effect, preview.hermes.summary, `Turn off ${fullKey('confirmRefresh')} to skip this question.`];
  return { title: `${clearing ? 'Clear the stored prompt of' : 'Refresh'} ${what(request, preview, subject)}?`, detail: lines.join('\n'), button: clearing ? CLEAR_BUTTON : REFRESH_BUTTON };
}

/**
 * Where the build cannot adopt a refresh request (`blocked`, from the request's preview): the older
 * way instead, priced by `clearing`, the preview of clearing the same sessions. Always asked: no
 * choice is safe to make for the user (a request nobody reads, or hooks that fire).
 */
export function olderWayOffer(request: RefreshParams, blocked: string, clearing: RefreshPreviewDto, subject: Subject): Confirmation {
  const lines = [blocked, '', ...costLines(clearing), '', clearing.effect];
  return { title: `Clear the stored prompt of ${what(request, clearing, subject)} instead?`, detail: lines.join('\n'), button: CLEAR_BUTTON };
}

function what(request: RefreshParams, preview: RefreshPreviewDto, subject: Subject): string {
  if (request.sessionIds?.length === 1) return `session "${subject.sessionLabel ?? request.sessionIds[0]}" in profile ${request.profile}`;
  return `${plural(preview.sessions, subject.allStale ? 'stale session' : 'session')} in profile ${request.profile}`;
}

/** The count and cost split warm/cold. */
function costLines(preview: RefreshPreviewDto): string[] {
  const lines: string[] = [];
  if (preview.warm > 0) {
    lines.push(`${plural(preview.warm, 'session')} with a warm cache: ${formatCost(preview.warmCostUsd)} extra now (the next turn re-writes the cached conversation).`);
  }
  if (preview.cold > 0) {
    lines.push(`${plural(preview.cold, 'session')} with an expired cache: ${formatCost(preview.coldCostUsd)} (the next turn misses the cache anyway).`);
  }
  if (preview.unknownCost > 0) lines.push(`${plural(preview.unknownCost, 'session')} without known prices for the model.`);
  if (preview.apiEquivalent) lines.push('Amounts are API-equivalent: the sessions are billed under a subscription.');
  return lines;
}
