// Assembling prompts. `buildSystemPrompt` writes a whole prompt in Hermes' tier order (docs/HERMES-FORMATS.md §1,
// HERMES-FORMATS §1) for the demo/test home generator. `rebuildPrompt` answers "what would a refresh
// build today?" for a stored prompt: the blocks our sources render are replaced by today's
// renderings and every other byte is kept, since Hermes' prose changes between releases and we
// never re-create it.
import { mayReadSessionFolderOnly, readsNoAgentsOverride, type ProseBlock } from '../anatomy/hermesProse';
import { projectSections } from '../anatomy/sections';
import { contextAsRead } from './contextAsRead';
import { skillsAsReadIn } from './skillsAsRead';
import { demotedList, namesOnlyCategories } from './skillsFocus';
import { locateBlocksWithHint, type LocatedBlock } from '../anatomy/locate';
import type { BlockKind, TierName } from '../model';
import { DEFAULT_GUIDANCE } from '../literals/guidance';
import { activeProfileLine, pluginSectionsBlock, runtimeBlock, trailer, type ActiveProfile, type PluginSection, type RuntimeInput, type TrailerInput } from './promptLines';
import { PROJECT_CONTEXT_PREFIX, SKILLS_CLOSE, SKILLS_OPEN } from '../literals/containers';
import { isParentFolderLabel } from './projectContext';
import { pyStrip } from '../text/pyText';
import { DEFAULT_IDENTITY_OPENING } from '../literals/identity';
import type { ProjectContext, RenderedSources } from './types';

export { DEFAULT_GUIDANCE } from '../literals/guidance';

/**
 * Our stand-in for Hermes' built-in identity (used when SOUL.md is missing). Hermes' own wording
 * changes between releases; what matters is the opening the lens recognises.
 */
export const DEFAULT_IDENTITY = `${DEFAULT_IDENTITY_OPENING}, an assistant that works through tools on the user's computer. Keep replies plain and specific.`;

export interface BuildPromptInput {
  readonly sources: RenderedSources;
  /** Stable-tier paragraphs after the identity; DEFAULT_GUIDANCE when omitted. */
  readonly guidance?: readonly string[];
  /** The identity when SOUL.md is missing; DEFAULT_IDENTITY when omitted. */
  readonly defaultIdentity?: string;
  /** `agent.system_prompt`. */
  readonly callerSystemMessage?: string;
  /** The git workspace snapshot block, when the session has one. */
  readonly gitSnapshot?: string;
  readonly platformHint?: string;
  readonly activeProfile?: ActiveProfile;
  /** Where the skills index goes: `volatile` today, `stable` in older builds. */
  readonly skillsIndexTier?: 'stable' | 'volatile';
  readonly pluginSections?: readonly PluginSection[];
  readonly trailer: TrailerInput;
  /** The runtime environment block (newer builds); omitted in older ones. */
  readonly runtime?: RuntimeInput;
}

export interface PromptTiers {
  readonly stable: string;
  readonly context: string;
  readonly volatile: string;
}

/** The three tiers, each `"\n\n".join` of its stripped, non-empty parts (`SP._join_tier`). */
export function buildSystemPromptTiers(input: BuildPromptInput): PromptTiers {
  const { sources } = input;
  const skills = sources.skills.block;
  const skillsTier = input.skillsIndexTier ?? 'volatile';
  const identity = sources.soul.exists ? sources.soul.block : (input.defaultIdentity ?? DEFAULT_IDENTITY);
  // Hermes puts the profile line and the platform hint after the workspace snapshot in the context
  // tier, or at the end of the stable tier when the session has none (docs/HERMES-FORMATS.md §1).
  const closing = [input.activeProfile ? activeProfileLine(input.activeProfile) : undefined, input.platformHint];
  const snapshot = input.gitSnapshot ? [input.gitSnapshot, ...closing] : [];
  return {
    stable: joinTier([identity, ...(input.guidance ?? DEFAULT_GUIDANCE), skillsTier === 'stable' ? skills : '', ...(input.gitSnapshot ? [] : closing)]),
    context: joinTier([...snapshot, input.callerSystemMessage, sources.projectContext.block]),
    volatile: joinTier([
      skillsTier === 'volatile' ? skills : '',
      sources.memory.block,
      sources.user.block,
      pluginSectionsBlock(input.pluginSections ?? []),
      trailer(input.trailer),
      input.runtime ? runtimeBlock(input.runtime) : undefined,
    ]),
  };
}

export function buildSystemPrompt(input: BuildPromptInput): string {
  const tiers = buildSystemPromptTiers(input);
  return [tiers.stable, tiers.context, tiers.volatile].filter(Boolean).join('\n\n');
}

