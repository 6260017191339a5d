// What a session's report needs of its stored prompt: its tokens, where its skills index sits and
// a fingerprint of Hermes' own text in it.
// The anatomy holds much more (and the whole text); the analyses kept on disk between runs
// (persistedAnalyses.ts) keep only this, so a report can be made without reading the prompt.
import { proseFingerprint } from '../anatomy/hermesProse';
import { prefixPrintOf, type PrefixPrint } from '../anatomy/prefixPrint';
import type { PromptAnatomy } from '../anatomy/types';
import type { TierName } from '../model';
import type { JudgedPrompt } from './judgement';

export interface PromptFacts {
  readonly tokens: number;
  /** Counted with o200k, not estimated (PromptAnatomy.tokensCounted): exact for sessions of o200k models. */
  readonly tokensCounted: boolean;
  readonly skillsTier: TierName | undefined;
  /** Hermes' own text in the prompt, as hashes (hermesProse.ts): which build wrote it. */
  readonly prose: string;
  /** The prompt's `Model:` line: the model the session runs now (builds before 0.20.3 leave `sessions.model` as it was after a `/model`). */
  readonly model: string | undefined;
  /** Its stable tier's size and digests: which sessions share a cached prefix (prefix families). */
  readonly prefix: PrefixPrint;
}

/** A stored prompt's facts and its verdict against today's sources. */
export interface PromptVerdict {
  readonly prompt: PromptFacts;
  readonly judged: JudgedPrompt;
}

// One object per anatomy, so reports can tell an unchanged prompt by identity.
const factsByAnatomy = new WeakMap<PromptAnatomy, PromptFacts>();

export function factsOf(anatomy: PromptAnatomy): PromptFacts {
  let facts = factsByAnatomy.get(anatomy);
  if (!facts) factsByAnatomy.set(anatomy, (facts = { tokens: anatomy.tokens, tokensCounted: anatomy.tokensCounted, skillsTier: anatomy.skillsIndex.tier, prose: proseFingerprint(anatomy), model: anatomy.model || undefined, prefix: prefixPrintOf(anatomy) }));
  return facts;
}
