// Members grouped into families at each breakpoint: the same model and provider (a cache entry is
// the provider's, per model), then the same tools array (`tools`), then the same stable tier
// (`stable`: Hermes' static prefix), then the same whole system prompt (`system`). Each family at a
// breakpoint lies inside one family of the breakpoint before: prefixes nest.
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
  // One map per breakpoint: a key is unique within its breakpoint.
  const groups = BREAKPOINTS.map(() => new Map<string, Grouping>());
  for (const member of members) {
    let parentKey: string | undefined;
    for (let b = 0; b < BREAKPOINTS.length; b++) {
      const breakpoint = BREAKPOINTS[b]!;
      const key = keyAt(member, breakpoint);
      let group = groups[b]!.get(key);
      if (!group) groups[b]!.set(key, (group = { key, breakpoint, parentKey, members: [] }));
      group.members.push(member);
      parentKey = key;
    }
  }
  const ids = new Map<string, string>();
  const idOf = (breakpoint: Breakpoint, key: string) => memo(ids, `${breakpoint[0]}${key}`, () => `${breakpoint}:${familyDigest(`${breakpoint}\u0000${key}`)}`);
  const families = groups.flatMap((byKey, b) =>
    [...byKey.values()].map((g) => familyOf(g, idOf(g.breakpoint, g.key), g.parentKey === undefined ? undefined : idOf(BREAKPOINTS[b - 1]!, g.parentKey))),
  );
  const order = new Map(BREAKPOINTS.map((b, i) => [b, i]));
  return families.sort((a, b) => order.get(a.breakpoint)! - order.get(b.breakpoint)! || b.members.length - a.members.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What a member's prefix up to `breakpoint` is keyed by (digests joined: hashed once per family). */
export function keyAt(member: PrefixMember, breakpoint: Breakpoint): string {
  if (breakpoint === 'tools') return member.toolsKey;
  return `${member.toolsKey}\u0000${breakpoint === 'stable' ? member.print.stableDigest : member.identity}`;
}

/**
 * A family's id from its key: the key is made of digests already (of the tools, the stable tier,
 * the prompt), so two FNV-1a hashes of it (60 bits, base64url) tell thousands of families apart
 * without a cryptographic hash per family.
 */
function familyDigest(key: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  let out = '';
  for (let n = 0, x = a >>> 0, y = b >>> 0; n < 10; n++) {
    out += ID_CHARS[(n < 5 ? x >>> (n * 6) : y >>> ((n - 5) * 6)) & 63];
  }
  return out;
}

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function familyOf(group: Grouping, id: string, parent: string | undefined): PrefixFamily {
  const members = group.members;
  const first = members[0]!;
  const { tokens, bytes } = prefixSize(first, group.breakpoint);
  // Worked out when first read (the JSON, the words): a status counts families and reads none of these.
  let homes: string[] | undefined;
  let profiles: string[] | undefined;
  let platforms: string[] | undefined;
  return {
    id,
    breakpoint: group.breakpoint,
    model: first.model,
    provider: first.provider,
    tokens,
    tokensExact: first.report.tokensExact,
    bytes,
    marked: markedAt(first.layout, group.breakpoint),
    members,
    get homes() {
      return (homes ??= distinct(members, (m) => m.home));
    },
    get profiles() {
      return (profiles ??= distinct(members, (m) => m.profile));
    },
    get platforms() {
      return (platforms ??= distinct(members, (m) => m.platform));
    },
    // The members' reports are updated in place: warm as of when it is read.
    get warm() {
      return members.some((m) => m.report.cacheWarm);
    },
    get toolsInferred() {
      return members.some((m) => !m.tools.recorded);
    },
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

function distinct(members: readonly PrefixMember[], of: (m: PrefixMember) => string): string[] {
  if (members.length === 1) return [of(members[0]!)];
  return [...new Set(members.map(of))].sort();
}
