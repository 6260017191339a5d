// Which stable-tier families could share a cache entry and do not: for sessions of two profiles (or
// homes) on the same platform and folder and model, and for one profile's sessions on two platforms,
// the pair of their families whose prefixes agree the longest, judged by the families' prints (the
// tools' keys, then the stable tier's block digests) without any prompt's text. Where one family
// holds both sides, they share: no parting. The stable tier is the breakpoint Hermes places for
// sharing across sessions (`static_system_prefix`); the whole prompt holds per-session text by design.
import type { PrefixFamily, PrefixMember } from './types';

export interface PairChoice {
  readonly a: PrefixFamily;
  readonly b: PrefixFamily;
  /** A member of each, alike as far as can be (the same folder, the most recent): whose prompts are compared. */
  readonly memberA: PrefixMember;
  readonly memberB: PrefixMember;
}

/** Families of a side considered at most (the largest first): a home with thousands of prompts has hundreds per platform. */
const FAMILIES_PER_SIDE = 32;

/** The pairs of stable families to explain, one per pair of sides that share no family. */
export function choosePairs(stableFamilies: readonly PrefixFamily[]): PairChoice[] {
  const out: PairChoice[] = [];
  const seen = new Set<string>();
  for (const [, sides] of sidesByGroup(stableFamilies, sameFolderSide)) out.push(...pairsAmong(sides, (x, y) => x.platform === y.platform && x.folder === y.folder && (x.home !== y.home || x.profile !== y.profile), seen));
  for (const [, sides] of sidesByGroup(stableFamilies, platformSide)) out.push(...pairsAmong(sides, (x, y) => x.home === y.home && x.profile === y.profile && x.platform !== y.platform, seen));
  return out;
}

interface Side {
  readonly key: string;
  readonly home: string;
  readonly profile: string;
  readonly platform: string;
  readonly folder: string;
  /** The families holding members of this side, the largest first, with those members. */
  readonly families: Map<PrefixFamily, PrefixMember[]>;
}

type SideOf = (m: PrefixMember) => { key: string; folder: string };
const sameFolderSide: SideOf = (m) => ({ key: `${m.home}\u0000${m.profile}\u0000${m.platform}\u0000${m.report.cwd ?? ''}`, folder: m.report.cwd ?? '' });
const platformSide: SideOf = (m) => ({ key: `${m.home}\u0000${m.profile}\u0000${m.platform}`, folder: '' });

/** The sides of each model and provider (a cache entry is per model). */
function sidesByGroup(families: readonly PrefixFamily[], sideOf: SideOf): Map<string, Side[]> {
  const groups = new Map<string, Map<string, Side>>();
  for (const family of families) {
    const group = `${family.model}\u0000${family.provider}`;
    let sides = groups.get(group);
    if (!sides) groups.set(group, (sides = new Map()));
    for (const member of family.members) {
      const { key, folder } = sideOf(member);
      let side = sides.get(key);
      if (!side) sides.set(key, (side = { key, home: member.home, profile: member.profile, platform: member.platform, folder, families: new Map() }));
      const held = side.families.get(family);
      if (held) held.push(member);
      else side.families.set(family, [member]);
    }
  }
  return new Map([...groups].map(([group, sides]) => [group, [...sides.values()].sort((x, y) => (x.key < y.key ? -1 : 1))]));
}

function pairsAmong(sides: readonly Side[], eligible: (x: Side, y: Side) => boolean, seen: Set<string>): PairChoice[] {
  const out: PairChoice[] = [];
  for (let i = 0; i < sides.length; i++) {
    for (let j = i + 1; j < sides.length; j++) {
      const x = sides[i]!;
      const y = sides[j]!;
      if (!eligible(x, y) || [...x.families.keys()].some((f) => y.families.has(f))) continue;
      const best = closestPair(x, y);
      const key = `${best.a.id}\u0000${best.b.id}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(best);
      }
    }
  }
  return out;
}

/** Of two sides' families, the pair whose prints agree the longest (then the most sessions). */
function closestPair(x: Side, y: Side): PairChoice {
  let best: { choice: PairChoice; score: number[] } | undefined;
  for (const [a, inA] of largest(x.families)) {
    for (const [b, inB] of largest(y.families)) {
      const score = [...agreement(a.members[0]!, b.members[0]!), a.members.length + b.members.length];
      if (!best || isGreater(score, best.score)) best = { choice: { a, b, memberA: newest(inA), memberB: newest(inB) }, score };
    }
  }
  return best!.choice;
}

function largest(families: Map<PrefixFamily, PrefixMember[]>): Array<[PrefixFamily, PrefixMember[]]> {
  return [...families].sort((p, q) => q[1].length - p[1].length).slice(0, FAMILIES_PER_SIDE);
}

/**
 * How far two members' prefixes agree, as [tools equal, tools agreeing, stable equal, stable blocks
 * agreeing]: compared in that order, as the bytes come.
 */
export function agreement(a: PrefixMember, b: PrefixMember): number[] {
  const toolsEqual = a.tools.digest === b.tools.digest ? 1 : 0;
  const stableEqual = a.print.stableDigest === b.print.stableDigest ? 1 : 0;
  return [toolsEqual, commonLength(a.tools.keys, b.tools.keys), stableEqual, commonLength(blockDigests(a), blockDigests(b))];
}

// The stable blocks' digests of a print, made once per print (a pair of sides compares each many times).
const digestsOf = new WeakMap<object, readonly string[]>();

function blockDigests(m: PrefixMember): readonly string[] {
  let digests = digestsOf.get(m.print);
  if (!digests) digestsOf.set(m.print, (digests = m.print.stableBlocks.map((k) => k.digest)));
  return digests;
}

export function commonLength(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function isGreater(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

function newest(members: readonly PrefixMember[]): PrefixMember {
  return members.reduce((m, n) => ((n.report.lastActivityAt ?? 0) > (m.report.lastActivityAt ?? 0) ? n : m));
}
