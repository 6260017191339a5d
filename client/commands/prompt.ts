// Commands that show a session's prompt: the stored text, the diff with what a refresh would build,
// and the size of each tier.
import * as vscode from 'vscode';
import { PromptAnatomyRequest, type SessionDto, type SessionRef } from '../../shared/protocol';
import { errorMessage, type Ctx } from '../ctx';
import { formatBytes, formatTokens } from '../format';
import { pickSession } from '../picks';
import { findSession, sessionLabel } from '../sessionsModel';
import { sessionFromArg } from './args';
import type { CommandContext } from './index';

const hasPrompt = (s: SessionDto) => s.state !== 'no-prompt';

/** The session of the argument, else a quick pick; undefined (with a message) when it has no prompt. */
async function resolveSession(ctx: Ctx, arg: unknown, placeHolder: string): Promise<SessionRef | undefined> {
  const ref = sessionFromArg(arg) ?? (await pickSession(ctx, placeHolder, hasPrompt));
  if (!ref) return undefined;
  const session = findSession(ctx.sessions, ref.profile, ref.sessionId);
  if (session && !hasPrompt(session)) {
    void vscode.window.showInformationMessage(`Session "${sessionLabel(session)}" has no stored prompt yet: Hermes builds it on its next turn.`);
    return undefined;
  }
  return ref;
}

function label(ctx: Ctx, ref: SessionRef): string {
  const s = findSession(ctx.sessions, ref.profile, ref.sessionId);
  return s ? sessionLabel(s) : ref.sessionId;
}

async function failed(ctx: Ctx, what: string, e: unknown): Promise<void> {
  const choice = await vscode.window.showErrorMessage(`Hermes: ${what}: ${errorMessage(e)}`, 'Show Output');
  if (choice) ctx.output.show(true);
}

export function showPrompt({ ctx, prompts }: CommandContext) {
  return async (arg?: unknown): Promise<void> => {
    const ref = await resolveSession(ctx, arg, 'Show the stored prompt of which session?');
    if (!ref) return;
    try {
      await prompts.show(ref);
    } catch (e) {
      await failed(ctx, 'could not open the stored prompt', e);
    }
  };
}

export function diffPrompt({ ctx, prompts }: CommandContext) {
  return async (arg?: unknown): Promise<void> => {
    const ref = await resolveSession(ctx, arg, 'Compare the stored prompt of which session with a refreshed one?');
    if (!ref) return;
    try {
      const diff = await prompts.fetchDiff(ref);
      if (diff.before === diff.after) {
        void vscode.window.showInformationMessage(`The stored prompt of "${label(ctx, ref)}" is already what a refresh would build.`);
        return;
      }
      await prompts.showDiff(ref, `${label(ctx, ref)}: stored ↔ after refresh`, diff);
    } catch (e) {
      await failed(ctx, 'could not compare the prompt', e);
    }
  };
}

interface SizeItem extends vscode.QuickPickItem {
  range?: { start: number; end: number };
}

/** Tier and block sizes in a quick pick; picking one opens the prompt at that place. */
export function showPromptSize({ ctx, prompts }: CommandContext) {
  return async (arg?: unknown): Promise<void> => {
    const ref = await resolveSession(ctx, arg, 'Show the prompt size of which session?');
    if (!ref) return;
    let anatomy;
    try {
      anatomy = await ctx.request(PromptAnatomyRequest, ref);
    } catch (e) {
      await failed(ctx, 'could not measure the prompt', e);
      return;
    }
    const size = (bytes: number, tokens: number) => `${formatBytes(bytes)} · ${formatTokens(tokens, anatomy.tokensExact)}`;
    const share = (bytes: number) => (anatomy.bytes > 0 ? ` · ${Math.round((bytes / anatomy.bytes) * 100)}%` : '');
    const items: SizeItem[] = [{ label: 'Tiers', kind: vscode.QuickPickItemKind.Separator }];
    for (const t of anatomy.tiers) {
      items.push({ label: `$(layers) ${t.name} tier`, description: size(t.bytes, t.tokens) + share(t.bytes), range: { start: t.start, end: t.end } });
    }
    items.push({ label: 'Blocks', kind: vscode.QuickPickItemKind.Separator });
    for (const b of anatomy.blocks) {
      items.push({
        label: `$(symbol-field) ${b.kind}${b.label ? `: ${b.label}` : ''}`,
        description: `${b.tier} · ${size(b.bytes, b.tokens)}${share(b.bytes)}`,
        range: { start: b.start, end: b.end },
      });
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: `${label(ctx, ref)}: ${size(anatomy.bytes, anatomy.tokens)}`,
      placeHolder: 'Pick a tier or block to open the stored prompt there',
      matchOnDescription: true,
    });
    if (picked?.range) await prompts.show(ref, picked.range);
  };
}
