// Entry point: wiring only. Each concern (status item, tree, commands, confirmation, anatomy panel)
// lives in its own file and is started from here; docs/ARCHITECTURE.md maps them.
import type * as vscode from 'vscode';
import { AnatomyPanel } from './anatomy/anatomyPanel';
import { createApi, type HermesLensApi } from './api';
import { registerAdoptionNotice } from './adoptionNotice';
import { registerCommands } from './commands/index';
import { restartOnRuntimeChange } from './config';
import { Ctx, errorMessage } from './ctx';
import { PromptDocuments } from './promptDocuments';
import { PrefixSharing } from './prefixSharing';
import { RefreshSchedule } from './refreshSchedule';
import { registerSaveNotification } from './saveNotification';
import { SavePreviewTracker } from './savePreviewStatus';
import { registerSessionsView } from './sessionsTree';
import { registerStatus } from './status';
import { registerTrust } from './trust';

let ctx: Ctx | undefined;

export function activate(context: vscode.ExtensionContext): HermesLensApi {
  const c = (ctx = new Ctx(context));
  const prompts = new PromptDocuments(c);
  const prefixes = new PrefixSharing(c);
  const anatomy = new AnatomyPanel(c, prompts, prefixes);
  const previews = new SavePreviewTracker(c);
  const schedule = new RefreshSchedule(c);
  context.subscriptions.push(
    prompts,
    anatomy,
    previews,
    schedule,
    prefixes,
    ...registerSessionsView(c, schedule, prefixes),
    ...registerStatus(c, previews),
    ...registerCommands({ ctx: c, prompts, anatomy }),
    registerTrust(c),
    registerAdoptionNotice(c),
    restartOnRuntimeChange(c),
  );
  registerSaveNotification(c);
  // Never fail activation: a server that does not start shows in the status items and the output.
  const ready = c.start().catch((e) => c.output.error(`Start: ${errorMessage(e)}`));
  return createApi(c, ready);
}

export async function deactivate(): Promise<void> {
  const c = ctx;
  ctx = undefined;
  await c?.dispose();
}
