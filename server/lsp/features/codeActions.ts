// Quick fixes on a source file: refresh a profile this file made sessions stale in (the
// profile-wide request, which reaches its every stale session), or one session this file made
// stale (named by its title and the tip of its chain). They run the engine's refresh through
// workspace/executeCommand; in an untrusted workspace they are shown disabled, with the reason.
import { CodeActionKind, type CodeAction, type CodeActionParams } from 'vscode-languageserver/node';
import { formatUsd } from '../../hermes/cost/refreshCost';
import { Commands, type RefreshParams } from '../../../shared/protocol';
import type { HermesModel } from '../hermesModel';
import { UNTRUSTED_REFRESH_MESSAGE } from '../refreshService';
import { summarizeRole } from '../roleSummary';
import { uriToPath } from '../uri';

export function provideCodeActions(model: HermesModel, params: CodeActionParams, trusted: boolean): CodeAction[] {
  const file = uriToPath(params.textDocument.uri);
  const role = file ? model.roleOf(file) : undefined;
  if (!role) return [];
  const actions: CodeAction[] = [];
  const disabled = trusted ? undefined : { reason: UNTRUSTED_REFRESH_MESSAGE };
  for (const p of summarizeRole(role).byProfile) {
    // The profile-wide request: it reaches every stale session of the profile, so it counts them all.
    const all: RefreshParams = { profile: p.profile, onlyStale: true };
    const { stale, staleRefreshCostUsd, unknownCost } = p.profileTotals;
    const unknown = unknownCost ? `, ${unknownCost} of unknown cost` : '';
    const title = `Refresh ${stale} stale session${stale === 1 ? '' : 's'} in profile ${p.profile} (${formatUsd(staleRefreshCostUsd, true)}${unknown})`;
    actions.push({ title, kind: CodeActionKind.QuickFix, isPreferred: true, disabled, command: { title, command: Commands.refresh, arguments: [all] } });
    for (const s of p.stale) {
      const label = s.title ? `"${s.title}"` : s.id;
      const tip = s.tipSessionId ? ` → ${s.tipSessionId}` : '';
      const one = `Refresh session ${label} (${s.id}${tip}, ${formatUsd(s.refreshCostUsd, true)})`;
      actions.push({ title: one, kind: CodeActionKind.QuickFix, disabled, command: { title: one, command: Commands.refresh, arguments: [{ profile: p.profile, sessionIds: [s.id] }] } });
    }
  }
  return actions;
}
