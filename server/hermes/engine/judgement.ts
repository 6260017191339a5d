// Staleness and ΔS of one stored prompt against today's sources, kept per source part so that a
// change of one part (a save of SOUL.md, of a skill, of MEMORY.md, of one project's AGENTS.md)
// re-judges that part alone: its reasons, and the tokens of its one block in the rebuilt prompt.
//
// ΔS is the token count of the rebuilt prompt minus that of the stored one. The first judgement
// rebuilds the prompt and counts what the rebuild changed (countTokensAfterEdit). A later change
// of one part replaces one block of that rebuilt prompt: when the block's edges are token
// boundaries (isTokenBoundary: the count of the whole is the counts of the pieces added), ΔS moves
// by the tokens of the new block minus those of the old, both the same for every prompt that holds
// the block, so hundreds of prompts cost a subtraction each. Anything else (a block added or
// removed, an edge inside a paragraph, SOUL.md matching the start of the stored prompt, which
// changes where its blocks are found) is measured on a full rebuild again: both ways give the
// same figure (test/unit/engine/judgement.test.ts).
import { hintOpens } from '../anatomy/locate';
import type { PromptAnatomy } from '../anatomy/types';
import { countTokens, countTokensAfterEdit, isTokenBoundary, opensParagraph } from '../cost/tokens';
import type { BlockKind, StaleReason } from '../model';
import { projectContextFor, rebuildPromptEdit, skillsBlockFor } from '../sources/promptBuilder';
import type { RenderedSources, SoulSource } from '../sources/types';
import { buildNoteOf, firstBlockAfterIdentity, partReasons, sameReasons, SOURCE_PARTS, type SkillMemo, type SourcePart } from './staleness';
import { skillsAsReadBy } from '../sources/skillsAsRead';
import { identityOpenings, readHint } from '../anatomy/identityOpenings';
import { ownCopy } from '../text/ownCopy';

export interface JudgedPrompt {
  readonly reasons: readonly StaleReason[];
  readonly deltaTokens: number;
  /** What the prompt's Hermes build does differently with the user's files, when that shows (buildNoteOf). */
  readonly buildNote: string | undefined;
}

/** A judgement and what it was made from: the next one re-judges only the parts that changed. */
export interface Judgement extends JudgedPrompt {
  readonly stored: PromptAnatomy;
  readonly sources: RenderedSources;
  /** The reasons of each part, in SOURCE_PARTS order (`reasons` is their concatenation). */
  readonly byPart: ReadonlyArray<readonly StaleReason[]>;
  /** The rebuilt prompt as measured, when one was (not for a prompt found fresh at once). */
  readonly rebuild: MeasuredRebuild | undefined;
}

/** ΔS of a rebuild, and the blocks of the parts whose edges are token boundaries in it. */
interface MeasuredRebuild {
  readonly deltaTokens: number;
  /**
   * In SOURCE_PARTS order, undefined for a part whose block is not such a region. An array, not a
   * map: a save of SOUL.md gives each of hundreds of prompts a new one, copied from the last.
   */
  readonly blocks: ReadonlyArray<RebuiltPart | undefined>;
}

interface RebuiltPart {
  readonly text: string;
  /** The separator after the block: the rebuild keeps the stored one. */
  readonly gapAfter: string;
}

export interface JudgeContext {
  /** Skill reasons by today's index and stored skills-index text (see staleReasons). */
  readonly skillMemo?: SkillMemo;
}

const BLOCK_OF_PART: Readonly<Record<SourcePart, BlockKind>> = {
  soul: 'identity',
  skills: 'skills-index',
  projectContext: 'project-context',
  memory: 'memory',
  user: 'user-profile',
};
/** The index in SOURCE_PARTS of the part a block kind comes from. */
const PART_INDEX_OF_BLOCK = new Map(SOURCE_PARTS.map((part, i) => [BLOCK_OF_PART[part], i]));

/** Judges `stored` against `sources`, starting from `previous` (the same prompt and cwd, older sources) when given. */
export function judgePrompt(stored: PromptAnatomy, sources: RenderedSources, cwd: string | undefined, context: JudgeContext, previous?: Judgement): Judgement {
  const base = previous?.stored === stored ? previous : undefined;
  // A plain loop: a save of SOUL.md re-judges hundreds of prompts, each a few microseconds.
  const changed: SourcePart[] = [];
  const byPart: Array<readonly StaleReason[]> = [];
  let sameAsBase = base !== undefined;
  for (let i = 0; i < SOURCE_PARTS.length; i++) {
    const part = SOURCE_PARTS[i]!;
    const kept = base?.byPart[i];
    if (kept && sources[part] === base!.sources[part]) {
      byPart.push(kept);
      continue;
    }
    changed.push(part);
    const now = partReasons(part, stored, sources, cwd, context.skillMemo);
    const reasons = kept && sameReasons(kept, now) ? kept : now;
    if (reasons !== kept) sameAsBase = false;
    byPart.push(reasons);
  }
  if (base && changed.length === 0) return base;
  // The same reasons keep the same array, so a report that shows them need not be sent again.
  const reasons = sameAsBase ? base!.reasons : byPart.flat();
  // A base judged fresh kept no rebuild: its own blocks are one (rebuildOfFresh), measured only now it is needed.
  const baseRebuild = base && reasons.length > 0 ? (base.rebuild ?? (locatedWith(base.stored, base.sources.soul) ? rebuildOfFresh(base.stored, base.sources) : undefined)) : base?.rebuild;
  const rebuild = (baseRebuild && remeasured(base!, baseRebuild, changed, sources)) ?? (reasons.length > 0 ? measureRebuild(stored, sources) : undefined);
  const buildNote = base && !changed.includes('projectContext') ? base.buildNote : buildNoteOf(stored, sources);
  return { stored, sources, byPart, reasons, deltaTokens: reasons.length > 0 ? rebuild!.deltaTokens : 0, rebuild, buildNote };
}

