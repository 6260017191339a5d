// The Sessions view's "Prefix sharing" section, computed from a PrefixFamiliesDto: one node per
// stable-tier cache entry (the breakpoint Hermes places for sessions to share), its sessions below,
// and where the entries that could be one part. Pure (no vscode import): prefixSharingTree.ts
// turns these into TreeItems, and the unit tests check labels, descriptions and tooltips.
import type { PartingDto, PrefixFamiliesDto, PrefixFamilyDto } from '../shared/prefixFamilies';
import type { SessionDto, SessionListResult } from '../shared/protocol';
import { formatCost, formatInt, plural } from './format';

export interface PrefixSectionNode {
  readonly kind: 'prefixSection';
  readonly families: PrefixFamiliesDto;
}
export interface FamilyNode {
  readonly kind: 'family';
  readonly family: PrefixFamilyDto;
  readonly families: PrefixFamiliesDto;
}
export interface FamilyMemberNode {
  readonly kind: 'familyMember';
  readonly familyId: string;
  readonly profile: string;
  readonly sessionId: string;
  /** The session as the list has it, when it does (for its label, state and menu). */
  readonly session: SessionDto | undefined;
}
export interface PartingsNode {
  readonly kind: 'partings';
  readonly families: PrefixFamiliesDto;
}
export interface PartingNode {
  readonly kind: 'parting';
  readonly parting: PartingDto;
  /** Days of requests the figures come from. */
  readonly days: number;
  readonly a: PrefixFamilyDto | undefined;
  readonly b: PrefixFamilyDto | undefined;
}
export type PrefixTreeNode = PrefixSectionNode | FamilyNode | FamilyMemberNode | PartingsNode | PartingNode;

/** Entries shown at most; the rest are counted in a last line. */
export const FAMILIES_SHOWN = 50;

/** The section, when there is a live session with a stored prompt to group. */
export function prefixSection(families: PrefixFamiliesDto | undefined): PrefixSectionNode | undefined {
  return families && stableFamilies(families).length > 0 ? { kind: 'prefixSection', families } : undefined;
}

export function stableFamilies(families: PrefixFamiliesDto): PrefixFamilyDto[] {
  return families.families.filter((f) => f.breakpoint === 'stable');
}

export function sectionChildren(node: PrefixSectionNode): PrefixTreeNode[] {
  const out: PrefixTreeNode[] = stableFamilies(node.families)
    .slice(0, FAMILIES_SHOWN)
    .map((family) => ({ kind: 'family', family, families: node.families }));
  if (node.families.partings.length > 0) out.push({ kind: 'partings', families: node.families });
  return out;
}

export function familyChildren(node: FamilyNode, list: SessionListResult | undefined): FamilyMemberNode[] {
  return node.family.members.map((m) => ({ kind: 'familyMember', familyId: node.family.id, profile: m.profile, sessionId: m.sessionId, session: sessionOf(list, m.profile, m.sessionId) }));
}

export function partingChildren(node: PartingsNode): PartingNode[] {
  const byId = new Map(node.families.families.map((f) => [f.id, f]));
  return node.families.partings.map((parting) => ({ kind: 'parting', parting, days: node.families.activity.days, a: byId.get(parting.a), b: byId.get(parting.b) }));
}

/** `Prefix sharing`, described as `7 cache entries · 3 profiles` (the stable tier's). */
export function sectionDescription(families: PrefixFamiliesDto): string {
  const stable = stableFamilies(families);
  const profiles = new Set(stable.flatMap((f) => f.members.map((m) => `${m.home}\u0000${m.profile}`))).size;
  const sessions = new Set(stable.flatMap((f) => f.members.map((m) => `${m.home}\u0000${m.profile}\u0000${m.sessionId}`))).size;
  return `${plural(stable.length, 'cache entry', 'cache entries')} · ${plural(sessions, 'session')} · ${plural(profiles, 'profile')}`;
}

export function sectionTooltip(families: PrefixFamiliesDto): string {
  const stable = stableFamilies(families);
  const tools = families.families.filter((f) => f.breakpoint === 'tools').length;
  const lines = [
    `A provider reuses a cached prefix only when it is byte-identical and for the same model. Each entry below is one stable-tier prefix (the tool schemas, then Hermes' stable tier): every entry more is another cache write.`,
    '',
    `${plural(stable.length, 'stable-tier entry', 'stable-tier entries')} from ${plural(tools, 'tools array')}.`,
  ];
  if (stable.length > FAMILIES_SHOWN) lines.push(`The ${FAMILIES_SHOWN} with the most sessions are shown.`);
  if (stable.some((f) => f.toolsInferred)) lines.push('', "Tools inferred from each session's platform, config and Hermes build: this state.db does not name them.");
  return lines.join('\n');
}

/** `default, work · cli` */
export function familyLabel(f: PrefixFamilyDto, families: PrefixFamiliesDto): string {
  const homes = families.homes.length > 1 ? `${f.homes.join(', ')}: ` : '';
  return `${homes}${f.profiles.join(', ')} · ${f.platforms.join(', ')}`;
}

