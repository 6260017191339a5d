// The words and figures of the prompt anatomy view: block names, accessible labels, shares and the
// cache timeline. Pure (no vscode, no DOM): the webview script renders with it and the unit tests
// read it.
import type { PromptPartDto, PromptToolsDto, SessionDto, StaleReasonDto } from '../../shared/protocol';
import { baseName, formatAgo, formatBytes, formatClock, formatInt, formatUsd } from '../format';

const KIND_NAMES: Readonly<Record<string, string>> = {
  identity: 'Identity',
  guidance: 'Guidance',
  'caller-system': 'System message',
  'project-context': 'Project context',
  'git-snapshot': 'Workspace snapshot',
  'platform-hints': 'Platform hint',
  'active-profile': 'Active profile',
  'skills-index': 'Skills index',
  memory: 'Memory',
  'user-profile': 'User profile',
  'plugin-context': 'Plugin context',
  'conversation-started': 'Conversation start',
  'session-id': 'Session ID',
  'model-lines': 'Model lines',
  'runtime-environment': 'Runtime environment',
  other: 'Other text',
};

/** `Skills index` for `skills-index`; an unknown kind as it is. */
export function kindName(kind: string): string {
  return KIND_NAMES[kind] ?? kind;
}

/** What a block of the bar says: the file it comes from, or what Hermes' own text is. */
export function blockCaption(p: PromptPartDto): string {
  return p.origin === 'hermes' ? kindName(p.kind) : p.label;
}

/** `12.3%` from tenths of a percent. */
export function formatShare(tenths: number): string {
  return `${(tenths / 10).toFixed(1)}%`;
}

/** `SOUL.md changed: persona text edited`; `AGENTS.md changed` (a detail that only names the file again is left out). */
export function reasonText(r: StaleReasonDto): string {
  const file = baseName(r.path);
  return `${file} ${r.change}${r.detail && r.detail !== file ? `: ${r.detail}` : ''}`;
}

/** What a screen reader says of a block: kind, source, size, share, tier and why it is stale. */
export function partAriaLabel(p: PromptPartDto, tokensExact: boolean): string {
  const parts = [kindName(p.kind), p.label, `${tokensExact ? '' : 'about '}${formatInt(p.tokens)} tokens`, formatBytes(p.bytes), `${formatShare(p.shareTenths)} of the prompt`, `${p.tier} tier`];
  if (p.stale.length > 0) parts.push(`stale: ${p.stale.map(reasonText).join('; ')}`);
  return parts.join(', ');
}

const TOOL_SIZES_BY: Readonly<Record<PromptToolsDto['by'], string>> = {
  prompt: 'the build that wrote this prompt',
  installed: 'the installed build (the prompt matches no build measured)',
  newest: 'the newest release measured (the prompt matches no build measured)',
};

/** What the tool block says: its tools and size, and whose measured sizes those are. */
export function toolsCaption(t: PromptToolsDto, tokensExact: boolean): string {
  const which = t.recorded ? `${t.count} tools` : `${t.count} tools, the default list of its surface (state.db names none)`;
  const estimated = t.estimated > 0 ? `; ${t.estimated} not measured, counted at the average` : '';
  return `Tool schemas, sent before the system prompt by every request: ${which}, ${tokensExact ? '' : '≈ '}${formatInt(t.tokens)} tokens · ${formatBytes(t.bytes)} (sizes of ${t.buildTitle} as Hermes' own code measured them, ${TOOL_SIZES_BY[t.by]}${estimated})`;
}

/** The tool block's hover: its toolsets, largest first. */
export function toolsetsTitle(t: PromptToolsDto): string {
  return ['Toolsets by size:', ...t.toolsets.map((s) => `${s.toolset}: ${s.tools} tool${s.tools === 1 ? '' : 's'}, ${formatInt(s.tokens)} tokens, ${formatBytes(s.bytes)}`)].join('\n');
}