/** The first judgement's way: rebuild the whole prompt and count what the rebuild changed. */
function measureRebuild(stored: PromptAnatomy, sources: RenderedSources): MeasuredRebuild {
  const rebuilt = rebuildPromptEdit(stored.text, sources);
  const after = countTokensAfterEdit(stored.text, { tokens: stored.tokens, exact: false, counted: stored.tokensCounted }, rebuilt.text, rebuilt.kept);
  const blocks: Array<RebuiltPart | undefined> = SOURCE_PARTS.map(() => undefined);
  for (const block of rebuilt.blocks) {
    const part = PART_INDEX_OF_BLOCK.get(block.kind);
    const end = block.start + block.text.length + block.gapAfter.length;
    if (part !== undefined && opensParagraph(block.text) && isTokenBoundary(rebuilt.text, block.start) && isTokenBoundary(rebuilt.text, end)) {
      blocks[part] = { text: block.text, gapAfter: block.gapAfter };
    }
  }
  return { deltaTokens: after.tokens - stored.tokens, blocks };
}

/**
 * The rebuild after `changed` parts replaced their blocks, measured block by block; undefined when
 * a change is not such a replacement (then measureRebuild runs).
 */
function remeasured(previous: Judgement, rebuild: MeasuredRebuild, changed: readonly SourcePart[], sources: RenderedSources): MeasuredRebuild | undefined {
  const soulAlike = () => blocksFoundAlike(previous.stored, previous.sources.soul, sources.soul);
  return replacingBlocks(rebuild, previous.stored, changed, sources, soulAlike);
}

/** `rebuild` with the blocks of `changed` parts replaced by what `sources` render for `stored`; undefined when that is no such replacement. */
function replacingBlocks(rebuild: MeasuredRebuild, stored: PromptAnatomy, changed: readonly SourcePart[], sources: RenderedSources, soulAlike: () => boolean): MeasuredRebuild | undefined {
  let deltaTokens = rebuild.deltaTokens;
  let blocks: Array<RebuiltPart | undefined> | undefined;
  for (const part of changed) {
    const at = SOURCE_PARTS.indexOf(part);
    const block = rebuild.blocks[at];
    const text = renderedText(part, sources, stored);
    // A block added or removed, or one whose new first character would join the paragraph before.
    if (!block || !text || !opensParagraph(text)) return undefined;
    if (part === 'soul' && !soulAlike()) return undefined;
    if (text === block.text) continue;
    deltaTokens += regionTokens(text, block.gapAfter) - regionTokens(block.text, block.gapAfter);
    blocks ??= rebuild.blocks.slice();
    blocks[at] = { text, gapAfter: block.gapAfter };
  }
  return blocks ? { deltaTokens, blocks } : rebuild;
}

/**
 * What a later run needs to judge new `parts` against this judgement without the prompt's text
 * (partsRejudge.ts): ΔS of the rebuild (made even for a fresh prompt, whose rebuild may still
 * differ in Hermes' wording around the user's entries) and the tokens of each part's block in it
 * (undefined where no token-bounded region). Undefined when the rebuild is no block-by-block edit.
 */
export function rebuiltBlocks(judged: Judgement, parts: readonly SourcePart[]): { readonly deltaTokens: number; readonly blocks: ReadonlyArray<{ readonly tokens: number; readonly gapAfter: string } | undefined> } | undefined {
  const rebuild = judged.rebuild ?? rebuildOfFresh(judged.stored, judged.sources);
  if (!rebuild) return undefined;
  const blocks = parts.map((part) => {
    const block = rebuild.blocks[SOURCE_PARTS.indexOf(part)];
    return block && { tokens: regionTokens(block.text, block.gapAfter), gapAfter: block.gapAfter };
  });
  return { deltaTokens: rebuild.deltaTokens, blocks };
}

/**
 * The rebuild of a prompt judged fresh: its own blocks, those that the sources render otherwise
 * (Hermes' wording of a header, a build's layout) replaced.
 */
