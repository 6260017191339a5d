// The prefix families in one line, for `hermes-lens status`: how many cache entries the live
// sessions write at each breakpoint and how many of the stable tier's more than one profile shares.
// From the analyses alone (no prompt read): `hermes-lens prefixes` says where they part.
import type { ProfileAnalysis } from '../engine/analyzeProfile';
import { toolsOf } from './members';
import { memo } from '../memo';
import type { MemberTools, PrefixFamily } from './types';

export interface SharingSummary {
  /** Live sessions holding a stored prompt. */
  readonly sessions: number;
  /** Cache entries at each breakpoint (families). */
  readonly entries: { readonly tools: number; readonly stable: number; readonly system: number };
  /** Stable-tier entries more than one profile (or home) shares. */
  readonly sharedAcrossProfiles: number;
  /** Stable-tier entries more than one session shares. */
  readonly sharedBySessions: number;
}

/**
 * Counted straight from the sessions' keys, without family objects: a status reads none of what a
 * family holds, and on 2,000 sessions building them was most of this line's cost.
 */
export function sharingSummary(home: string, analyses: readonly ProfileAnalysis[]): SharingSummary {
  // By tools array (one object per names list, platform and profile: toolsOf), then model and
  // provider: no key joined per session.
  const groups = new Map<MemberTools, Map<string, Map<string, ToolsGroup>>>();
  let sessions = 0;
  for (const analysis of analyses) {
    const place = `${home}\u0000${analysis.profile.dir}`;
    for (const report of analysis.report.sessions) {
      if (report.state === 'ended' || report.state === 'no-prompt') continue;
      const inputs = analysis.inputsOf(report.id);
      if (!inputs?.prompt || inputs.identity === undefined) continue;
      sessions++;
      const tools = toolsOf(report, report.source ?? 'unknown', analysis.profile.dir);
      let byModel = groups.get(tools);
      if (!byModel) groups.set(tools, (byModel = new Map()));
      let byProvider = byModel.get(report.model ?? '');
      if (!byProvider) byModel.set(report.model ?? '', (byProvider = new Map()));
      let group = byProvider.get(report.provider ?? '');
      if (!group) byProvider.set(report.provider ?? '', (group = { stable: new Map(), system: new Set() }));
      group.system.add(inputs.identity);
      const entry = group.stable.get(inputs.prompt.prefix.stableDigest);
      if (!entry) group.stable.set(inputs.prompt.prefix.stableDigest, { count: 1, place, across: false });
      else {
        entry.count++;
        if (entry.place !== place) entry.across = true;
      }
    }
  }
  // Two tools arrays of one digest (the same list in two profiles without a home-naming tool) are one.
  const byDigest = new Map<string, ToolsGroup[]>();
  for (const [tools, byModel] of groups) {
    for (const [model, byProvider] of byModel) {
      for (const [provider, group] of byProvider) memo(byDigest, `${model}\u0000${provider}\u0000${tools.digest}`, newList).push(group);
    }
  }
  let stable = 0;
  let system = 0;
  let sharedAcrossProfiles = 0;
  let sharedBySessions = 0;
  for (const alike of byDigest.values()) {
    const entries = new Map<string, StableEntry>();
    const identities = new Set<string>();
    for (const group of alike) {
      for (const id of group.system) identities.add(id);
      for (const [digest, entry] of group.stable) {
        const was = entries.get(digest);
        if (!was) entries.set(digest, { ...entry });
        else {
          was.count += entry.count;
          if (was.place !== entry.place || entry.across) was.across = true;
        }
      }
    }
    stable += entries.size;
    system += identities.size;
    for (const entry of entries.values()) {
      if (entry.count > 1) sharedBySessions++;
      if (entry.across) sharedAcrossProfiles++;
    }
  }
  return { sessions, entries: { tools: byDigest.size, stable, system }, sharedAcrossProfiles, sharedBySessions };
}

interface ToolsGroup {
  readonly stable: Map<string, StableEntry>;
  readonly system: Set<string>;
}

function newList<T>(): T[] {
  return [];
}

interface StableEntry {
  count: number;
  /** The home and profile of its first session. */
  readonly place: string;
  /** A session of another profile or home holds it too. */
  across: boolean;
}

/** The same figures from families already grouped (the language server's). */
export function summaryOf(families: readonly PrefixFamily[]): SharingSummary {
  const entries = { tools: 0, stable: 0, system: 0 };
  let sessions = 0;
  let sharedAcrossProfiles = 0;
  let sharedBySessions = 0;
  for (const f of families) {
    entries[f.breakpoint]++;
    if (f.breakpoint !== 'stable') continue;
    sessions += f.members.length;
    if (f.members.length > 1) sharedBySessions++;
    const first = f.members[0]!;
    if (f.members.some((m) => m.profileDir !== first.profileDir || m.home !== first.home)) sharedAcrossProfiles++;
  }
  return { sessions, entries, sharedAcrossProfiles, sharedBySessions };
}

/** `Prefix sharing: 2,000 live sessions write 571 stable-tier cache entries (64 tools arrays); none is shared by two profiles.` */
export function sharingSentence(s: SharingSummary): string {
  if (s.sessions === 0) return 'Prefix sharing: no live session holds a stored prompt yet.';
  const n = (x: number) => x.toLocaleString('en-US');
  const across = s.sharedAcrossProfiles === 0 ? 'none is shared by two profiles' : `${n(s.sharedAcrossProfiles)} ${s.sharedAcrossProfiles === 1 ? 'is' : 'are'} shared by several profiles`;
  return `Prefix sharing: ${n(s.sessions)} live session${s.sessions === 1 ? '' : 's'} write ${n(s.entries.stable)} stable-tier cache entr${s.entries.stable === 1 ? 'y' : 'ies'} (${n(s.entries.tools)} tools array${s.entries.tools === 1 ? '' : 's'}); ${across}. \`hermes-lens prefixes\` says where they part.`;
}
