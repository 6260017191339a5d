// Why two families part, in plain words: which tools, which SOUL.md line, which of Hermes' own
// paragraphs, the profile line. Where the difference is the user's own choice (another persona, a
// toolset turned off) it says so and suggests nothing. It never promises a saving a change alone
// would not bring: with the tools still parting two profiles, a newer Hermes shares nothing more.
import path = require('node:path');
import type { PromptAnatomy, PromptBlock } from '../anatomy/types';
import { readText } from '../fs/readText';
import type { SourceFs } from '../fs/sourceFs';
import { englishList } from '../text/englishList';
import { homeSentenceOf, namesHome } from './homeNamingTools';
import type { PartingPlace, PrefixMember } from './types';
import type { SystemDifference, ToolsDifference } from './whereParted';

/** What the words may ask of the profiles beyond the members (each optional: a build's toolsets may be unknown). */
export interface PartingContext {
  /** The toolset a tool belongs to in the member's build. */
  readonly toolsetOf?: (member: PrefixMember, tool: string) => string | undefined;
  /** The toolsets the member's profile turns off (`agent.disabled_toolsets`). */
  readonly disabledToolsets?: (member: PrefixMember) => readonly string[];
  /** What the member's profile's files are read through (its SOUL.md's lines). */
  readonly fsOf: (member: PrefixMember) => SourceFs;
}

export function toolsPlace(diff: ToolsDifference, a: PrefixMember, b: PrefixMember, ctx: PartingContext): PartingPlace {
  const words: string[] = [];
  const sources: string[] = [];
  let choice = true;
  const naming = diff.differing.filter(namesHome);
  if (naming.length > 0) {
    choice = false;
    sources.push(...naming);
    const apart = a.home !== b.home ? 'two homes' : 'two profiles';
    const says = homeSentenceOf(naming[0]!);
    words.push(`${listed(naming.map(code))}'s schema names each profile's home${says ? ` ("${says.split(';')[0]}")` : ''}, and the tools go before the system prompt: sessions of ${apart} share no cached prefix while it is loaded`);
  }
  const otherDiffering = diff.differing.filter((t) => !namesHome(t));
  if (otherDiffering.length > 0) {
    choice = false;
    sources.push(...otherDiffering);
    words.push(`the schema${otherDiffering.length === 1 ? '' : 's'} of ${listed(otherDiffering.map(code))} differ${otherDiffering.length === 1 ? 's' : ''} (another Hermes build sized ${otherDiffering.length === 1 ? 'it' : 'them'})`);
  }
  for (const [side, other, only] of [[a, b, diff.onlyA], [b, a, diff.onlyB]] as const) {
    if (only.length === 0) continue;
    sources.push(...only);
    const fewer = `${plural(only.length, 'tool')} fewer (${listed(only.map(code))})`;
    const off = side.platform === other.platform ? disabledBy(other, only, ctx) : [];
    if (side.platform !== other.platform) {
      choice = false;
      words.push(`${other.platform} sessions carry ${fewer} than ${side.platform}'s: Hermes gives each platform its tools`);
    } else if (off.length > 0) {
      words.push(`${who(other)} turns off the ${listed(off.map(code))} toolset${off.length === 1 ? '' : 's'} (\`agent.disabled_toolsets\` in its config.yaml): ${fewer}, your choice`);
    } else {
      choice = false;
      words.push(`${who(other)}'s sessions ${side.tools.recorded || other.tools.recorded ? 'pinned' : 'carry'} ${fewer}`);
    }
  }
  return {
    offset: diff.offset,
    systemOffset: undefined,
    exact: diff.exact,
    block: 'tools',
    tier: 'tools',
    source: [...new Set(sources)].join(', '),
    reason: capitalised(words.join('; ')),
    choice,
    fix: undefined,
  };
}

/** `toolsOffset`: where the system prompt starts in the prefix (the tools array's bytes), when known. */
export function systemPlace(diff: SystemDifference, a: PrefixMember, b: PrefixMember, anatomyA: PromptAnatomy, toolsEqual: boolean, toolsOffset: number | undefined, ctx: PartingContext): PartingPlace {
  const block = diff.block;
  const base = { offset: toolsOffset === undefined ? undefined : toolsOffset + diff.offset, systemOffset: diff.offset, exact: true, block: block?.kind ?? 'other', tier: diff.tier, choice: false, fix: undefined } as const;
  const kind = block?.kind;
  if (kind === 'active-profile') {
    if (diff.tier === 'stable') {
      const fix = toolsEqual
        ? '; a Hermes build with the change of 2026-09-28 moves it to the end of the volatile tier, and these sessions would share one stable-tier entry'
        : "; a Hermes build with the change of 2026-09-28 moves it to the end of the volatile tier, but the tools would still part them";
      return { ...base, source: 'Active Hermes profile line', reason: `Hermes builds before 2026-09-28 put the "Active Hermes profile" line, which names the profile's home, in the stable tier${fix}`, fix: toolsEqual ? 'update-hermes' : undefined };
    }
    if (diff.tier === 'context') return { ...base, source: 'Active Hermes profile line', reason: 'The "Active Hermes profile" line, which names the profile\'s home, follows the workspace snapshot in the context tier: their stable tiers are the same' };
    return { ...base, source: 'Active Hermes profile line', reason: 'The "Active Hermes profile" line, which names the profile\'s home, comes last in the volatile tier: only the whole-prompt entry is per profile, by design' };
  }
  if (kind === 'identity' && block) {
    const line = soulLine(a, block, diff.at, ctx);
    if (a.profileDir === b.profileDir && a.home === b.home) {
      return { ...base, source: `SOUL.md:${line.line}`, reason: `Their prompts hold different texts of this profile's SOUL.md from line ${line.line}: one was built before SOUL.md was edited (refreshing it brings today's)` };
    }
    const persona = line.line === 1 ? ': another persona, with an entry of its own (your choice)' : ': from there on each writes an entry of its own (your choice)';
    return { ...base, choice: true, source: `SOUL.md:${line.line}`, reason: `SOUL.md differs from ${who(b)}'s at line ${line.line}${line.asStored ? ' (as their prompts hold it)' : ''}${persona}` };
  }
  if ((kind === 'guidance' || kind === 'other') && block) {
    const paragraph = paragraphAt(anatomyA.text, block, diff.at);
    if (paragraph.label) {
      return { ...base, source: `Hermes: ${paragraph.label}`, reason: `Hermes writes each session's "${paragraph.label}" into the stable tier (this build keeps its environment lines there): sessions in other folders or on other platforms cannot share it` };
    }
    const heading = paragraph.heading;
    const why = a.platform === b.platform && toolsEqual ? 'another Hermes build wrote one of them (refreshing the older session brings the newer text)' : 'Hermes words it by build, platform and the tools loaded';
    return { ...base, source: `Hermes: ${heading ?? 'guidance'}`, reason: `Hermes' own guidance differs${heading ? ` at "${heading}"` : ''}: ${why}` };
  }
  const said = BLOCK_WORDS[kind ?? 'other'];
  if (said) return { ...base, choice: said.choice ?? false, source: said.source, reason: said.reason.replace('{tier}', diff.tier) };
  return { ...base, source: `${diff.tier} tier`, reason: `The prompts differ in the ${diff.tier} tier` };
}

