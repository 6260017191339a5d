// A kept verdict judged again after edits of SOUL.md, the skills, project context, MEMORY.md or USER.md alone,
// without the prompt's text: what users run `status` for right after saving one of them, and what
// Hermes' own memory writes ask of the next status, when every prompt of the profile is judged
// again. What each part needs is kept with the verdict: for SOUL.md, what any SOUL.md does to the
// prompt's identity (identityOpenings.ts); for the memory files, a digest of the entries the
// prompt holds; for the skills and the project context, a digest of the block it holds, which many
// prompts share: the block's reasons and rebuild are worked out once per distinct block, from one
// prompt that holds it (BlockJudge); for each, the tokens of its block in the rebuilt prompt, so that ΔS moves
// by the new block's tokens minus the old one's, as a judgement in memory does (judgement.ts).
// Whatever cannot be told so (a SOUL.md that opens the prompt somewhere else, a block added or
// removed, one that is no token-bounded region) is left to a judgement of the prompt itself.
import { createHash } from 'node:crypto';
import { readHint, type IdentityOpenings } from '../anatomy/identityOpenings';
import type { PromptAnatomy } from '../anatomy/types';
import { mayReadSessionFolderOnly, readsNoProjectSkills } from '../anatomy/hermesProse';
import { opensParagraph } from '../cost/tokens';
import type { SourceKind, StaleReason } from '../model';
import type { MemorySource, SoulSource } from '../sources/types';
import { regionTokens } from './judgement';
import type { PromptVerdict } from './promptFacts';
import { memoryEntries, memoryReasonsOf, sameReasons, soulReasonsOf, SOURCE_PARTS, type SourcePart } from './staleness';
import { ownCopy } from '../text/ownCopy';

/** The parts judged again here, and the parts of the sources a reason of each kind comes from. */
export const REJUDGED_PARTS: readonly SourcePart[] = SOURCE_PARTS;
const PART_OF_REASON: Readonly<Record<SourceKind, SourcePart>> = {
  soul: 'soul',
  skill: 'skills',
  'skill-category': 'skills',
  'project-context': 'projectContext',
  memory: 'memory',
  user: 'user',
};

/** A part's block in the rebuilt prompt: its tokens with the separator after it. */
export interface KeptBlock {
  readonly tokens: number;
  readonly gapAfter: string;
}

/** The entries of a memory file the prompt holds, as a digest, and whether it holds no block of it. */
export interface KeptEntries {
  readonly digest: string;
  readonly empty: boolean;
}

/** What a verdict keeps for rejudgeParts. */
export interface KeptParts {
  readonly openings: IdentityOpenings;
  /** ΔS of the prompt's rebuild, reported or not (a fresh prompt reports 0). */
  readonly deltaTokens: number;
  /** The blocks of the REJUDGED_PARTS in the rebuild, in that order; undefined where no token-bounded region. */
  readonly blocks: ReadonlyArray<KeptBlock | undefined>;
  readonly memory: KeptEntries;
  readonly user: KeptEntries;
  /** The digest of the skills index block the prompt holds ('' when none). */
  readonly skills: string;
  /** The digest of the project context block the prompt holds, with what its prose says of parent folders. */
  readonly project: string;
}

/** The parts judged by the block a prompt holds, once per distinct block. */
export type SharedBlockPart = 'skills' | 'projectContext';

/**
 * The reasons, the rebuilt block and (for the project context) the build note of a stored block
 * against today's sources, by the block's digest; undefined when not known.
 */
export type BlockJudge = (part: SharedBlockPart, digest: string) => { readonly reasons: readonly StaleReason[]; readonly block: string | undefined; readonly buildNote: string | undefined } | undefined;

/** What the parts render today. */
export interface RejudgedSources {
  readonly soul: SoulSource;
  readonly memory: MemorySource;
  readonly user: MemorySource;
}

/** The entries a stored prompt holds of its memory blocks, and the digests of its shared blocks (keptPartsOf). */
export function keptEntriesOf(stored: PromptAnatomy): { memory: KeptEntries; user: KeptEntries; skills: string; project: string } {
  const of = (block: string): KeptEntries => ({ digest: entriesDigest(block), empty: block === '' });
  return { memory: of(stored.memoryBlock), user: of(stored.userBlock), skills: sharedBlockDigest('skills', stored), project: sharedBlockDigest('projectContext', stored) };
}

/**
 * The digest a verdict keeps of its prompt's skills index or project context: all that judging
 * that part reads of the prompt (for the project context, whether its prose is that of a build
 * reading the session's folder only and no AGENTS.override.md; for the skills, of one listing no
 * project skills, too).
 */
export function sharedBlockDigest(part: SharedBlockPart, stored: PromptAnatomy): string {
  if (part === 'skills') return stored.skillsIndex.text === '' ? '' : digestOf(readsNoProjectSkills(stored.blocks) ? 'skills\u00001' : 'skills', stored.skillsIndex.text);
  const block = stored.blocks.find((b) => b.kind === 'project-context')?.text ?? '';
  return digestOf(mayReadSessionFolderOnly(stored.blocks) ? 'project\u00001' : 'project\u00000', block);
}

/**
 * `kept` judged against today's `sources` in the `changed` parts (all of them REJUDGED_PARTS)
 * instead of those it was judged against; undefined when the prompt itself must be judged.
 */