function joinTier(parts: ReadonlyArray<string | undefined>): string {
  return parts.map((p) => pyStrip(p ?? '')).filter(Boolean).join('\n\n');
}

interface Item {
  readonly kind: BlockKind;
  readonly tier: TierName;
  text: string;
  /** The separator that followed the block in the stored prompt. */
  gapAfter: string;
  /** Where text and separator sit in the stored prompt, while both are still the stored ones. */
  origin: number | undefined;
}

export interface RebuildOptions {
  /** The identity to use when SOUL.md is gone and the stored prompt holds a SOUL; DEFAULT_IDENTITY when omitted. */
  readonly defaultIdentity?: string;
}

/** A stretch the rebuild left as it was: `length` characters at `before` in the stored prompt, at `after` in the rebuilt one. */
export interface KeptRun {
  readonly before: number;
  readonly after: number;
  readonly length: number;
}

/** A block of the rebuilt prompt: where it starts, its text and the separator that follows it. */
export interface RebuiltBlock {
  readonly kind: BlockKind;
  readonly start: number;
  readonly text: string;
  readonly gapAfter: string;
}

/**
 * A rebuilt prompt, the stretches of the stored prompt it kept byte for byte (in order), and its
 * blocks (a later change of one source then touches one block: see engine/judgement.ts).
 */
export interface RebuiltPrompt {
  readonly text: string;
  readonly kept: readonly KeptRun[];
  readonly blocks: readonly RebuiltBlock[];
}

/**
 * The stored prompt with its identity, project context, skills index, MEMORY and USER blocks
 * replaced by today's renderings, added where missing (at the place Hermes puts them) and removed
 * when their source is gone. Every other byte is kept.
 */
export function rebuildPrompt(stored: string, sources: RenderedSources, options: RebuildOptions = {}): string {
  return rebuildPromptEdit(stored, sources, options).text;
}

/**
 * `rebuildPrompt`, also saying which stretches of the stored prompt it kept (found from the blocks
 * it replaced, inserted or removed, without comparing texts): what differs is only in between, so
 * measuring the change (tokens) need not go over the whole prompt again.
 */
export function rebuildPromptEdit(stored: string, sources: RenderedSources, options: RebuildOptions = {}): RebuiltPrompt {
  const located = locateBlocksWithHint(stored, sources.soul.exists ? sources.soul.block : undefined);
  const first = located.blocks[0];
  const prefix = first ? stored.slice(0, first.start) : stored;
  const items: Item[] = located.blocks.map((b: LocatedBlock, i) => ({
    kind: b.kind,
    tier: b.tier,
    text: stored.slice(b.start, b.end),
    gapAfter: stored.slice(b.end, located.blocks[i + 1]?.start ?? stored.length),
    origin: b.start,
  }));

  const storedIdentity = items.find((i) => i.kind === 'identity')?.text ?? '';
  const identity = sources.soul.exists
    ? sources.soul.block
    : storedIdentity.startsWith(DEFAULT_IDENTITY_OPENING)
      ? storedIdentity
      : (options.defaultIdentity ?? DEFAULT_IDENTITY);
  const firstIn = (tier: TierName, skip: readonly BlockKind[] = []) => {
    const at = items.findIndex((i) => i.tier === tier && !skip.includes(i.kind));
    return at < 0 ? undefined : at;
  };
  const after = (kind: BlockKind) => {
    const at = items.findIndex((i) => i.kind === kind);
    return at < 0 ? undefined : at + 1;
  };

  setBlock(items, 'identity', 'stable', identity, () => 0);
  const storedProject = items.find((i) => i.kind === 'project-context')?.text;
  setBlock(items, 'project-context', 'context', projectContextFor(storedProject, sources.projectContext, items), () => after('caller-system') ?? firstIn('context') ?? firstIn('volatile') ?? items.length);
  const storedSkills = items.find((i) => i.kind === 'skills-index')?.text;
  // As the prompt's build lists a trusted project's skills (skillsAsRead.ts).
  setBlock(items, 'skills-index', 'volatile', skillsBlockFor(storedSkills, skillsAsReadIn(sources.skills, items).block), () => firstIn('volatile') ?? items.length);
  setBlock(items, 'memory', 'volatile', sources.memory.block, () => firstIn('volatile', ['skills-index']) ?? items.length);
  setBlock(items, 'user-profile', 'volatile', sources.user.block, () => after('memory') ?? firstIn('volatile', ['skills-index', 'memory']) ?? items.length);
  return { text: prefix + items.map((i) => i.text + i.gapAfter).join(''), kept: keptRuns(prefix, items), blocks: placed(prefix, items) };
}

