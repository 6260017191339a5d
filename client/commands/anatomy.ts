// Opens the prompt anatomy view: for the session of the argument (a tree row, a hover link), for a
// profile (its newest live session holding a prompt), or, from the palette, a session picked.
import * as vscode from 'vscode';
import { pickSession } from '../picks';
import { findProfile, isLiveWithPrompt, liveWithPrompt } from '../sessionsModel';
import { profileFromArg, sessionFromArg } from './args';
import type { CommandContext } from './index';

export function showPromptAnatomy({ ctx, anatomy }: CommandContext) {
  return async (arg?: unknown): Promise<void> => {
    const path = typeof (arg as { path?: unknown } | undefined)?.path === 'string' ? (arg as { path: string }).path : undefined;
    const ref = sessionFromArg(arg);
    if (ref) return anatomy.show({ ref, chosen: 'asked', path });
    const profileName = profileFromArg(arg);
    if (profileName) {
      const profile = findProfile(ctx.sessions ?? (await ctx.reloadSessions()), profileName);
      const newest = profile ? liveWithPrompt(profile)[0] : undefined;
      if (!newest) {
        void vscode.window.showInformationMessage(`Profile ${profileName} has no live session holding a stored prompt.`);
        return;
      }
      return anatomy.show({ ref: { profile: profileName, sessionId: newest.id }, chosen: 'newest', path });
    }
    const picked = await pickSession(ctx, 'Show the prompt anatomy of which session?', isLiveWithPrompt);
    if (picked) await anatomy.show({ ref: picked, chosen: 'asked' });
  };
}
