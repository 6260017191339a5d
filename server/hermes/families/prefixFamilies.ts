// Prefix families of the profiles read (of one home or several): the families themselves from what
// the analyses hold (no prompt read), then, for the pairs that could share and do not, where and
// why they part and what the split costs, reading two stored prompts and the request times of
// their sessions per pair.
import type { PriceOverrides } from '../cost/prices';
import { toolSize, toolTableNamed } from '../cost/toolSchemas';
import { choosePairs, type PairChoice } from './choosePairs';
import { groupFamilies } from './groupFamilies';
import { membersOf } from './members';
import type { ProfileReading } from './readings';
import { splitCost } from './splitCost';
import type { FamiliesReport, Parting, PartingPlace, PrefixFamily, PrefixMember } from './types';
import { systemDifference, toolsDifference } from './whereParted';
import { systemPlace, toolsPlace, type PartingContext } from './whyParted';

/** Per-day figures come from the requests of this many days before the latest. */
export const ACTIVITY_DAYS = 7;
const DAY = 86_400;

export interface FamiliesOptions {
  readonly priceOverrides?: PriceOverrides;
  /** What the words may know of toolsets (whyParted.ts). */
  readonly context?: Omit<PartingContext, 'fsOf'>;
  /**
   * Where a caller that explains the same pairs again and again (the language server, after each
   * Hermes write) keeps where two members' prompts part: reading and comparing them is the cost.
   */
  readonly places?: Map<string, PartingPlaces>;
}

/** Where a pair's prefixes part: in the tools or the system prompt, and past the tools. */
export interface PartingPlaces {
  readonly first: PartingPlace | undefined;
  readonly then: PartingPlace | undefined;
}

/** The families alone: cheap, from the analyses. */
export function familiesOf(readings: readonly ProfileReading[], options: FamiliesOptions = {}): { members: PrefixMember[]; families: PrefixFamily[] } {
  const members = readings.flatMap((r) => membersOf(r.home, r.analysis, options.priceOverrides));
  return { members, families: groupFamilies(members) };
}

export function prefixFamiliesReport(readings: readonly ProfileReading[], options: FamiliesOptions = {}): FamiliesReport {
  const { members, families } = familiesOf(readings, options);
  return { homes: [...new Set(readings.map((r) => r.home))], families, ...explainPartings(members, families, readings, options) };
}

/** Where the families that could share part, and what that costs. */
export function explainPartings(members: readonly PrefixMember[], families: readonly PrefixFamily[], readings: readonly ProfileReading[], options: FamiliesOptions = {}): Pick<FamiliesReport, 'partings' | 'activity'> {
  const pairs = choosePairs(families.filter((f) => f.breakpoint === 'stable'));
  if (pairs.length === 0) return { partings: [], activity: { from: undefined, to: undefined, days: 0 } };
  const readingOf = readingsByProfile(readings);
  const ctx: PartingContext = {
    toolsetOf: (m, tool) => {
      const table = m.tools.build === undefined ? undefined : toolTableNamed(m.tools.build);
      return table && toolSize(table, tool, m.platform)?.toolset;
    },
    disabledToolsets: (m) => readingOf(m).analysis.config.disabledToolsets,
    ...options.context,
    fsOf: (m) => readingOf(m).analysis.fs,
  };
  const times = requestTimesOf(pairs, members, readingOf);
  return { partings: pairs.map((pair) => partingOf(pair, readingOf, ctx, times, options.places)), activity: times.activity };
}

/** Where the pair's members part, read from their prompts (or kept in `places` since). */
function placesOf(pair: PairChoice, readingOf: (m: PrefixMember) => ProfileReading, ctx: PartingContext, places: Map<string, PartingPlaces> | undefined): PartingPlaces {
  const { memberA, memberB } = pair;
  const key = `${memberA.profileDir}\u0000${memberA.identity}\u0000${memberA.tools.digest}\u0000${memberB.profileDir}\u0000${memberB.identity}\u0000${memberB.tools.digest}`;
  const kept = places?.get(key);
  if (kept) return kept;
  const tools = toolsDifference(memberA, memberB);
  const anatomyA = readingOf(memberA).anatomyOf(memberA.report.id);
  const anatomyB = readingOf(memberB).anatomyOf(memberB.report.id);
  const system = anatomyA && anatomyB ? systemDifference(anatomyA, anatomyB) : undefined;
  const systemAt = system && anatomyA ? systemPlace(system, memberA, memberB, anatomyA, tools === undefined, memberA.tools.bytes, ctx) : undefined;
  const found = { first: tools ? toolsPlace(tools, memberA, memberB, ctx) : systemAt, then: tools ? systemAt : undefined };
  if (places && anatomyA && anatomyB) places.set(key, found);
  return found;
}

