// Where a profile's SOUL.md parts from the other profiles' of the home, line by line, as the files
// read today: the first line whose text differs is where their stable tiers, and so their cached
// prefixes, part (SOUL.md opens the prompt). The hover of that line names the profiles it separates;
// worked out from the rendered blocks the analyses hold, never from a prompt.
import type { ProfileAnalysis } from '../hermes/engine/analyzeProfile';
import type { PrefixFamily } from '../hermes/families/types';

export interface SoulParting {
  /** 0-based line of this profile's SOUL.md (as saved) where it first differs from theirs. */
  readonly line: number;
  readonly profiles: readonly string[];
  /** Their SOUL.md differ from the first line: another persona altogether. */
  readonly fromTheStart: boolean;
  /** Of those profiles, the ones whose sessions' tools part them from this profile's already (when the families are known). */
  readonly toolsPartThem: readonly string[];
}

export interface SoulSharing {
  /** Profiles whose SOUL.md renders exactly as this one does today. */
  readonly same: readonly string[];
  readonly partings: readonly SoulParting[];
}

/**
 * `own` against every other profile in `profiles` with a live session. `fileText`: the profile's
 * SOUL.md as saved (lines are counted in it); `families`: the home's families, when grouped.
 */
export function soulSharing(own: ProfileAnalysis, fileText: string | undefined, profiles: readonly ProfileAnalysis[], families: readonly PrefixFamily[] | undefined): SoulSharing {
  const block = own.sourcesFor(undefined).soul.block;
  const same: string[] = [];
  const byLine = new Map<number, string[]>();
  const lines = block.split('\n');
  for (const other of profiles) {
    if (other === own || !other.report.sessions.some((s) => s.state !== 'ended' && s.state !== 'no-prompt')) continue;
    const theirs = other.sourcesFor(undefined).soul.block;
    if (theirs === block) {
      same.push(other.profile.name);
      continue;
    }
    const at = firstDifferingLine(lines, theirs.split('\n'));
    const list = byLine.get(at);
    if (list) list.push(other.profile.name);
    else byLine.set(at, [other.profile.name]);
  }
  const offset = fileText === undefined ? undefined : blockStartLine(fileText, lines);
  const partings: SoulParting[] = [];
  if (offset !== undefined) {
    for (const [at, names] of [...byLine].sort((x, y) => x[0] - y[0])) {
      partings.push({ line: offset + Math.min(at, lines.length - 1), profiles: names, fromTheStart: at === 0, toolsPartThem: names.filter((n) => toolsPart(families, own.profile.name, n)) });
    }
  }
  return { same, partings };
}

/** The first line where two texts, as lists of lines, differ (the shorter's length when one goes on). */
export function firstDifferingLine(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Where the rendered block's first line sits in the file (Hermes strips the file's leading blank lines). */
export function blockStartLine(fileText: string, blockLines: readonly string[]): number | undefined {
  const file = fileText.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const first = blockLines[0]?.trim();
  if (first === undefined) return undefined;
  const at = file.findIndex((l) => l.trim() === first);
  return at < 0 ? undefined : at;
}

/** Whether the two profiles' sessions on one model and platform never share a tools array. */
function toolsPart(families: readonly PrefixFamily[] | undefined, a: string, b: string): boolean {
  if (!families) return false;
  const tools = families.filter((f) => f.breakpoint === 'tools');
  const where = (p: string) => new Set(tools.flatMap((f) => f.members.filter((m) => m.profile === p).map((m) => `${m.model}\u0000${m.platform}`)));
  const onA = where(a);
  const common = [...where(b)].filter((k) => onA.has(k));
  if (common.length === 0) return false;
  return !tools.some((f) => f.profiles.includes(a) && f.profiles.includes(b));
}
