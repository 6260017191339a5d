// On the hover of a SOUL.md line where this profile's SOUL.md parts from other profiles': which
// profiles it separates, and whether their tools part them already (workspace/soulPartings.ts).
// No prompt is read and no family regrouped: a hover costs lookups.
import { readText } from '../../hermes/fs/readText';
import type { PrefixFamily } from '../../hermes/families/types';
import type { SoulSource } from '../../hermes/sources/types';
import type { HermesModel, SourceRole } from '../../workspace/hermesModel';
import { soulSharing, type SoulParting, type SoulSharing } from '../../workspace/soulPartings';
import { englishList } from '../../hermes/text/englishList';

/** The last answer per profile's SOUL.md as rendered, with what it was worked out from: the same sources, the same answer. */
const kept = new WeakMap<SoulSource, { others: readonly SoulSource[]; families: readonly PrefixFamily[] | undefined; sharing: SoulSharing }>();

/** The hover's lines for `line` (0-based) of a SOUL.md; none for another file or a line where nothing parts. */
export function soulPartingLines(model: HermesModel, role: SourceRole, line: number): string[] {
  if (role.kind !== 'soul') return [];
  const own = role.uses[0]?.analysis;
  const profiles = model.profiles();
  if (!own || profiles.length < 2) return [];
  const soul = own.sourcesFor(undefined).soul;
  const others = profiles.filter((p) => p !== own).map((p) => p.sourcesFor(undefined).soul);
  const families = model.prefixes.familiesIfKnown();
  let last = kept.get(soul);
  if (!last || last.families !== families || last.others.length !== others.length || last.others.some((o, i) => o !== others[i])) {
    const read = readText(own.fs, role.file, { dropBom: true });
    kept.set(soul, (last = { others, families, sharing: soulSharing(own, read.ok ? read.text : undefined, profiles, families) }));
  }
  return last.sharing.partings.filter((p) => p.line === line).map(partingLine);
}

function partingLine(p: SoulParting): string {
  const names = englishList(p.profiles.map((n) => `*${n}*`));
  const them = p.profiles.length === 1 ? 'that profile' : 'those profiles';
  const head = p.fromTheStart
    ? `**Prefix sharing:** profile${p.profiles.length === 1 ? '' : 's'} ${names} ${p.profiles.length === 1 ? 'has' : 'have'} another SOUL.md from the first line: another persona, whose sessions cache entries of their own (your choice).`
    : `**Prefix sharing:** this line parts this profile's prompts from ${names}'s: their SOUL.md are the same up to here, and from here on their stable tiers differ, so the provider caches them as separate entries.`;
  const tools = p.toolsPartThem.length === 0 ? '' : ` Their tool schemas part ${p.toolsPartThem.length === p.profiles.length ? them : englishList(p.toolsPartThem.map((n) => `*${n}*`))} already: \`skill_manage\` names each profile's home, and the tools go first.`;
  return head + tools;
}

