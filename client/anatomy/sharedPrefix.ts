// What of a session's cached prefix other sessions share (the prefix families, PrefixSharing): the
// deepest breakpoint whose family holds other sessions too, where Hermes marks it or the provider
// caches by itself. The anatomy view marks that part of the bar. Pure (no vscode, no DOM).
import type { BreakpointName, PrefixFamiliesDto } from '../../shared/prefixFamilies';
import { formatInt, plural } from '../format';

export interface SharedPrefix {
  /** Up to which breakpoint: `tools` (only the tool schemas), `stable` (and the stable tier), `system` (the whole system prompt). */
  readonly breakpoint: BreakpointName;
  readonly tokens: number;
  readonly tokensExact: boolean;
  /** The other sessions sharing it, and their profiles and platforms (this session's own included). */
  readonly others: number;
  readonly profiles: readonly string[];
  readonly platforms: readonly string[];
}

const DEPTH: Readonly<Record<BreakpointName, number>> = { tools: 0, stable: 1, system: 2 };

/** The shared part of `sessionId`'s prefix; null when it shares none (or the families are not known). */
export function sharedPrefixOf(families: PrefixFamiliesDto | undefined, profile: string, sessionId: string): SharedPrefix | null {
  if (!families) return null;
  let best: SharedPrefix | null = null;
  for (const f of families.families) {
    if (f.sessions < 2 || (f.marked !== 'yes' && f.marked !== 'implicit')) continue;
    if (!f.members.some((m) => m.profile === profile && m.sessionId === sessionId)) continue;
    if (best && DEPTH[best.breakpoint] >= DEPTH[f.breakpoint]) continue;
    best = { breakpoint: f.breakpoint, tokens: f.tokens, tokensExact: f.tokensExact, others: f.sessions - 1, profiles: f.profiles, platforms: f.platforms };
  }
  return best;
}

/** `Shared with 2 other sessions (default, work · cli) up to the end of the stable tier: ≈ 13,402 tokens read from one cache entry.` */
export function sharedPrefixText(shared: SharedPrefix | null): string {
  if (!shared) return 'Its cached prefix is its own: no other live session sends the same bytes up to a cache breakpoint.';
  const upTo = { tools: 'the end of the tool schemas (before the system prompt)', stable: 'the end of the stable tier', system: 'the end of the system prompt' }[shared.breakpoint];
  return `Shared with ${plural(shared.others, 'other session')} (${shared.profiles.join(', ')} · ${shared.platforms.join(', ')}) up to ${upTo}: ${shared.tokensExact ? '' : '≈ '}${formatInt(shared.tokens)} tokens from one cache entry.`;
}
