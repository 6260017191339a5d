// What any SOUL.md would make of a stored prompt's identity, kept so that a later run can judge a
// new SOUL.md against the prompt without its text. A hint (SOUL.md as rendered) changes a prompt's
// anatomy only through where the identity ends (locate.ts: identityLength), and it is used only when
// it opens the text, followed by a blank line or the end (hintOpens). So each place a hint could
// open the text, with a digest of the text before it, tells all a hint can change: whether a
// given SOUL.md opens the prompt, where the identity then ends, and whether it is the whole
// identity (hintIsIdentity, the SOUL.md reason). Places up to the identity's end are kept: a longer
// SOUL.md opens the prompt only if it runs on through the next paragraph break after the identity
// (Hermes' own guidance, as a rule), which a digest up to that break tells; the prompt itself
// must then be read. No text is kept, only lengths and digests.
import { createHash, type Hash } from 'node:crypto';
import { DEFAULT_IDENTITY_OPENING } from '../literals/identity';
import { hintedIdentityEnd, identityLength } from './locate';
import type { PromptAnatomy } from './types';

export interface IdentityOpenings {
  /** The identity is Hermes' default one (no SOUL.md when the prompt was built). */
  readonly isDefault: boolean;
  /** Where the identity ends in the anatomy these were taken from. */
  readonly end: number;
  /** Where it ends when no hint opens the text. */
  readonly hintlessEnd: number;
  /**
   * The first place after `end` a hint could open the text, and the digest of the text before it;
   * undefined when the identity runs to the end of the text.
   */
  readonly beyond: readonly [length: number, digest: string] | undefined;
  /** Each place up to `end` a hint could open the text: [its length, digest of the text before it, where the identity then ends, 1 when the hint is then the whole identity]. */
  readonly openings: ReadonlyArray<readonly [length: number, digest: string, identityEnd: number, whole: 0 | 1]>;
}

/** What a hint does to the prompt: where its identity ends, and whether the hint is the whole of it. */
export interface HintReading {
  readonly identityEnd: number;
  readonly hintIsIdentity: boolean;
}

// Prompts of one profile share their opening (SOUL.md, then Hermes' guidance): computed once per opening.
const byOpening = new Map<string, IdentityOpenings>();
const OPENINGS_KEPT = 256;

/**
 * `firstAfterIdentity`: where the first block after the identity and guidance starts (what the
 * SOUL.md reason measures a hint against, staleness.ts).
 */
export function identityOpenings(anatomy: PromptAnatomy, firstAfterIdentity: number): IdentityOpenings {
  const { text, identityBounds } = anatomy;
  const { firstMarker, anyMarker } = identityBounds;
  const end = anatomy.identity.length;
  const next = text.indexOf('\n\n', end + 1);
  const nextBreak = next >= 0 ? next : end < text.length ? text.length : -1;
  // Where the identity ends for a hint depends on the paragraphs up to the first block after it.
  const key = `${firstMarker}\u0000${anyMarker ? 1 : 0}\u0000${firstAfterIdentity}\u0000${end}\u0000${text.slice(0, Math.max(firstMarker, firstAfterIdentity, nextBreak))}`;
  let kept = byOpening.get(key);
  if (kept) return kept;
  const openings: Array<[number, string, number, 0 | 1]> = [];
  const hash = createHash('sha256');
  let hashedTo = 0;
  for (let p = text.indexOf('\n\n'); p >= 0 && p <= end; p = text.indexOf('\n\n', p + 1)) {
    if (p === 0) continue;
    hashedTo = addOpening(openings, hash, text, hashedTo, p, firstMarker, firstAfterIdentity);
  }
  if (text.length === end && end > 0) hashedTo = addOpening(openings, hash, text, hashedTo, end, firstMarker, firstAfterIdentity);
  kept = {
    isDefault: anatomy.identity.startsWith(DEFAULT_IDENTITY_OPENING),
    end,
    hintlessEnd: identityLength(text, undefined, firstMarker, anyMarker),
    beyond: nextBreak < 0 ? undefined : [nextBreak, hash.update(text.slice(hashedTo, nextBreak)).digest('base64url').slice(0, DIGEST_CHARS)],
    openings,
  };
  if (byOpening.size >= OPENINGS_KEPT) byOpening.clear();
  byOpening.set(key, kept);
  return kept;
}

function addOpening(out: Array<[number, string, number, 0 | 1]>, hash: Hash, text: string, hashedTo: number, p: number, firstMarker: number, firstAfterIdentity: number): number {
  hash.update(text.slice(hashedTo, p));
  const hint = text.slice(0, p);
  const whole = hintedIdentityEnd(text, hint, firstAfterIdentity) === p ? 1 : 0;
  out.push([p, hash.copy().digest('base64url').slice(0, DIGEST_CHARS), hintedIdentityEnd(text, hint, firstMarker), whole]);
  return p;
}

/** What `hint` does to the prompt `openings` were taken from; undefined when that cannot be told without its text. */
export function readHint(openings: IdentityOpenings, hint: string): HintReading | undefined {
  if (hint.length > openings.end) {
    const beyond = openings.beyond;
    return beyond && hint.length >= beyond[0] && digestOf(hint.slice(0, beyond[0])) === beyond[1] ? undefined : HINTLESS(openings);
  }
  const at = openings.openings.find((o) => o[0] === hint.length);
  if (at && at[1] === digestOf(hint)) return { identityEnd: at[2], hintIsIdentity: at[3] === 1 };
  return HINTLESS(openings);
}

const HINTLESS = (openings: IdentityOpenings): HintReading => ({ identityEnd: openings.hintlessEnd, hintIsIdentity: false });

// 96 bits: a SOUL.md taken for the one a prompt holds by chance is not a worry.
const DIGEST_CHARS = 16;

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, DIGEST_CHARS);
}
