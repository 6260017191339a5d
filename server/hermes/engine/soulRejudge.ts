// A kept verdict judged again after an edit of SOUL.md alone, without the prompt's text: what
// users run `status` for right after saving SOUL.md, when every prompt of the profile is judged
// again. What a SOUL.md does to a prompt is kept with its verdict (identityOpenings.ts): whether it
// opens the prompt, where the identity then ends; ΔS moves by the tokens of the new SOUL.md's
// block minus those of the old one, as a judgement in memory does (judgement.ts: remeasured).
// Whatever this cannot tell so (a SOUL.md that opens the prompt somewhere else, no SOUL.md, a block
// that is no token-bounded region) is left to a judgement of the prompt itself.
import { readHint, type IdentityOpenings } from '../anatomy/identityOpenings';
import { opensParagraph } from '../cost/tokens';
import type { SoulSource } from '../sources/types';
import type { PromptVerdict } from './promptFacts';
import { regionTokens } from './judgement';
import { soulReasonsOf } from './staleness';

/** What a verdict keeps for soulRejudge. */
export interface KeptSoul {
  readonly openings: IdentityOpenings;
  /** ΔS of the prompt's rebuild, reported or not (a fresh prompt reports 0). */
  readonly deltaTokens: number;
  /** Tokens of SOUL.md's block and the separator after it in the rebuild. */
  readonly soulTokens: number;
  readonly gapAfter: string;
}

/** `kept` judged against `soul` instead of the SOUL.md it was judged against; undefined when the prompt itself must be judged. */
export function rejudgeSoul(kept: PromptVerdict, keptSoul: KeptSoul, soul: SoulSource): { verdict: PromptVerdict; soul: KeptSoul } | undefined {
  if (!soul.exists || !soul.block || !opensParagraph(soul.block)) return undefined;
  const reading = readHint(keptSoul.openings, soul.block);
  // The new SOUL.md ends the identity elsewhere: every block may sit elsewhere.
  if (!reading || reading.identityEnd !== keptSoul.openings.end) return undefined;
  const soulReasons = soulReasonsOf(keptSoul.openings.isDefault, soul, () => reading.hintIsIdentity);
  const others = kept.judged.reasons.filter((r) => r.source !== 'soul');
  // SOUL.md's reasons come first (SOURCE_PARTS order).
  const reasons = soulReasons.length === 0 ? others : [...soulReasons, ...others];
  const soulTokens = regionTokens(soul.block, keptSoul.gapAfter);
  const deltaTokens = keptSoul.deltaTokens - keptSoul.soulTokens + soulTokens;
  return {
    verdict: { prompt: kept.prompt, judged: { reasons, deltaTokens: reasons.length > 0 ? deltaTokens : 0, buildNote: kept.judged.buildNote } },
    soul: { openings: keptSoul.openings, deltaTokens, soulTokens, gapAfter: keptSoul.gapAfter },
  };
}
