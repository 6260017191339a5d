// The confirmation's third choice: refresh when free. The server schedules each stale session's
// request for when its prompt cache expires (hermes/refreshWhenFree) and the tree counts down.
import * as vscode from 'vscode';
import { CancelRefreshWhenFreeRequest, RefreshWhenFreeRequest, type CancelRefreshWhenFreeResultDto, type RefreshParams, type RefreshWhenFreeResultDto } from '../../shared/protocol';
import { errorMessage, type Ctx } from '../ctx';
import { profileFromArg, sessionFromArg } from './args';
import type { CommandContext } from './index';

/** What refreshing `request`'s sessions when free would schedule and cost; undefined when the server cannot say. */
export async function planWhenFree(ctx: Ctx, request: RefreshParams): Promise<RefreshWhenFreeResultDto | undefined> {
  try {
    return await ctx.request(RefreshWhenFreeRequest, { ...request, dryRun: true });
  } catch (e) {
    ctx.output.warn(`Refresh when free: ${errorMessage(e)}`);
    return undefined;
  }
}

/** Schedules the refresh when free and says what it scheduled. */
export async function refreshWhenFree(ctx: Ctx, request: RefreshParams): Promise<RefreshWhenFreeResultDto | undefined> {
  try {
    const result = await ctx.request(RefreshWhenFreeRequest, { ...request, dryRun: false });
    ctx.output.info(`Refresh when free ${JSON.stringify(request)}: ${result.message}`);
    void vscode.window.showInformationMessage(result.message);
    return result;
  } catch (e) {
    const choice = await vscode.window.showErrorMessage(`Hermes: could not schedule the refresh: ${errorMessage(e)}`, 'Show Output');
    if (choice) ctx.output.show(true);
    return undefined;
  }
}

/**
 * Cancel Refresh When Free: of a session (its tree node), of a profile (its node or name), else of
 * every profile. Nothing is written: the requests waiting are dropped and their sessions stay as they are.
 */
export function cancelRefreshWhenFree({ ctx }: CommandContext) {
  return async (arg?: unknown): Promise<CancelRefreshWhenFreeResultDto | undefined> => {
    const session = sessionFromArg(arg);
    const profile = session?.profile ?? profileFromArg(arg);
    try {
      const result = await ctx.request(CancelRefreshWhenFreeRequest, session ? { profile, sessionIds: [session.sessionId] } : profile ? { profile } : {});
      ctx.output.info(`Cancel refresh when free ${JSON.stringify(arg === undefined ? {} : { profile, sessionId: session?.sessionId })}: ${result.message}`);
      void vscode.window.showInformationMessage(result.message);
      return result;
    } catch (e) {
      void vscode.window.showErrorMessage(`Hermes: could not cancel the refresh when free: ${errorMessage(e)}`);
      return undefined;
    }
  };
}