function partingOf(pair: PairChoice, readingOf: (m: PrefixMember) => ProfileReading, ctx: PartingContext, times: Times, places: Map<string, PartingPlaces> | undefined): Parting {
  const { a, b, memberA, memberB } = pair;
  const tools = memberA.tools.digest !== memberB.tools.digest;
  const stableTierShared = memberA.print.stableDigest === memberB.print.stableDigest;
  const found = placesOf(pair, readingOf, ctx, places);
  let first = found.first;
  const then = found.then;
  const sharedTokens = Math.max(a.tokens, b.tokens);
  if (!first) {
    // Neither prompt could be read: the families differ in the stable tier, but where is not known.
    first = { offset: undefined, systemOffset: undefined, exact: false, block: 'other', tier: 'stable', source: 'stable tier', reason: 'Their stable tiers differ (the stored prompts could not be read to say where)', choice: false, fix: undefined };
  }
  if (tools && stableTierShared) first = { ...first, reason: `${first.reason}. Past the tools, their stable tiers are byte-identical (${a.tokensExact ? '' : '≈'}${(a.tokens - memberA.tools.tokens).toLocaleString('en-US')} tokens): with the same tools they would share one entry` };
  const cost = splitCost(a.members, b.members, times, sharedTokens);
  const perDay = (n: number) => n / times.activity.days;
  const extraUsdPerDay = cost.extraUsd === undefined ? undefined : perDay(cost.extraUsd);
  const fixed = first.fix ?? (tools ? undefined : then?.fix);
  return {
    a: a.id,
    b: b.id,
    ...first,
    then,
    stableTierShared,
    sharedTokens,
    extraWritesPerDay: perDay(cost.extraWrites),
    extraTokensPerDay: perDay(cost.extraTokens),
    extraUsdPerDay,
    savingUsdPerDay: fixed ? extraUsdPerDay : tools ? 0 : undefined,
  };
}

interface Times {
  of(member: PrefixMember): readonly number[] | undefined;
  readonly activity: FamiliesReport['activity'];
}

/** The request times of every member of the pairs' families, over the activity days before the latest. */
function requestTimesOf(pairs: readonly PairChoice[], members: readonly PrefixMember[], readingOf: (m: PrefixMember) => ProfileReading): Times {
  const involved = new Set<PrefixMember>();
  for (const { a, b } of pairs) for (const m of [...a.members, ...b.members]) involved.add(m);
  const latest = Math.max(...members.map((m) => m.report.lastActivityAt ?? -Infinity));
  const since = Number.isFinite(latest) ? latest - ACTIVITY_DAYS * DAY : 0;
  const byReading = new Map<ProfileReading, string[]>();
  for (const m of involved) {
    const reading = readingOf(m);
    const ids = byReading.get(reading);
    if (ids) ids.push(m.report.id);
    else byReading.set(reading, [m.report.id]);
  }
  const all = new Map<string, readonly number[]>();
  let from = Infinity;
  let to = -Infinity;
  for (const [reading, ids] of byReading) {
    for (const [id, list] of reading.requestTimes(ids, since)) {
      // Session ids are unique per profile: two profiles' (or a copied home's) are told apart by the profile.
      all.set(`${reading.analysis.profile.dir}\u0000${id}`, list);
      if (list.length > 0) {
        from = Math.min(from, list[0]!);
        to = Math.max(to, list[list.length - 1]!);
      }
    }
  }
  const days = Number.isFinite(from) ? Math.min(ACTIVITY_DAYS, Math.max(1, Math.ceil((to - from) / DAY))) : 1;
  return {
    of: (m) => all.get(`${m.profileDir}\u0000${m.report.id}`),
    activity: { from: Number.isFinite(from) ? from : undefined, to: Number.isFinite(to) ? to : undefined, days },
  };
}

function readingsByProfile(readings: readonly ProfileReading[]): (m: PrefixMember) => ProfileReading {
  const byDir = new Map(readings.map((r) => [`${r.home}\u0000${r.analysis.profile.dir}`, r]));
  return (m) => byDir.get(`${m.home}\u0000${m.profileDir}`)!;
}
