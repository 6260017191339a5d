// Members grouped into families at each breakpoint: the same model and provider (a cache entry is
// the provider's, per model), then the same tools array (`tools`), then the same stable tier
// (`stable`: Hermes' static prefix), then the same whole system prompt (`system`). Each family at a
// breakpoint lies inside one family of the breakpoint before: prefixes nest.
import { digestOf } from '../anatomy/prefixPrint';
import { countsExactlyFor } from '../cost/tokens';
import { memo } from '../memo';
import { markedAt } from './cacheLayout';
import { BREAKPOINTS, type Breakpoint, type PrefixFamily, type PrefixMember } from './types';

interface Grouping {
  readonly key: string;
  readonly breakpoint: Breakpoint;
  readonly parentKey: string | undefined;
  readonly members: PrefixMember[];
}

/** Every family of these members, `tools` first, then `stable`, then `system`; within each, the most sessions first. */
export function groupFamilies(members: readonly PrefixMember[]): PrefixFamily[] {
  const groups = new Map<string, Grouping>();
  for (const member of members) {
    let parentKey: string | undefined;
    for (const breakpoint of BREAKPOINTS) {
      const key = keyAt(member, breakpoint);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { key, breakpoint, parentKey, members: [] }));
      group.members.push(member);
      parentKey = key;
    }
  }
  const ids = new Map<string, string>();
  const idOf = (key: string) => memo(ids, key, () => `${groups.get(key)!.breakpoint}:${familyDigest(key)}`);
  const families = [...groups.values()].map((g) => familyOf(g, idOf(g.key), g.parentKey === undefined ? undefined : idOf(g.parentKey)));
  const order = new Map(BREAKPOINTS.map((b, i) => [b, i]));
  return families.sort((a, b) => order.get(a.breakpoint)! - order.get(b.breakpoint)! || b.members.length - a.members.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What a member's prefix up to `breakpoint` is keyed by (digests joined: hashed once per family). */
export function keyAt(member: PrefixMember, breakpoint: Breakpoint): string {
  const tools = `${member.model}\u0000${member.provider}\u0000${member.tools.digest}`;
  if (breakpoint === 'tools') return `t\u0000${tools}`;
  if (breakpoint === 'stable') return `s\u0000${tools}\u0000${member.print.stableDigest}`;
  return `y\u0000${tools}\u0000${member.identity}`;
}

// Family ids by key, across runs of one process (the server's evaluations): hashed once each.
const digests = new Map<string, string>();
const DIGESTS_KEPT = 4096;

function familyDigest(key: string): string {
  let digest = digests.get(key);
  if (digest === undefined) {
    if (digests.size >= DIGESTS_KEPT) digests.clear();
    digests.set(key, (digest = digestOf(key).slice(0, 10)));
  }
  return digest;
}

function familyOf(group: Grouping, id: string, parent: string | undefined): PrefixFamily {
  const first = group.members[0]!;
  const { tokens, bytes } = prefixSize(first, group.breakpoint);
  return {
    id,
    breakpoint: group.breakpoint,
    model: first.model,
    provider: first.provider,
    tokens,
    tokensExact: first.report.tokensExact && countsExactlyFor(first.model),
    bytes,
    marked: markedAt(first.layout, group.breakpoint),
    members: group.members,
    homes: distinct(group.members.map((m) => m.home)),
    profiles: distinct(group.members.map((m) => m.profile)),
    platforms: distinct(group.members.map((m) => m.platform)),
    warm: group.members.some((m) => m.report.cacheWarm),
    toolsInferred: group.members.some((m) => !m.tools.recorded),
    parent,
  };
}

/** Tokens and bytes of a member's prefix up to `breakpoint`. */
export function prefixSize(member: PrefixMember, breakpoint: Breakpoint): { tokens: number; bytes: number | undefined } {
  const tools = member.tools;
  if (breakpoint === 'tools') return { tokens: tools.tokens, bytes: tools.bytes };
  const system = breakpoint === 'stable' ? { tokens: member.print.stableTokens, bytes: member.print.stableBytes } : { tokens: member.report.systemPromptTokens, bytes: member.print.bytes };
  return { tokens: tools.tokens + system.tokens, bytes: tools.bytes === undefined ? undefined : tools.bytes + system.bytes };
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
