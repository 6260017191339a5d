// The diagnostic on a SOUL.md whose text would split a prefix family that shares today: sessions of
// this profile and of another share one stable-tier cache entry (their SOUL.md, tools and the rest
// of the stable tier are byte-identical), and this text renders otherwise than the other profile's
// SOUL.md, so this profile's new and refreshed sessions would write an entry of their own. Said as
// information, never urged: a persona of its own is the user's choice. Works from the families the
// model keeps and the rendered SOUL.md blocks; no prompt is read.
import type { PrefixFamily } from '../../hermes/families/types';
import type { SourceProblem } from '../../hermes/sources/types';
import { positionsOf } from '../../hermes/text/positions';
import type { HermesModel } from '../../workspace/hermesModel';
import type { SourceTarget } from '../../workspace/sourceKind';
import { blockStartLine, firstDifferingLine } from '../../workspace/soulPartings';
import { englishList } from '../../hermes/text/englishList';

/** `rendered`: what `text` puts into the prompt (analyzeSoulText's block). */
export function prefixSplitProblems(model: HermesModel, target: Exclude<SourceTarget, { kind: 'project-context' }>, text: string, rendered: string): SourceProblem[] {
  const own = target.analysis;
  const analyses = model.profiles();
  if (analyses.length < 2) return [];
  const shared = sharedFamilies(model.prefixes.families(), own.profile.name);
  if (shared.length === 0) return [];
  // One diagnostic per line and profile it parts from: its entries shared today summed up.
  const byLine = new Map<string, { line: number; theirs: string; others: Set<string>; entries: number; sessions: number; mine: number }>();
  const lines = rendered.split('\n');
  const start = blockStartLine(text, lines);
  for (const family of shared) {
    const others = family.profiles.filter((p) => p !== own.profile.name);
    // The other profiles' SOUL.md as their files render today (their sessions carry it where fresh).
    const theirs = analyses.find((a) => others.includes(a.profile.name) && a.sourcesFor(undefined).soul.block !== rendered);
    if (!theirs) continue;
    const at = firstDifferingLine(lines, theirs.sourcesFor(undefined).soul.block.split('\n'));
    const line = start === undefined ? 0 : start + Math.min(at, Math.max(0, lines.length - 1));
    const key = `${line}\u0000${theirs.profile.name}`;
    const entry = byLine.get(key) ?? { line, theirs: theirs.profile.name, others: new Set<string>(), entries: 0, sessions: 0, mine: 0 };
    for (const o of others) entry.others.add(o);
    entry.entries += 1;
    entry.sessions += family.members.length;
    entry.mine += family.members.filter((m) => m.profile === own.profile.name).length;
    byLine.set(key, entry);
  }
  const name = own.profile.name;
  return [...byLine.values()].map((e) => ({
    file: target.file,
    code: 'prefix-split' as const,
    message:
      `Profile ${name} shares ${e.entries === 1 ? 'a cached prefix' : `${e.entries} cached prefixes`} with ${englishList([...e.others])} today (stable tier: ${e.sessions} sessions, ${e.mine} of them ${name}'s). ` +
      `With this SOUL.md, which differs from ${e.theirs}'s from this line, ${name}'s new and refreshed sessions write ${e.entries === 1 ? 'an entry' : 'entries'} of their own.`,
    range: positionsOf(text).line(e.line),
  }));
}

/** Stable-tier families (where Hermes marks a breakpoint or the provider caches by itself) holding this profile and another. */
function sharedFamilies(families: readonly PrefixFamily[], profile: string): PrefixFamily[] {
  return families.filter((f) => f.breakpoint === 'stable' && (f.marked === 'yes' || f.marked === 'implicit') && f.profiles.includes(profile) && f.profiles.length > 1);
}
