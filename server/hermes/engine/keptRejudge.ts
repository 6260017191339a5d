// A verdict kept before an edit of SOUL.md, a skill, an AGENTS.md or a memory file, judged again for
// the sources after it without the prompt's text where partsRejudge.ts can: by `status` and the
// language server after a save, and by the server's preview of an unsaved buffer. A stored skills
// index or project block is judged once per distinct block from one prompt holding it.
import type { PromptAnatomy } from '../anatomy/types';
import type { RenderedSources } from '../sources/types';
import { renderedText } from './judgement';
import { changedParts } from './judgingDigest';
import { rejudgeParts, REJUDGED_PARTS, sharedBlockDigest, type BlockJudge, type KeptParts, type RejudgedSources, type SharedBlockPart } from './partsRejudge';
import type { PromptVerdict } from './promptFacts';
import type { KeptVerdict } from './verdictStore';
import { buildNoteOf, partReasons, type SourcePart } from './staleness';

/** Stored blocks judged so far, by today's part (one object per cwd and platform) and the block's digest. */
export type JudgedBlocks = WeakMap<object, Map<string, ReturnType<BlockJudge>>>;

/** What rejudgeKept asks of the sources after the edit and of the prompt, each only when it needs it. */
export interface RejudgeInputs {
  /** SOUL.md and the memory files after it (each rendered alone where a status keeps their reads apart). */
  readonly apart: () => RejudgedSources;
  /** The session's whole sources after it (for a skills index or project block). */
  readonly today: () => RenderedSources;
  readonly cwd: string | undefined;
  readonly judgedBlocks: JudgedBlocks;
  /** The prompt's anatomy, read and parsed when a block it holds is judged first (undefined: cannot be read). */
  readonly anatomy: () => PromptAnatomy | undefined;
}

/**
 * `earlier` judged again for sources of judging digest `digest`: as kept when nothing it depends on
 * changed; undefined when the prompt itself must be judged.
 */
export function rejudgeKept(earlier: KeptVerdict | undefined, digest: string, inputs: RejudgeInputs): { verdict: PromptVerdict; parts: KeptParts } | undefined {
  if (!earlier?.parts) return undefined;
  const changed = changedParts(earlier.digest, digest);
  if (changed.length === 0) return { verdict: earlier.verdict, parts: earlier.parts };
  if (!changed.every((part) => (REJUDGED_PARTS as readonly string[]).includes(part))) return undefined;
  return rejudgeParts(earlier.verdict, earlier.parts, changed as readonly SourcePart[], inputs.apart, (part, blockDigest) => judgedBlock(inputs, part, blockDigest));
}

/** A stored skills index or project block judged against today's, once per distinct block and part. */
function judgedBlock(inputs: RejudgeInputs, part: SharedBlockPart, blockDigest: string): ReturnType<BlockJudge> {
  const today = inputs.today();
  const todayPart = today[part];
  let byDigest = inputs.judgedBlocks.get(todayPart);
  if (!byDigest) inputs.judgedBlocks.set(todayPart, (byDigest = new Map()));
  if (byDigest.has(blockDigest)) return byDigest.get(blockDigest);
  const stored = inputs.anatomy();
  const judged =
    stored && sharedBlockDigest(part, stored) === blockDigest
      ? { reasons: partReasons(part, stored, today, inputs.cwd), block: renderedText(part, today, stored), buildNote: part === 'projectContext' ? buildNoteOf(stored, today) : undefined }
      : undefined;
  // A prompt that could not be read says nothing of the block: the next one holding it is asked.
  if (stored) byDigest.set(blockDigest, judged);
  return judged;
}
