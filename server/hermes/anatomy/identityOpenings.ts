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
import { createHash } from 'node:crypto';
import { DEFAULT_IDENTITY_OPENING } from '../literals/identity';
import { guidanceAfter, hintedIdentityEnds, identityLength } from './locate';
import type { PromptAnatomy } from './types';
import { ownCopy } from '../text/ownCopy';

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

// Prompts of one profile share their opening (SOUL.md, then Hermes' first paragraph after it): the
// digests are made once per opening, by its text up to that paragraph's end; and when that paragraph
// is Hermes' guidance, where any hint would end the identity is found by then too, so the whole
// answer is the opening's.
const digestsByOpening = new Map<string, OpeningDigests>();
const byOpening = new Map<string, IdentityOpenings>();
const OPENINGS_KEPT = 256;

interface OpeningDigests {
  /** Where a hint could open the text, up to the identity's end. */
  readonly places: readonly number[];
  readonly digests: readonly string[];
  readonly beyond: IdentityOpenings['beyond'];
}

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
  const opening = text.slice(0, Math.max(end, nextBreak));
  const anchor = guidanceAfter(text, end);
  const settled = anchor >= 0 && anchor < nextBreak && anchor < firstMarker && anchor < firstAfterIdentity;
  const settledKey = settled ? `${end}\u0000${anyMarker ? 1 : 0}\u0000${opening}` : undefined;
  const known = settledKey === undefined ? undefined : byOpening.get(settledKey);
  if (known) return known;
  let digests = digestsByOpening.get(opening);
  if (!digests) {
    digests = openingDigests(text, end, nextBreak);
    if (digestsByOpening.size >= OPENINGS_KEPT) digestsByOpening.clear();
    digestsByOpening.set(ownCopy(opening), digests);
  }
  // Where each hint would end the identity depends on the paragraphs up to the first block after it.
  const located = hintedIdentityEnds(text, digests.places, firstMarker);
  const whole = hintedIdentityEnds(text, digests.places, firstAfterIdentity);
  const openings: IdentityOpenings = {
    isDefault: anatomy.identity.startsWith(DEFAULT_IDENTITY_OPENING),
    end,
    hintlessEnd: identityLength(text, undefined, firstMarker, anyMarker),
    beyond: digests.beyond,
    openings: digests.places.map((p, i) => [p, digests.digests[i]!, located[i]!, whole[i] === p ? 1 : 0] as const),
  };
  if (settledKey !== undefined) {
    if (byOpening.size >= OPENINGS_KEPT) byOpening.clear();
    byOpening.set(ownCopy(settledKey), openings);
  }
  return openings;
}

function openingDigests(text: string, end: number, nextBreak: number): OpeningDigests {
  const places: number[] = [];
  for (let p = text.indexOf('\n\n', 1); p >= 0 && p <= end; p = text.indexOf('\n\n', p + 1)) places.push(p);
  if (text.length === end && end > 0) places.push(end);
  const hash = createHash('sha256');
  const digests: string[] = [];
  let hashedTo = 0;
  for (const p of places) {
    hash.update(text.slice(hashedTo, p));
    hashedTo = p;
    digests.push(hash.copy().digest('base64url').slice(0, DIGEST_CHARS));
  }
  const beyond: IdentityOpenings['beyond'] = nextBreak < 0 ? undefined : [nextBreak, hash.update(text.slice(hashedTo, nextBreak)).digest('base64url').slice(0, DIGEST_CHARS)];
  return { places, digests, beyond };
}

/** What `hint` does to the prompt `openings` were taken from; undefined when that cannot be told without its text. */
export function readHint(openings: IdentityOpenings, hint: string): HintReading | undefined {
  if (hint.length > openings.end) {
    const beyond = openings.beyond;
    return beyond && hint.length >= beyond[0] && prefixDigest(hint, beyond[0]) === beyond[1] ? undefined : HINTLESS(openings);
  }
  let at: (typeof openings.openings)[number] | undefined;
  // A loop, not find(): this runs for every prompt of a profile after each edit of SOUL.md.
  for (const o of openings.openings) {
    if (o[0] === hint.length) {
      at = o;
      break;
    }
  }
  if (at && at[1] === prefixDigest(hint, hint.length)) return { identityEnd: at[2], hintIsIdentity: at[3] === 1 };
  return HINTLESS(openings);
}

// One reading per openings: after an edit every prompt of a profile reads hintless, a thousand per save.
const hintless = new WeakMap<IdentityOpenings, HintReading>();

function HINTLESS(openings: IdentityOpenings): HintReading {
  let reading = hintless.get(openings);
  if (!reading) hintless.set(openings, (reading = { identityEnd: openings.hintlessEnd, hintIsIdentity: false }));
  return reading;
}

// 96 bits: a SOUL.md taken for the one a prompt holds by chance is not a worry.
const DIGEST_CHARS = 16;

// Every prompt asks of the same SOUL.md after its edit, at a few lengths: each digested once.
let digestedHint = '';
let hintDigests = new Map<number, string>();

function prefixDigest(hint: string, length: number): string {
  if (hint !== digestedHint) {
    digestedHint = hint;
    hintDigests = new Map();
  }
  let digest = hintDigests.get(length);
  if (digest === undefined) hintDigests.set(length, (digest = digestOf(hint.slice(0, length))));
  return digest;
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, DIGEST_CHARS);
}