/** A skill's two costs: its index line on every request, its SKILL.md once loaded. */
export function skillCostText(e: PromptPartDto['entries'][number]): string {
  const index = e.indexBytes === null ? 'not in the index' : `index line ${formatBytes(e.indexBytes)} every request`;
  const body = e.skillMdBytes === null ? 'no SKILL.md found' : `SKILL.md ${formatBytes(e.skillMdBytes)} when loaded`;
  return `${index}; ${body}`;
}

/** `5 min`, `1 h`, `90 s`. */
export function formatTtl(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

export interface CacheTimeline {
  readonly rows: ReadonlyArray<{ readonly term: string; readonly value: string }>;
  /** The cache's lifetime (last activity to expiry, epoch seconds) and the share of it gone by (0–1), when the last activity is known. */
  readonly lifetime: { readonly from: number; readonly to: number; readonly elapsed: number } | undefined;
  /** When what the timeline says changes next (the cache expires), epoch seconds. */
  readonly changesAt: number | undefined;
}

/** The session's prompt cache: last activity, TTL, expiry, from when a refresh is free, and its costs. */
export function cacheTimeline(s: SessionDto, nowSeconds: number): CacheTimeline {
  if (s.ttlSeconds === 0) return uncachedTimeline(s, nowSeconds);
  const expires = s.cacheExpiresAt ?? (s.lastActivityAt !== null ? s.lastActivityAt + s.ttlSeconds : null);
  const warm = s.cacheWarm && expires !== null && expires > nowSeconds;
  const rows: Array<{ term: string; value: string }> = [];
  rows.push(lastActivityRow(s, nowSeconds));
  rows.push({ term: 'Cache lifetime (TTL)', value: formatTtl(s.ttlSeconds) });
  rows.push({ term: 'Cache expires', value: expires === null ? 'unknown' : warm ? formatClock(expires) : `expired at ${formatClock(expires)}` });
  rows.push({ term: 'Refresh is free', value: warm ? `from ${formatClock(expires!)} (but for the prompt change)` : 'now: the cache expired (but for the prompt change)' });
  const api = s.apiEquivalent ? ' (API-equivalent)' : '';
  if (s.state === 'fresh') {
    rows.push({ term: 'Refresh now', value: 'nothing to gain: the stored prompt is current' });
  } else {
    rows.push({ term: 'Refresh now', value: `${formatUsd(warm ? s.refreshCostUsd : s.refreshCostColdUsd)}${api}` });
    rows.push({ term: 'Once expired', value: `${formatUsd(s.refreshCostColdUsd)}${api}` });
  }
  const lifetime =
    s.lastActivityAt === null || expires === null || expires <= s.lastActivityAt
      ? undefined
      : { from: s.lastActivityAt, to: expires, elapsed: Math.min(1, Math.max(0, (nowSeconds - s.lastActivityAt) / (expires - s.lastActivityAt))) };
  return { rows, lifetime, changesAt: warm ? expires! : undefined };
}

function lastActivityRow(s: SessionDto, nowSeconds: number): { term: string; value: string } {
  return { term: 'Last activity', value: s.lastActivityAt === null ? 'none recorded' : `${formatClock(s.lastActivityAt)} (${formatAgo(s.lastActivityAt, nowSeconds * 1000)})` };
}

/** A session of a profile whose `prompt_caching.cache_ttl` turns caching off: no cache to lose, a refresh costs the prompt change only. */
function uncachedTimeline(s: SessionDto, nowSeconds: number): CacheTimeline {
  const rows = [lastActivityRow(s, nowSeconds), { term: 'Cache lifetime (TTL)', value: 'none: prompt caching is off (prompt_caching.cache_ttl in config.yaml)' }];
  if (s.state === 'fresh') rows.push({ term: 'Refresh now', value: 'nothing to gain: the stored prompt is current' });
  else rows.push({ term: 'Refresh now', value: `${formatUsd(s.refreshCostUsd)}${s.apiEquivalent ? ' (API-equivalent)' : ''}: the prompt change only, nothing is cached` });
  return { rows, lifetime: undefined, changesAt: undefined };
}
