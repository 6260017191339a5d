// Quick fixes on a source file: refresh a profile this file made sessions stale in (the
// profile-wide request, which reaches its every stale session), or one session this file made
// stale (named by its title and the tip of its chain). They run the engine's refresh through
// workspace/executeCommand; in an untrusted workspace they are shown disabled, with the reason. Where
// the Hermes build cannot adopt a refresh request they offer the older way, clearing the prompt.
import { CodeActionKind, type CodeAction, type CodeActionParams } from 'vscode-languageserver/node';
import { formatUsd } from '../../hermes/cost/refreshCost';
import { Commands, type RefreshParams } from '../../../shared/protocol';
import type { HermesModel } from '../../workspace/hermesModel';
import { refreshOffer } from '../../workspace/refreshOffer';
import { UNTRUSTED_REFRESH_MESSAGE } from '../../workspace/refreshService';
import { summarizeRole } from '../../workspace/roleSummary';
import { uriToPath } from '../uri';

export function provideCodeActions(model: HermesModel, params: CodeActionParams, trusted: boolean): CodeAction[] {
  const file = uriToPath(params.textDocument.uri);
  const role = file ? model.roleOf(file) : undefined;
  if (!role) return [];
  const actions: CodeAction[] = [];
  const disabled = trusted ? undefined : { reason: UNTRUSTED_REFRESH_MESSAGE };
  const offer = refreshOffer(model.build);
  // Where the build cannot adopt a request, the older way, named as such (and why).
  const older = offer.kind === 'clear-prompt' ? { strategy: 'clear-prompt' as const } : {};
  const why = offer.kind === 'clear-prompt' ? `; ${offer.why}` : '';
  for (const p of summarizeRole(role).byProfile) {
    // The profile-wide request reaches every stale session of the profile, so it counts them all.
    const all: RefreshParams = { profile: p.profile, onlyStale: true, ...older };
    const { stale, staleRefreshCostUsd, unknownCost } = p.profileTotals;
    const unknown = unknownCost ? `, ${unknownCost} of unknown cost` : '';
    const sessions = `${stale} stale session${stale === 1 ? '' : 's'} in profile ${p.profile}`;
    const what = offer.kind === 'clear-prompt' ? `Clear the stored prompt${stale === 1 ? '' : 's'} of ${sessions}` : `Refresh ${sessions}`;
    const title = `${what} (${formatUsd(staleRefreshCostUsd, true)}${unknown}${why})`;
    actions.push({ title, kind: CodeActionKind.QuickFix, isPreferred: true, disabled, command: { title, command: Commands.refresh, arguments: [all] } });
    for (const s of p.stale) {
      const label = s.title ? `"${s.title}"` : s.id;
      const tip = s.tipSessionId ? ` → ${s.tipSessionId}` : '';
      const verb = offer.kind === 'clear-prompt' ? 'Clear the stored prompt of session' : 'Refresh session';
      const one = `${verb} ${label} (${s.id}${tip}, ${formatUsd(s.refreshCostUsd, true)})`;
      const args: RefreshParams = { profile: p.profile, sessionIds: [s.id], ...older };
      actions.push({ title: one, kind: CodeActionKind.QuickFix, disabled, command: { title: one, command: Commands.refresh, arguments: [args] } });
    }
  }
  return actions;
}
