// Plain-text formatting for the CLI: aligned columns, short numbers, relative times.
import { formatUsd } from '../hermes/cost/refreshCost';
import { NO_CACHE } from '../hermes/cost/ttl';
import type { SessionReport } from '../hermes/engine/types';
import { recordedByHermes } from '../hermes/refresh/adoption';
import { adoptionPhrase, CLEAR_INSTEAD } from '../hermes/refresh/adoptionWords';

/**
 * Text from a state.db or a file made safe for a terminal: control characters (an ANSI escape in a
 * session title, a newline) are shown as U+FFFD instead of being interpreted.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
}

export function table(rows: readonly (readonly string[])[], indent = '  '): string {
  rows = rows.map((row) => row.map(printable));
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows
    .map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length))).join('  '))
    .join('\n');
}

export function shortCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function relativeTime(epochSeconds: number | undefined, now: number): string {
  if (epochSeconds === undefined) return '—';
  const s = Math.max(0, now - epochSeconds);
  if (s < 60) return `${Math.round(s)}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

export function cacheText(session: SessionReport, now: number): string {
  if (session.ttlSeconds === NO_CACHE) return 'off';
  if (!session.cacheWarm || session.cacheExpiresAt === undefined) return 'cold';
  const left = Math.max(0, session.cacheExpiresAt - now);
  return left >= 60 ? `warm ${Math.round(left / 60)}m left` : `warm ${Math.round(left)}s left`;
}

/** The refresh cost as shown: "≈ $0.42", "unknown", "$0" for a current session. */
export function costText(session: SessionReport): string {
  if (session.state === 'fresh') return '$0';
  if (session.state === 'no-prompt') return '—';
  const usd = formatUsd(session.refreshCostUsd, true);
  return session.apiEquivalent && session.refreshCostUsd !== undefined ? `${usd} (API-equiv.)` : usd;
}

export function tokensText(session: SessionReport): string {
  return `${session.tokensExact ? '' : '≈'}${shortCount(session.prefixTokens)}`;
}

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max - 1).join('') + '…';
}

/**
 * What `status` says under a session of its watched refresh request once decided: how it stood,
 * the lens's estimate beside what Hermes recorded for the turn, and for a request not adopted the
 * older way with its command.
 */
export function adoptionLines(session: SessionReport): string[] {
  const w = session.adoption;
  if (!w || w.state === 'pending') return [];
  const lines = [`epoch ${w.epoch}: ${adoptionPhrase(w)}`];
  const recorded = recordedByHermes(w);
  const predicted = w.predicted ? `predicted ${formatUsd(w.predicted.costUsd ?? undefined, true)} (≈${shortCount(w.predicted.prefixTokens)} tokens written to the cache)` : 'no prediction kept';
  if (recorded) {
    lines.push(
      `${predicted}; Hermes recorded ${signed(recorded.cacheWriteTokens)} cache-write, ${signed(recorded.cacheReadTokens)} cache-read, ${signed(recorded.inputTokens)} input tokens over that turn`,
    );
  }
  if (w.state === 'not-adopted') lines.push(`${CLEAR_INSTEAD} hermes-lens refresh --session ${session.id} --strategy clear-prompt -p ${session.profile}`);
  return lines;
}

function signed(n: number): string {
  return `${n < 0 ? '-' : '+'}${shortCount(Math.abs(n))}`;
}
