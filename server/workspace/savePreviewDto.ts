// A save preview's figures and words, the same in the hover, the code lens and the status item:
// `Saving makes 7 sessions stale (≈ $0.42 to refresh now; 3 warm)`.
import { formatUsd } from '../hermes/cost/refreshCost';
import type { SavePreview } from '../hermes/engine/savePreview';
import type { SavePreviewDto } from '../../shared/protocol';

export function savePreviewDto(uri: string, preview: SavePreview): SavePreviewDto {
  const stale = preview.sessions.filter((s) => s.staleAfter);
  const figures = {
    uri,
    changesPrompt: preview.changesPrompt,
    sessions: preview.sessions.length,
    stale: stale.length,
    alreadyStale: stale.filter((s) => s.staleNow).length,
    currentAgain: preview.sessions.filter((s) => s.staleNow && !s.anyStaleAfter).length,
    costUsd: stale.reduce((n, s) => n + (s.refreshCostUsd ?? 0), 0),
    unknownCost: stale.filter((s) => s.refreshCostUsd === undefined).length,
    warm: stale.filter((s) => s.cacheWarm).length,
  };
  return { ...figures, ...words(figures) };
}

type Figures = Omit<SavePreviewDto, 'sentence' | 'short'>;

function words(f: Figures): { sentence: string; short: string } {
  if (!f.changesPrompt) return { sentence: "Saving changes no session's prompt.", short: "saving changes no session's prompt" };
  if (f.stale > 0) {
    const unknown = f.unknownCost ? ` + ${f.unknownCost} of unknown cost` : '';
    const cost = formatUsd(f.costUsd, true);
    return {
      sentence: `Saving makes ${sessions(f.stale)} stale (${cost}${unknown} to refresh now; ${f.warm} warm).`,
      short: `saving makes ${sessions(f.stale)} stale · ${cost}${f.unknownCost ? ` + ${f.unknownCost} unknown` : ''}`,
    };
  }
  if (f.currentAgain > 0) {
    const what = `saving makes ${f.currentAgain} stale session${f.currentAgain === 1 ? '' : 's'} current again`;
    return { sentence: `S${what.slice(1)}.`, short: what };
  }
  return { sentence: 'Saving makes no session stale.', short: 'saving makes no session stale' };
}

function sessions(n: number): string {
  return `${n} session${n === 1 ? '' : 's'}`;
}
