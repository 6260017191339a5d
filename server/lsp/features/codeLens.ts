// The lens at the top of a source file: `N sessions stale · ≈ $X now · Refresh`, or
// `All N sessions current` (or how many still have to adopt a requested refresh). While the file
// has unsaved changes, what saving them would do instead, titled as a preview (no Refresh: a
// refresh now would rebuild from the file as saved).
import type { CodeLens, CodeLensParams } from 'vscode-languageserver/node';
import { formatUsd } from '../../hermes/cost/refreshCost';
import { ClientCommands, Commands, type RefreshParams, type SavePreviewDto } from '../../../shared/protocol';
import type { HermesModel } from '../../workspace/hermesModel';
import { refreshOffer } from '../../workspace/refreshOffer';
import { summarizeRole } from '../../workspace/roleSummary';
import { uriToPath } from '../uri';

const TOP = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const SHOW_SESSIONS_COMMAND = ClientCommands.showSessions;
/** What a lens on a file with unsaved changes starts with. */
export const PREVIEW_TITLE = 'Preview (unsaved)';

/** `preview`: what saving the document's unsaved text would do (savePreviews.ts), when it has any. */
export function provideCodeLenses(model: HermesModel, params: CodeLensParams, preview?: SavePreviewDto): CodeLens[] {
  const file = uriToPath(params.textDocument.uri);
  const role = file ? model.roleOf(file) : undefined;
  if (!role) return [];
  if (preview) return [{ range: TOP, command: { title: `${PREVIEW_TITLE}: ${preview.short}`, command: SHOW_SESSIONS_COMMAND } }];
  if (role.shadowedBy) {
    return [{ range: TOP, command: { title: 'Not loaded by any session: another context file wins', command: SHOW_SESSIONS_COMMAND } }];
  }
  const summary = summarizeRole(role);
  if (summary.stale === 0) {
    const title =
      summary.pending > 0
        ? `${summary.pending} of ${summary.sessions} session${plural(summary.sessions)} pending refresh (adopted on their next turn)`
        : `All ${summary.sessions} session${plural(summary.sessions)} current`;
    return [{ range: TOP, command: { title, command: SHOW_SESSIONS_COMMAND } }];
  }
  const unknown = summary.unknownCost ? ` + ${summary.unknownCost} unknown` : '';
  const lenses: CodeLens[] = [
    {
      range: TOP,
      command: {
        title: `${summary.stale} session${plural(summary.stale)} stale · ${formatUsd(summary.costUsd, true)} now${unknown}`,
        command: SHOW_SESSIONS_COMMAND,
      },
    },
  ];
  // Where the build cannot adopt a request, the older way, named as such.
  const older = refreshOffer(model.build).kind === 'clear-prompt';
  for (const p of summary.byProfile) {
    const args: RefreshParams = { profile: p.profile, onlyStale: true, ...(older ? { strategy: 'clear-prompt' as const } : {}) };
    const where = summary.byProfile.length > 1 ? ` in ${p.profile}` : '';
    lenses.push({ range: TOP, command: { title: `${older ? 'Clear stored prompts' : 'Refresh'}${where}`, command: Commands.refresh, arguments: [args] } });
  }
  return lenses;
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}
