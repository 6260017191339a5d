// What of a session's cached prefix other sessions share (the prefix families, PrefixSharing): at
// each breakpoint whose family holds other sessions too, where Hermes marks it or the provider
// caches by itself. The anatomy view marks the longest shared part of the bar and names each level.
// Pure (no vscode, no DOM).
import type { BreakpointName, PrefixFamiliesDto } from '../../shared/prefixFamilies';
import { formatInt, plural } from '../format';

export interface SharedLevel {
  /** Up to which breakpoint: `tools` (only the tool schemas), `stable` (and the stable tier), `system` (the whole system prompt). */
  readonly breakpoint: BreakpointName;
  readonly tokens: number;
  readonly tokensExact: boolean;
  /** The other sessions sharing it, and the profiles and platforms of all (this session's included). */
  readonly others: number;
  readonly profiles: readonly string[];
  readonly platforms: readonly string[];
}

export interface SharedPrefix {
  /** The breakpoints it is shared at, shortest prefix first. */
  readonly levels: readonly SharedLevel[];
}

const DEPTH: Readonly<Record<BreakpointName, number>> = { tools: 0, stable: 1, system: 2 };

/** The shared parts of `sessionId`'s prefix; null when it shares none (or the families are not known). */
export function sharedPrefixOf(families: PrefixFamiliesDto | undefined, profile: string, sessionId: string): SharedPrefix | null {
  if (!families) return null;
  const levels: SharedLevel[] = [];
  for (const f of families.families) {
    if (f.sessions < 2 || (f.marked !== 'yes' && f.marked !== 'implicit')) continue;
    if (!f.members.some((m) => m.profile === profile && m.sessionId === sessionId)) continue;
    levels.push({ breakpoint: f.breakpoint, tokens: f.tokens, tokensExact: f.tokensExact, others: f.sessions - 1, profiles: f.profiles, platforms: f.platforms });
  }
  levels.sort((a, b) => DEPTH[a.breakpoint] - DEPTH[b.breakpoint]);
  return levels.length > 0 ? { levels } : null;
}

/** The longest shared part: what the bar marks. */
export function longestShared(shared: SharedPrefix | null): SharedLevel | undefined {
  return shared?.levels[shared.levels.length - 1];
}

const UP_TO: Readonly<Record<BreakpointName, string>> = {
  tools: 'the end of the tool schemas (before the system prompt)',
  stable: 'the end of the stable tier',
  system: 'the end of the system prompt',
};

/** `Shared with 2 other sessions (default, work · cli) up to the end of the stable tier: ≈ 13,402 tokens from one cache entry.`, a sentence per level. */
export function sharedPrefixText(shared: SharedPrefix | null): string {
  if (!shared) return 'Its cached prefix is its own: no other live session sends the same bytes up to a cache breakpoint.';
  return [...shared.levels]
    .reverse()
    .map((l) => `Shared with ${plural(l.others, 'other session')} (${l.profiles.join(', ')} · ${l.platforms.join(', ')}) up to ${UP_TO[l.breakpoint]}: ${l.tokensExact ? '' : '≈ '}${formatInt(l.tokens)} tokens from one cache entry.`)
    .join(' ');
}
