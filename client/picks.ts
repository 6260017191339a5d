// Quick picks for the commands run without an argument (from the palette).
import * as vscode from 'vscode';
import type { SessionDto, SessionRef } from '../shared/protocol';
import type { Ctx } from './ctx';
import { formatAgo, formatCost } from './format';
import { stateIcon } from './icons';
import { profileDescription, sessionLabel, sortSessions } from './sessionsModel';

/** The session list, fetched when the server has not pushed one yet. */
async function currentList(ctx: Ctx) {
  return ctx.sessions ?? (await ctx.reloadSessions());
}

/** A profile name; the only profile without asking; profiles with stale sessions first. */
export async function pickProfile(ctx: Ctx, placeHolder: string): Promise<string | undefined> {
  const list = await currentList(ctx);
  const profiles = (list?.profiles ?? []).filter((p) => !p.unavailable);
  if (profiles.length === 0) {
    void vscode.window.showInformationMessage(list?.problem ?? 'Hermes Prompt Lens found no Hermes profile.');
    return undefined;
  }
  if (profiles.length === 1) return profiles[0]!.name;
  const items = [...profiles]
    .sort((a, b) => b.stale - a.stale || a.name.localeCompare(b.name))
    .map((p) => ({ label: p.name, description: profileDescription(p), detail: p.home, iconPath: new vscode.ThemeIcon('account') }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  return picked?.label;
}

interface SessionItem extends vscode.QuickPickItem {
  ref: SessionRef;
}

/** A session of any profile; `filter` keeps the ones the command can act on. */
export async function pickSession(ctx: Ctx, placeHolder: string, filter: (s: SessionDto) => boolean = () => true): Promise<SessionRef | undefined> {
  const list = await currentList(ctx);
  const items: Array<SessionItem | vscode.QuickPickItem> = [];
  for (const profile of list?.profiles ?? []) {
    const sessions = sortSessions(profile.sessions).filter(filter);
    if (sessions.length === 0) continue;
    items.push({ label: profile.name, kind: vscode.QuickPickItemKind.Separator });
    for (const s of sessions) {
      const parts = [s.model ?? 'unknown model', formatAgo(s.lastActivityAt)];
      if (s.state === 'stale') parts.push(formatCost(s.refreshCostUsd));
      items.push({
        label: sessionLabel(s),
        description: parts.join(' · '),
        detail: s.state === 'stale' ? s.reasons.map((r) => `${r.source}: ${r.detail}`).join('; ') || undefined : `${s.state} · ${s.id}`,
        iconPath: stateIcon(s.state),
        ref: { profile: profile.name, sessionId: s.id },
      });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(list?.problem ?? 'No Hermes session to show here.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true, matchOnDetail: true });
  return picked && 'ref' in picked ? picked.ref : undefined;
}