/**
 * The skills block a refresh would write: today's list in the stored block's own heading and
 * instructions (Hermes' text, which the user's files do not change), its categories by name only
 * where the stored list shows the session demotes them, or today's rendering where the prompt had
 * none. '' when no skill is visible today.
 */
export function skillsBlockFor(storedBlock: string | undefined, todays: string): string {
  if (!todays || !storedBlock) return todays;
  const list = (block: string) => {
    const open = block.indexOf(SKILLS_OPEN);
    const close = block.lastIndexOf(`\n${SKILLS_CLOSE}`);
    return open < 0 || close < open ? undefined : { start: open + SKILLS_OPEN.length, end: close };
  };
  const was = list(storedBlock);
  const now = list(todays);
  if (!was || !now) return todays;
  // A session in focus mode lists non-coding categories by name only (skillsFocus.ts).
  const todaysList = demotedList(todays.slice(now.start, now.end), namesOnlyCategories(storedBlock));
  return storedBlock.slice(0, was.start) + todaysList + storedBlock.slice(was.end);
}

/**
 * The project context a refresh would write, as far as the user's files decide it: today's block
 * as the stored prompt's build reads AGENTS.override.md (contextAsRead), and without parent
 * folders' files when the build shows it does not read them (it loaded the session folder's own
 * file and no `## ../…` section, or it had no project context and its prose (in `blocks`) is that
 * of such a build): those are the build's doing, not the files' (staleness.ts judges alike). Any
 * other prompt that had no project context gets today's.
 */
export function projectContextFor(storedBlock: string | undefined, todays: ProjectContext, blocks: readonly ProseBlock[]): string {
  const today = todays.otherReadings
    ? contextAsRead(todays, { labels: storedBlock ? projectSections(storedBlock, 0, storedBlock.length).map((s) => s.label) : [], readsNoOverride: readsNoAgentsOverride(blocks) })
    : todays;
  if (storedBlock === undefined ? !mayReadSessionFolderOnly(blocks) : PARENT_SECTION.test(storedBlock)) return today.block;
  const own = today.files.filter((f) => !isParentFolderLabel(f.label ?? ''));
  if (own.length === today.files.length) return today.block;
  return own.length === 0 ? '' : PROJECT_CONTEXT_PREFIX + own.map((f) => f.rendered).join('\n\n');
}

const PARENT_SECTION = /(?:^|\n\n)## \.\.[\\/]/;

function placed(prefix: string, items: readonly Item[]): RebuiltBlock[] {
  let at = prefix.length;
  return items.map((item) => {
    const block = { kind: item.kind, start: at, text: item.text, gapAfter: item.gapAfter };
    at += item.text.length + item.gapAfter.length;
    return block;
  });
}

/** The stored stretches the rebuilt text is made of, adjacent ones joined. */
function keptRuns(prefix: string, items: readonly Item[]): KeptRun[] {
  const runs: Array<{ before: number; after: number; length: number }> = [];
  const keep = (before: number, after: number, length: number) => {
    const last = runs[runs.length - 1];
    if (length === 0) return;
    if (last && last.before + last.length === before && last.after + last.length === after) last.length += length;
    else runs.push({ before, after, length });
  };
  keep(0, 0, prefix.length);
  let at = prefix.length;
  for (const item of items) {
    const length = item.text.length + item.gapAfter.length;
    if (item.origin !== undefined) keep(item.origin, at, length);
    at += length;
  }
  return runs;
}

/** Replaces the block of `kind`, removes it when `text` is empty, or inserts it at `insertAt()`. */
function setBlock(items: Item[], kind: BlockKind, tier: TierName, text: string, insertAt: () => number): void {
  const at = items.findIndex((i) => i.kind === kind);
  if (at >= 0 && text) {
    if (items[at]!.text !== text) Object.assign(items[at]!, { text, origin: undefined });
  } else if (at >= 0) {
    const [removed] = items.splice(at, 1);
    // The last block takes its trailing separator with it; the one before keeps what followed.
    if (at === items.length && at > 0) Object.assign(items[at - 1]!, { gapAfter: removed!.gapAfter, origin: undefined });
  } else if (text) {
    const index = insertAt();
    if (index >= items.length) {
      const last = items[items.length - 1];
      const tail = last ? last.gapAfter : '';
      if (last) Object.assign(last, { gapAfter: '\n\n', origin: undefined });
      items.push({ kind, tier, text, gapAfter: tail, origin: undefined });
    } else {
      items.splice(index, 0, { kind, tier, text, gapAfter: '\n\n', origin: undefined });
    }
  }
}