export function rejudgeParts(
  kept: PromptVerdict,
  parts: KeptParts,
  changed: readonly SourcePart[],
  sources: () => RejudgedSources,
  shared: BlockJudge,
): { verdict: PromptVerdict; parts: KeptParts } | undefined {
  const today = sources();
  let deltaTokens = parts.deltaTokens;
  const blocks = parts.blocks.slice();
  // The changed parts' reasons, at their place in REJUDGED_PARTS (which is SOURCE_PARTS' order).
  const reasonsOf = REASONS_OF;
  reasonsOf.fill(undefined);
  let buildNote = kept.judged.buildNote;
  for (const part of changed) {
    const at = REJUDGED_PARTS.indexOf(part);
    const block = parts.blocks[at];
    const isShared = part === 'skills' || part === 'projectContext';
    const judged = isShared && block ? shared(part, part === 'skills' ? parts.skills : parts.project) : undefined;
    const soul = part === 'soul' ? today.soul : undefined;
    const memory = part === 'memory' || part === 'user' ? today[part] : undefined;
    const text = soul ? (soul.exists ? soul.block : '') : isShared ? judged?.block : memory!.block;
    // A block added or removed, or one whose first character would join the paragraph before.
    if (at < 0 || !block || !text || !opensParagraph(text)) return undefined;
    const reasons = soul ? soulReasons(parts.openings, soul) : isShared ? judged!.reasons : memoryReasons(parts[part as 'memory' | 'user'], memory!);
    if (!reasons) return undefined;
    // The build note speaks of the project context's files (staleness.ts: buildNoteOf).
    if (part === 'projectContext') buildNote = judged!.buildNote;
    reasonsOf[at] = reasons;
    const tokens = regionTokens(text, block.gapAfter);
    deltaTokens += tokens - block.tokens;
    blocks[at] = { tokens, gapAfter: block.gapAfter };
  }
  // The reasons in SOURCE_PARTS order, the changed parts' new, the others' as kept: gathered in
  // one array for every prompt, copied only where they differ from the kept ones.
  const reasons = REASONS;
  reasons.length = 0;
  for (let at = 0; at < SOURCE_PARTS.length; at++) {
    const now = reasonsOf[at];
    if (now) for (const r of now) reasons.push(r);
    else for (const r of kept.judged.reasons) if (PART_OF_REASON[r.source] === SOURCE_PARTS[at]) reasons.push(r);
  }
  // The kept array where they read the same (an edit after the first): reports and the session
  // list take the same array for no change without comparing it (reportJson.ts).
  const judgedReasons = sameReasons(reasons, kept.judged.reasons) ? kept.judged.reasons : reasons.slice();
  // Written out, not spread: a save makes one per prompt.
  const { openings, memory, user, skills, project } = parts;
  return {
    verdict: { prompt: kept.prompt, judged: { reasons: judgedReasons, deltaTokens: reasons.length > 0 ? deltaTokens : 0, buildNote } },
    parts: { openings, deltaTokens, blocks, memory, user, skills, project },
  };
}

// One of each for every rejudgeParts (they run one at a time, and neither array leaves it).
const REASONS_OF: Array<readonly StaleReason[] | undefined> = [undefined, undefined, undefined, undefined, undefined];
const REASONS: StaleReason[] = [];

/** SOUL.md's reasons, when a SOUL.md leaves the prompt's blocks where they were. */
function soulReasons(openings: IdentityOpenings, soul: SoulSource): readonly StaleReason[] | undefined {
  const reading = readHint(openings, soul.block);
  // The new SOUL.md ends the identity elsewhere: every block may sit elsewhere.
  if (!reading || reading.identityEnd !== openings.end) return undefined;
  readingIsIdentity = reading.hintIsIdentity;
  return soulReasonsOf(openings.isDefault, soul, READING_IS_IDENTITY);
}

// What soulReasonsOf asks, without a closure per prompt: set just before each call.
let readingIsIdentity = false;
const READING_IS_IDENTITY = (): boolean => readingIsIdentity;

function memoryReasons(kept: KeptEntries, source: MemorySource): readonly StaleReason[] {
  return memoryReasonsOf(kept.digest === entriesDigest(source.block), kept.empty, source);
}

function entriesDigest(block: string): string {
  return digestOf('entries', memoryEntries(block));
}

// Prompts of a profile share their memory and skills blocks: each digested once (bounded), looked
// up by the block itself (a slice of its prompt: joined to its kind, each lookup would copy it whole).
const digestsByKind = new Map<string, Map<string, string>>();
const TEXTS_KEPT = 256;

// 96 bits: entries or an index taken for those a prompt holds by chance are not a worry. The digest
// is that of `kind`, a NUL and the text, as verdicts kept on disk hold it.
function digestOf(kind: string, text: string): string {
  let byText = digestsByKind.get(kind);
  if (!byText) digestsByKind.set(kind, (byText = new Map()));
  let digest = byText.get(text);
  if (digest !== undefined) return digest;
  digest = createHash('sha256').update(`${kind}\u0000`).update(text).digest('base64url').slice(0, 16);
  if (byText.size >= TEXTS_KEPT) byText.clear();
  byText.set(ownCopy(text), digest);
  return digest;
}
