// Small text helpers for the views and messages. No vscode import (unit-tested).
import { NOT_ADOPTED } from '../shared/adoptionWords';

/** `$0.84`, `$12.30`, `< $0.01`, `$0.00`; `unknown` for null/undefined. */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return 'unknown';
  if (usd > 0 && usd < 0.01) return '< $0.01';
  return `$${usd.toFixed(2)}`;
}

/** `≈ $0.84` (costs are estimates), `< $0.01`, or `cost unknown`. */
export function formatCost(usd: number | null | undefined): string {
  const text = formatUsd(usd);
  if (text === 'unknown') return 'cost unknown';
  return text.startsWith('<') ? text : `≈ ${text}`;
}

/** `1 session`, `3 sessions`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `12,345` */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** `812 B`, `3.4 KB`, `1.2 MB` */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `812 tokens` or `≈ 812 tokens` when the count is an estimate. */
export function formatTokens(tokens: number, exact: boolean): string {
  return `${exact ? '' : '≈ '}${formatInt(tokens)} tokens`;
}

/** Hermes timestamps are Unix epoch seconds (floats). `just now`, `5m ago`, `3h ago`, `2d ago`. */
export function formatAgo(epochSeconds: number | null | undefined, nowMs = Date.now()): string {
  if (epochSeconds === null || epochSeconds === undefined || !Number.isFinite(epochSeconds)) return 'no activity';
  const seconds = Math.max(0, nowMs / 1000 - epochSeconds);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  if (seconds < 86400 * 60) return `${Math.floor(seconds / 86400)}d ago`;
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-29 17:35` in local time, for tooltips. */
export function formatTimestamp(epochSeconds: number | null | undefined): string {
  if (epochSeconds === null || epochSeconds === undefined || !Number.isFinite(epochSeconds)) return 'unknown';
  const d = new Date(epochSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${formatClock(epochSeconds)}`;
}

/** `17:35` in local time. */
export function formatClock(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The base name of a file URI or path, for messages. */
export function baseName(uriOrPath: string): string {
  let s = uriOrPath;
  try {
    if (/^[a-z][a-z0-9+.-]*:/i.test(s)) s = decodeURIComponent(new URL(s).pathname);
  } catch {
    // not a URL: use it as a path
  }
  const parts = s.split(/[\\/]/).filter((p) => p.length > 0);
  return parts.length > 0 ? parts[parts.length - 1]! : uriOrPath;
}

/** The message shown after a save made sessions stale. */
export function savedSourceMessage(p: { uri: string; profile: string; newlyStale: number; staleRefreshCostUsd: number }): string {
  const cost = formatUsd(p.staleRefreshCostUsd);
  const costText = cost === 'unknown' ? 'refresh cost unknown' : `${cost.startsWith('<') ? cost : `≈ ${cost}`} to refresh now`;
  return `Saving ${baseName(p.uri)} made ${plural(p.newlyStale, 'session')} stale in profile ${p.profile} (${costText}).`;
}

/** The notification for `n` sessions newly seen taking a turn without adopting their refresh request. */
export function notAdoptedMessage(n: number): string {
  return `Hermes: ${n === 1 ? 'a session' : `${n} sessions`} ${NOT_ADOPTED}. Its menu in the Sessions view offers clearing the stored prompt instead.`;
}