/** `claude-sonnet-4.6 · 2 sessions · ≈ 13,402 tokens · warm` (an entry is the model's: two entries of one profile and platform differ by it) */
export function familyDescription(f: PrefixFamilyDto): string {
  return [f.model.split('/').pop()!, plural(f.sessions, 'session'), `${f.tokensExact ? '' : '≈ '}${formatInt(f.tokens)} tokens`, f.warm ? 'warm' : 'cold'].filter(Boolean).join(' · ');
}

export function familyTooltip(f: PrefixFamilyDto, families: PrefixFamiliesDto): string {
  const parent = f.parent ? families.families.find((x) => x.id === f.parent) : undefined;
  const system = families.families.filter((x) => x.parent === f.id);
  const lines = [
    `${familyLabel(f, families)} — ${f.model}${f.provider ? ` via ${f.provider}` : ''}`,
    '',
    `Stable-tier entry ${f.id}: ${f.tokensExact ? '' : '≈ '}${formatInt(f.tokens)} tokens (the tools, then Hermes' stable tier), ${plural(f.sessions, 'session')}, ${f.warm ? 'warm now' : 'cold now'}.`,
    MARKED[f.marked],
  ];
  if (parent && parent.sessions > f.sessions) lines.push(`Its tools array (${formatInt(parent.tokens)} tokens) is shared with ${plural(parent.sessions - f.sessions, 'other session')}.`);
  if (system.length > 1) lines.push(`Past the stable tier their prompts make ${system.length} whole-prompt entries (folders, dates, memory differ).`);
  if (f.toolsInferred) lines.push('Tools inferred from the platform, config and Hermes build: state.db does not name them.');
  return lines.join('\n');
}

const MARKED: Record<PrefixFamilyDto['marked'], string> = {
  yes: 'Hermes marks this breakpoint on their route: the provider keeps an entry here.',
  no: 'Hermes places no marker here on their route: the entry is kept at the next breakpoint.',
  implicit: 'Their provider caches the longest prefix by itself (no markers).',
  off: 'Prompt caching is off for these sessions (`prompt_caching.cache_ttl` in config.yaml).',
};

export function memberLabel(node: FamilyMemberNode): string {
  const title = node.session?.title?.trim();
  return `${node.profile} / ${title && title.length > 0 ? title : node.sessionId}`;
}

export function partingsLabel(families: PrefixFamiliesDto): string {
  return `Where they part (${families.partings.length})`;
}

export function partingLabel(node: PartingNode, families?: PrefixFamiliesDto): string {
  const side = (f: PrefixFamilyDto | undefined) => (f ? (families ? familyLabel(f, families) : `${f.profiles.join(', ')} · ${f.platforms.join(', ')}`) : '?');
  return `${side(node.a)} ↔ ${side(node.b)}`;
}

/** `tools: skill_manage · ≈ $0.12 a day` */
export function partingDescription(p: PartingDto): string {
  const where = p.tier === 'tools' ? 'tools' : `${p.tier} tier`;
  const cost = p.extraUsdPerDay === null ? 'cost unknown' : `${formatCost(p.extraUsdPerDay)} a day`;
  return `${where}: ${p.source} · ${cost}`;
}

export function partingTooltip(p: PartingDto, days: number): string {
  const lines = [`${placeWords(p)}: ${p.reason}.`];
  if (p.then) lines.push('', `Past the tools, ${placeWords(p.then).replace(/^At/, 'at')}: ${p.then.reason}.`);
  const cost = p.extraUsdPerDay === null ? 'at unknown prices' : formatCost(p.extraUsdPerDay);
  lines.push('', `The split: ${p.extraWritesPerDay.toFixed(1)} cache writes a day more than one shared entry would take (${formatInt(p.extraTokensPerDay)} tokens, ${cost} a day), from their requests of ${plural(days, 'day')}.`);
  if (p.fix === 'update-hermes' && p.savingUsdPerDay !== null) lines.push(`A Hermes build with the change of 2026-09-28 would save that (${formatCost(p.savingUsdPerDay)} a day).`);
  else if (p.then?.fix === 'update-hermes' || (p.fix === 'update-hermes' && p.savingUsdPerDay === 0)) lines.push('A newer Hermes alone would not save it: the tools still part them.');
  return lines.join('\n');
}

function placeWords(p: { tier: string; offset: number | null; systemOffset: number | null; exact: boolean }): string {
  if (p.tier === 'tools') return p.offset === null ? 'In the tools' : `In the tools (byte ${formatInt(p.offset)}${p.exact ? '' : ', in the tool starting there'})`;
  return `At byte ${formatInt(p.systemOffset ?? 0)} of the system prompt (${p.tier} tier)`;
}

export function prefixNodeId(node: PrefixTreeNode): string {
  switch (node.kind) {
    case 'prefixSection':
      return 'prefixes';
    case 'family':
      return `prefixes:${node.family.id}`;
    case 'familyMember':
      return `prefixes:${node.familyId}/${node.profile}/${node.sessionId}`;
    case 'partings':
      return 'prefixes:partings';
    case 'parting':
      return `prefixes:parting:${node.parting.a}/${node.parting.b}`;
  }
}

function sessionOf(list: SessionListResult | undefined, profile: string, sessionId: string): SessionDto | undefined {
  return list?.profiles.find((p) => p.name === profile)?.sessions.find((s) => s.id === sessionId);
}
