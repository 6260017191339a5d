// Refresh commands: a profile's stale sessions, or one session. Restricted Mode refuses; otherwise a
// modal confirmation with the count, the cost split warm/cold and the Hermes build
// (RefreshPreviewRequest, words in refreshConfirmation.ts), skippable with `hermesLens.confirmRefresh`
// unless the build cannot adopt a request; then the Hermes-style message of the result. Where a
// cache is warm, the confirmation also offers to refresh when free (refreshWhenFree.ts).
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
import { SESSIONS_VIEW_ID } from '../ids';
import { pickProfile, pickSession } from '../picks';
import { olderWayOffer, refreshConfirmation, type Confirmation, type Subject } from '../refreshConfirmation';
import { findSession, refreshTarget, sessionLabel } from '../sessionsModel';
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
 * Clears one session's stored prompt, the older way, offered where the session took a turn
 * without adopting its refresh request: always confirmed, as it fires hooks and a gateway's agent
 * keeps its prompt until restarted.
 */
export function clearSessionPrompt({ ctx }: CommandContext) {
  return async (arg?: unknown): Promise<RefreshResultDto | undefined> => {
    if (!ensureTrusted()) return undefined;
    const ref = sessionFromArg(arg) ?? (await pickSession(ctx, 'Clear the stored prompt of which session?', (s) => s.state !== 'no-prompt' && s.state !== 'ended'));
    if (!ref) return undefined;
    return runRefresh(ctx, { profile: ref.profile, sessionIds: [ref.sessionId], strategy: 'clear-prompt' }, { alwaysConfirm: true });
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

/**
 * Confirms (unless turned off), records the refresh request, and reports Hermes' message. Where the
 * Hermes build cannot adopt a request, offers the older way instead (always asked).
 */
export async function runRefresh(ctx: Ctx, params: RefreshParams, options: { alwaysConfirm?: boolean } = {}): Promise<RefreshResultDto | undefined> {
  if (!ensureTrusted()) return undefined;
  const settings = ctx.config.get();
  let request: RefreshParams = { ...params, strategy: params.strategy ?? settings.refreshStrategy };

  // The preview also tells when there is nothing to do (asked even when the dialog is turned off).
  const preview = await previewOf(ctx, request);
  if (!preview) return undefined;
  if (preview.sessions === 0) {
    void vscode.window.showInformationMessage(
      request.sessionIds?.length
        ? `Nothing to refresh in profile ${request.profile}: the session is not live or holds no stored prompt.`
        : `No stale sessions to refresh in profile ${request.profile}.`,
    );
    return undefined;
  }
  const subject = subjectOf(ctx, request);
  let question: Confirmation | undefined;
  let whenFree: Awaited<ReturnType<typeof planWhenFree>> | undefined;
  if (request.strategy === 'epoch' && preview.requestBlocked) {
    const older: RefreshParams = { ...request, strategy: 'clear-prompt' };
    const clearing = await previewOf(ctx, older);
    if (!clearing) return undefined;
    question = olderWayOffer(request, preview.requestBlocked, clearing, subject);
    request = older;
  } else if (settings.confirmRefresh || options.alwaysConfirm) {
    question = refreshConfirmation(request, preview, subject);
    // Waiting saves something only where a stale session's cache is still warm.
    const plan = preview.warm > 0 ? await planWhenFree(ctx, request) : undefined;
    whenFree = plan && plan.scheduled.length > 0 ? plan : undefined;
  }
  if (question) {
    const detail = question.detail + (whenFree ? `\n\n${whenFreeDetail(whenFree)}` : '');
    const choice = await vscode.window.showWarningMessage(question.title, { modal: true, detail }, question.button, ...(whenFree ? [REFRESH_WHEN_FREE] : []));
    if (choice === REFRESH_WHEN_FREE) return void (await refreshWhenFree(ctx, request));
    if (choice !== question.button) return undefined;
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

async function previewOf(ctx: Ctx, request: RefreshParams): Promise<RefreshPreviewDto | undefined> {
  try {
    return await ctx.request(RefreshPreviewRequest, request);
  } catch (e) {
    void showFailure(ctx, `Hermes: could not price the refresh: ${errorMessage(e)}`);
    return undefined;
  }
}

/** The session a request names (its label), or whether the sessions it is about are all stale. */
function subjectOf(ctx: Ctx, p: RefreshParams): Subject {
  const one = p.sessionIds?.length === 1 ? findSession(ctx.sessions, p.profile, p.sessionIds[0]!) : undefined;
  const allStale = !!p.onlyStale || (!!p.sessionIds && p.sessionIds.every((id) => findSession(ctx.sessions, p.profile, id)?.state === 'stale'));
  return { sessionLabel: one ? sessionLabel(one) : undefined, allStale };
}

async function showFailure(ctx: Ctx, message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, 'Show Output');
  if (choice) ctx.output.show(true);
}

