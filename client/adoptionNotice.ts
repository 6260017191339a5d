// When a session takes a turn without adopting the refresh request the lens recorded (the status
// counts it: StatusParams.adoption), say so once in a notification: the tree marks the session and
// its menu offers clearing its stored prompt, the older way, with its two drawbacks.
import * as vscode from 'vscode';
import type { Ctx } from './ctx';
import { notAdoptedMessage } from './format';
import { FOCUS_SESSIONS_COMMAND } from './ids';

export const SHOW_SESSIONS = 'Show Sessions';

export function registerAdoptionNotice(ctx: Ctx): vscode.Disposable {
  let seen: number | undefined;
  return ctx.onDidChangeStatus(() => {
    const now = ctx.status?.adoption?.notAdopted;
    if (now === undefined) return;
    const before = seen;
    seen = now;
    // The first status after a start tells what was known already: nothing new to say.
    if (before === undefined || now <= before) return;
    void vscode.window.showWarningMessage(notAdoptedMessage(now - before), SHOW_SESSIONS).then((choice) => {
      if (choice === SHOW_SESSIONS) void vscode.commands.executeCommand(FOCUS_SESSIONS_COMMAND);
    });
  });
}
