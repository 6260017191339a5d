// Refresh commands: a profile's stale sessions, or one session. Restricted Mode refuses; otherwise a
// modal confirmation with the count and the cost split warm/cold (RefreshPreviewRequest), skippable
// with `hermesLens.confirmRefresh`; then the Hermes-style message of the result. Where a cache is
// warm, the confirmation also offers to refresh when free (refreshWhenFree.ts).
import * as vscode from 'vscode';
import type { ExecuteCommandSignature } from 'vscode-languageclient/node';
import {
  Commands,
  RefreshPreviewRequest,
  RefreshRequest,
  type RefreshParams,
  type RefreshPreviewDto,
  type RefreshResultDto,
} from '../../shared/protocol';
import { errorMessage, type Ctx } from '../ctx';
import { formatCost, plural } from '../format';
import { SESSIONS_VIEW_ID } from '../ids';
import { pickProfile, pickSession } from '../picks';
import { findSession, refreshTarget, sessionLabel } from '../sessionsModel';
import { fullKey } from '../settingsKeys';
import { ensureTrusted } from '../trust';
import { REFRESH_WHEN_FREE, whenFreeDetail } from '../whenFreeWords';
import { profileFromArg, sessionFromArg } from './args';
import { planWhenFree, refreshWhenFree } from './refreshWhenFree';
import type { CommandContext } from './index';

export function refreshProfile({ ctx }: CommandContext) {
  return async (arg?: unknown): Promise<RefreshResultDto | undefined> => {
    if (!ensureTrusted()) return undefined;
    const profile = profileFromArg(arg) ?? (await pickProfile(ctx, 'Refresh the stale sessions of which Hermes profile?'));
    if (!profile) return undefined;
    return runRefresh(ctx, { profile, onlyStale: true });
  };
}

export function refreshSession({ ctx }: CommandContext) {
  return async (arg?: unknown): Promise<RefreshResultDto | undefined> => {
    if (!ensureTrusted()) return undefined;
    const ref =
      sessionFromArg(arg) ??
      (await pickSession(ctx, 'Refresh the prompt of which session?', (s) => s.state !== 'no-prompt' && (s.state !== 'ended' || !!s.tipSessionId)));
    if (!ref) return undefined;
    // An ended session of a compacted chain continues in its tip: that is the one to rebuild.
    const target = refreshTarget(findSession(ctx.sessions, ref.profile, ref.sessionId), ref.sessionId);
    return runRefresh(ctx, { profile: ref.profile, sessionIds: [target] });
  };
}

/**
 * Code lenses and code actions of the server run `hermesLens.server.refresh` through
 * workspace/executeCommand: send them through the same trust check and confirmation.
 */
export function interceptServerRefresh(ctx: Ctx) {
  return (command: string, args: unknown[], next: ExecuteCommandSignature): vscode.ProviderResult<unknown> => {
    const params = args[0] as Partial<RefreshParams> | undefined;
    if (command !== Commands.refresh || !params || typeof params.profile !== 'string' || params.dryRun) return next(command, args);
    return runRefresh(ctx, params as RefreshParams);
  };
}

/** Confirms (unless turned off), records the refresh request, and reports Hermes' message. */
export async function runRefresh(ctx: Ctx, params: RefreshParams): Promise<RefreshResultDto | undefined> {
  if (!ensureTrusted()) return undefined;
  const settings = ctx.config.get();
  const request: RefreshParams = { ...params, strategy: params.strategy ?? settings.refreshStrategy };

  // The preview also tells when there is nothing to do (asked even when the dialog is turned off).
  let preview: RefreshPreviewDto;
  try {
    preview = await ctx.request(RefreshPreviewRequest, request);
  } catch (e) {
    void showFailure(ctx, `Hermes: could not price the refresh: ${errorMessage(e)}`);
    return undefined;
  }
  if (preview.sessions === 0) {
    void vscode.window.showInformationMessage(
      request.sessionIds?.length
        ? `Nothing to refresh in profile ${request.profile}: the session is not live or holds no stored prompt.`
        : `No stale sessions to refresh in profile ${request.profile}.`,
    );
    return undefined;
  }
  if (settings.confirmRefresh) {
    // Waiting saves something only where a stale session's cache is still warm.
    const plan = preview.warm > 0 ? await planWhenFree(ctx, request) : undefined;
    const whenFree = plan && plan.scheduled.length > 0 ? plan : undefined;
    const choice = await vscode.window.showWarningMessage(
      confirmTitle(ctx, request, preview),
      { modal: true, detail: confirmDetail(request, preview) + (whenFree ? `\n\n${whenFreeDetail(whenFree)}` : '') },
      'Refresh',
      ...(whenFree ? [REFRESH_WHEN_FREE] : []),
    );
    if (choice === REFRESH_WHEN_FREE) return void (await refreshWhenFree(ctx, request));
    if (choice !== 'Refresh') return undefined;
  }

  let result: RefreshResultDto;
  try {
    result = await vscode.window.withProgress({ location: { viewId: SESSIONS_VIEW_ID }, title: 'Refreshing Hermes prompts' }, () =>
      ctx.request(RefreshRequest, request),
    );
  } catch (e) {
    void showFailure(ctx, `Hermes: the refresh failed: ${errorMessage(e)}`);
    return undefined;
  }
  ctx.output.info(`Refresh ${JSON.stringify(request)}: ${result.message}`);
  void vscode.window.showInformationMessage(result.message);
  // The server pushes the new list (sessions turn `pending`); fetch it too in case it has not yet.
  void ctx.reloadSessions();
  return result;
}

function confirmTitle(ctx: Ctx, p: RefreshParams, preview: RefreshPreviewDto): string {
  if (p.sessionIds?.length === 1) {
    const id = p.sessionIds[0]!;
    const s = findSession(ctx.sessions, p.profile, id);
    return `Refresh the prompt of session "${s ? sessionLabel(s) : id}" in profile ${p.profile}?`;
  }
  const allStale = !!p.onlyStale || (!!p.sessionIds && p.sessionIds.every((id) => findSession(ctx.sessions, p.profile, id)?.state === 'stale'));
  const what = plural(preview.sessions, allStale ? 'stale session' : 'session');
  return `Refresh ${what} in profile ${p.profile}?`;
}

/** The modal's detail: count and cost split warm/cold. */
export function confirmDetail(p: RefreshParams, preview: RefreshPreviewDto): string {
  const lines: string[] = [];
  if (preview.warm > 0) {
    lines.push(`${plural(preview.warm, 'session')} with a warm cache: ${formatCost(preview.warmCostUsd)} extra now (the next turn re-writes the cached conversation).`);
  }
  if (preview.cold > 0) {
    lines.push(`${plural(preview.cold, 'session')} with an expired cache: ${formatCost(preview.coldCostUsd)} (the next turn misses the cache anyway).`);
  }
  if (preview.unknownCost > 0) lines.push(`${plural(preview.unknownCost, 'session')} without known prices for the model.`);
  if (preview.apiEquivalent) lines.push('Amounts are API-equivalent: the sessions are billed under a subscription.');
  lines.push('');
  lines.push(
    p.strategy === 'clear-prompt'
      ? 'Clears the stored prompt of each session (for Hermes builds without refresh support); each rebuilds it on its next turn.'
      : 'Each session rebuilds its system prompt at the start of its next turn; history and session ids are kept.',
  );
  lines.push(`Turn off ${fullKey('confirmRefresh')} to skip this question.`);
  return lines.join('\n');
}

async function showFailure(ctx: Ctx, message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, 'Show Output');
  if (choice) ctx.output.show(true);
}