function rebuildOfFresh(stored: PromptAnatomy, sources: RenderedSources): MeasuredRebuild | undefined {
  const blocks: Array<RebuiltPart | undefined> = SOURCE_PARTS.map(() => undefined);
  const changed: SourcePart[] = [];
  const held = new Set<number>();
  for (let i = 0; i < stored.blocks.length; i++) {
    const block = stored.blocks[i]!;
    const part = PART_INDEX_OF_BLOCK.get(block.kind);
    if (part === undefined) continue;
    if (held.has(part)) return undefined;
    held.add(part);
    const next = stored.blocks[i + 1]?.start ?? stored.text.length;
    if (opensParagraph(block.text) && isTokenBoundary(stored.text, block.start) && isTokenBoundary(stored.text, next)) {
      blocks[part] = { text: block.text, gapAfter: stored.text.slice(block.end, next) };
    }
    if (!rendersAsStored(SOURCE_PARTS[part]!, block.text, sources, stored)) changed.push(SOURCE_PARTS[part]!);
  }
  // A part the prompt lacks that renders something today would be a block added: no such edit.
  for (let part = 1; part < SOURCE_PARTS.length; part++) if (!held.has(part) && renderedText(SOURCE_PARTS[part]!, sources, stored)) return undefined;
  return replacingBlocks({ deltaTokens: 0, blocks }, stored, changed, sources, () => true);
}

// Whether a skills index renders today as a prompt holds it, by index text and today's skills: a
// thousand prompts hold a few indexes, and each rendering builds the whole block again.
const skillsAlike = new WeakMap<object, Map<string, boolean>>();
const INDEXES_KEPT = 64;

/** Whether `part` puts into the rebuild of `stored` the text its block there holds. */
function rendersAsStored(part: SourcePart, blockText: string, sources: RenderedSources, stored: PromptAnatomy): boolean {
  if (part === 'soul') return true;
  if (part !== 'skills') return renderedText(part, sources, stored) === blockText;
  const index = skillsAsReadBy(sources.skills, stored);
  let known = skillsAlike.get(index);
  if (!known) skillsAlike.set(index, (known = new Map()));
  let alike = known.get(blockText);
  if (alike === undefined) {
    alike = renderedText(part, sources, stored) === blockText;
    if (known.size >= INDEXES_KEPT) known.clear();
    known.set(ownCopy(blockText), alike);
  }
  return alike;
}

/** What `part` puts into the rebuild of `stored`; undefined when that depends on more of the stored prompt (no SOUL.md). */
export function renderedText(part: SourcePart, sources: RenderedSources, stored: PromptAnatomy): string | undefined {
  if (part === 'soul') return sources.soul.exists ? sources.soul.block : undefined;
  if (part === 'skills') return skillsBlockFor(stored.blocks.find((b) => b.kind === 'skills-index')?.text, skillsAsReadBy(sources.skills, stored).block);
  if (part === 'projectContext') return projectContextFor(stored.blocks.find((b) => b.kind === 'project-context')?.text, sources.projectContext, stored.blocks);
  return sources[part].block;
}

/**
 * The rebuild finds the stored prompt's blocks with SOUL.md as a hint, used only when SOUL.md opens
 * the prompt (locateBlocksWithHint): with neither the old nor the new SOUL.md doing so, the blocks
 * are the same; with either, they are when both end the identity at the same place.
 */
function blocksFoundAlike(stored: PromptAnatomy, before: SoulSource, after: SoulSource): boolean {
  const hinted = (soul: SoulSource) => soul.exists && hintOpens(stored.text, soul.block);
  if (!hinted(before) && !hinted(after)) return true;
  const was = identityEndWith(stored, before);
  return was !== undefined && was === identityEndWith(stored, after);
}

/** Whether a rebuild with `soul` as the hint finds `stored`'s blocks where its anatomy has them. */
function locatedWith(stored: PromptAnatomy, soul: SoulSource): boolean {
  return identityEndWith(stored, soul) === stored.identity.length;
}

/**
 * Where a rebuild with `soul` as the hint ends `stored`'s identity: a hint changes the blocks only
 * through that (identityOpenings.ts), so the same end, the same blocks. Undefined when that cannot be
 * told, or for a prompt parsed with a caller's message (its markers are not the rebuild's).
 */
function identityEndWith(stored: PromptAnatomy, soul: SoulSource): number | undefined {
  if (stored.blocks.some((b) => b.kind === 'caller-system')) return undefined;
  const openings = identityOpenings(stored, firstBlockAfterIdentity(stored));
  return soul.exists && soul.block ? readHint(openings, soul.block)?.identityEnd : openings.hintlessEnd;
}

// Tokens of a block and its separator, by block text: every prompt holding the block asks the same.
const regionCounts = new Map<string, Map<string, number>>();
const REGIONS_KEPT = 512;

export function regionTokens(text: string, gapAfter: string): number {
  let byGap = regionCounts.get(text);
  let tokens = byGap?.get(gapAfter);
  if (tokens !== undefined) return tokens;
  tokens = countTokens(text + gapAfter).tokens;
  if (!byGap) {
    if (regionCounts.size >= REGIONS_KEPT) regionCounts.clear();
    regionCounts.set(text, (byGap = new Map()));
  }
  byGap.set(gapAfter, tokens);
  return tokens;
}