const BLOCK_WORDS: Partial<Record<string, { source: string; reason: string; choice?: boolean }>> = {
  'platform-hints': { source: 'platform hint', reason: "Hermes' platform hint differs: it writes one per platform" },
  'git-snapshot': { source: 'workspace snapshot', reason: 'Their workspace snapshots differ (folder, branch or status)' },
  'project-context': { source: 'project context', reason: 'Their project context files differ (another folder)' },
  'caller-system': { source: 'agent.system_prompt', reason: 'Their config.yaml set another `agent.system_prompt` (your choice)', choice: true },
  'skills-index': { source: 'skills index', reason: 'Their skills indexes differ ({tier} tier)' },
  memory: { source: 'MEMORY.md', reason: 'Their MEMORY.md differ (volatile tier)' },
  'user-profile': { source: 'USER.md', reason: 'Their USER.md differ (volatile tier)' },
  'plugin-context': { source: 'plugin sections', reason: 'Their plugin sections differ (volatile tier)' },
  'conversation-started': { source: 'date line', reason: "Hermes' date line differs (sessions started on another day): the whole prompt is per session by design" },
  'session-id': { source: 'session id line', reason: 'Hermes writes each session\'s id: the whole prompt is per session by design' },
  'model-lines': { source: 'model lines', reason: "Hermes' model, provider or platform lines differ" },
  'runtime-environment': { source: 'runtime environment', reason: "Hermes' runtime block differs (host, working folder)" },
};

/** The 1-based line of the profile's SOUL.md that holds `at`, as today's file has it where it still opens the prompt. */
function soulLine(member: PrefixMember, block: PromptBlock, at: number, ctx: PartingContext): { line: number; asStored: boolean } {
  const inBlock = countNewlines(block.text, Math.max(0, at - block.start));
  const first = block.text.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  const read = readText(ctx.fsOf(member), path.join(member.profileDir, 'SOUL.md'), { dropBom: true });
  if (read.ok && first !== undefined) {
    const lines = read.text.split(/\r\n|\n|\r/);
    const start = lines.findIndex((l) => l.trim() === first);
    if (start >= 0 && read.text.trim() === block.text) return { line: start + inBlock + 1, asStored: false };
  }
  return { line: inBlock + 1, asStored: true };
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * What names Hermes' paragraph holding `at` without its text: its Markdown heading, or for a
 * paragraph of `Label: value` lines (the host, the working folder) the label of the line there.
 * Both are Hermes' own words, never the user's.
 */
function paragraphAt(text: string, block: PromptBlock, at: number): { heading?: string; label?: string } {
  const start = Math.max(block.start, text.lastIndexOf('\n\n', at) + 2);
  const endAt = text.indexOf('\n\n', at);
  const paragraph = text.slice(start, endAt < 0 || endAt > block.end ? block.end : endAt);
  const lines = paragraph.split('\n');
  if (lines.every((l) => FACT_LINE.test(l))) {
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    return { label: FACT_LINE.exec(text.slice(Math.max(lineStart, start), text.indexOf('\n', at) < 0 ? undefined : text.indexOf('\n', at)))?.[1] };
  }
  const heading = /^#{1,4} (.+)$/.exec(lines[0] ?? '')?.[1]?.trim();
  return { heading: heading && heading.length > 60 ? `${heading.slice(0, 57)}…` : heading };
}

// As hermesProse.ts reads a paragraph of facts about the session or machine.
const FACT_LINE = /^([A-Z][A-Za-z0-9 ()/._-]{0,40}): \S/;

function disabledBy(member: PrefixMember, tools: readonly string[], ctx: PartingContext): string[] {
  const off = ctx.disabledToolsets?.(member) ?? [];
  if (off.length === 0 || !ctx.toolsetOf) return [];
  const toolsets = tools.map((t) => ctx.toolsetOf!(member, t) ?? '');
  return toolsets.every((t) => off.includes(t)) ? [...new Set(toolsets)] : [];
}

export function who(member: PrefixMember): string {
  return `profile ${member.profile}`;
}

function code(name: string): string {
  return `\`${name}\``;
}

function listed(items: readonly string[]): string {
  return englishList(items, 4);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function capitalised(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}
