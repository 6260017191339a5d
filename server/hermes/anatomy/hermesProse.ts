// Hermes' own text in a stored prompt (its guidance, the skills index's heading and instructions),
// as opposed to what the user's files put there. It changes between Hermes builds, so it never makes
// a session stale; a session whose prose differs from that of the profile's newest session was
// built by another Hermes build, which the reports say once per session.
//
// A prompt's prose is kept as a fingerprint of hashes, never as text: verdicts kept on disk carry
// it (persistedAnalyses.ts), and prompt text never goes to disk.
import { SKILLS_CLOSE, SKILLS_OPEN } from '../literals/containers';
import type { PromptAnatomy } from './types';
import { ownCopy } from '../text/ownCopy';

/** Where a paragraph of prose sits, for the reports' words. */
type ProseArea = 'g' | 's' | 'c';
const AREA_WORDS: Readonly<Record<ProseArea, string>> = {
  g: 'guidance',
  s: "skills index's heading or instructions",
  c: 'context-tier text',
};

/**
 * The prose paragraphs of a prompt, each as area, hash of its first line and hash of its text:
 * `g1a2b3c4d5e6f7a8b,…`, and, as entries of the same shape, the tier of the skills index (`t`) and
 * the place of the profile line (`p`), which builds change too. Two builds' paragraphs are compared
 * by first line (gated paragraphs, present for some models or platforms only, are then simply
 * absent, not different).
 */
export function proseFingerprint(anatomy: PromptAnatomy): string {
  const entries: string[] = [];
  const blocks = anatomy.blocks;
  for (const block of blocks) {
    if (block.kind === 'skills-index') {
      const prose = skillsProse(block.text);
      if (prose) entries.push(`s${hash8('skills')}${hash8(prose)}`);
      entries.push(`t${hash8('skills-tier')}${hash8(block.tier)}`);
    } else if (block.kind === 'guidance' || block.kind === 'other') {
      const area: ProseArea = block.tier === 'stable' ? 'g' : 'c';
      const prose = blockProse(area, block.text);
      if (prose) entries.push(prose);
    } else if (block.kind === 'active-profile') {
      // Where the build puts the profile line: last (builds since 2026-09-28) or before the trailer.
      const last = blocks[blocks.length - 1] === block || blocks[blocks.length - 1]?.kind === 'runtime-environment';
      entries.push(`p${hash8('profile-line')}${hash8(last ? 'last' : 'inner')}`);
    }
  }
  return entries.join(',');
}

/**
 * Whether the prompt's prose is that of a Hermes build that may read AGENTS.md from the session's
 * folder only: up to 0.20.0 Hermes did, and its skills guidance ends with this sentence until 0.20.2
 * rewords it (0.20.1 writes it too, though it already reads parent folders: the prose cannot tell
 * the two apart). Such a prompt without project context says nothing of a parent folder's file.
 */
export function mayReadSessionFolderOnly(blocks: readonly ProseBlock[]): boolean {
  return writesOldSkillGuidance(blocks);
}

/**
 * Whether the prompt's build reads no `AGENTS.override.md`, as far as its prose shows: builds up to
 * 0.20.1 write the sentence 0.20.2 rewords, and the override is read from 0.20.3 on.
 */
export function readsNoAgentsOverride(blocks: readonly ProseBlock[]): boolean {
  return writesOldSkillGuidance(blocks);
}

/** The parts of a prompt block its prose is read from. */
export type ProseBlock = Pick<PromptAnatomy['blocks'][number], 'kind' | 'tier' | 'text'>;

function writesOldSkillGuidance(blocks: readonly ProseBlock[]): boolean {
  return blocks.some((b) => (b.kind === 'guidance' || b.kind === 'other') && b.tier === 'stable' && b.text.includes(OLD_SKILL_GUIDANCE));
}

const OLD_SKILL_GUIDANCE = 'After completing a complex task (5+ tool calls), fixing a tricky error, or discovering a non-trivial workflow, save the approach as a skill';

// A block's entries by area and text: prompts of one build share their guidance word for word,
// and a thousand prompts hashed the same paragraphs a thousand times.
const proseOfBlocks: Record<ProseArea, Map<string, string>> = { g: new Map(), s: new Map(), c: new Map() };
const BLOCKS_KEPT = 256;

/** The entries of a guidance or other block's paragraphs, joined ('' for none). */
function blockProse(area: ProseArea, text: string): string {
  const kept = proseOfBlocks[area];
  let prose = kept.get(text);
  if (prose !== undefined) return prose;
  const entries: string[] = [];
  for (const paragraph of text.split('\n\n')) {
    if (!paragraph.trim() || isFactParagraph(paragraph)) continue;
    const firstLine = paragraph.slice(0, Math.min(paragraph.length, FIRST_LINE_CHARS)).split('\n', 1)[0]!;
    entries.push(`${area}${hash8(firstLine)}${hash8(paragraph)}`);
  }
  prose = entries.join(',');
  if (kept.size >= BLOCKS_KEPT) kept.clear();
  kept.set(ownCopy(text), prose);
  return prose;
}

/**
 * How the prose of `fingerprint` differs from `reference`'s, in words; undefined when it does not
 * (paragraphs only one of them has are not a difference: models and platforms gate some).
 */
export function proseDifference(fingerprint: string, reference: string): string | undefined {
  if (fingerprint === reference) return undefined;
  // Every session is compared with the one reference, and sessions share their prompts' fingerprints.
  if (differences.reference !== reference) differences = { reference, theirs: entriesOf(reference), said: new Map() };
  if (differences.said.has(fingerprint)) return differences.said.get(fingerprint);
  const said = differenceFrom(fingerprint, differences.theirs);
  if (differences.said.size >= DIFFERENCES_KEPT) differences.said.clear();
  differences.said.set(fingerprint, said);
  return said;
}

let differences: { reference: string; theirs: ReadonlyMap<string, string>; said: Map<string, string | undefined> } = { reference: '', theirs: new Map(), said: new Map() };
const DIFFERENCES_KEPT = 1024;

/** A fingerprint's entries: the hash of each paragraph's text by its area and first line's hash. */
function entriesOf(fingerprint: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const entry of fingerprint ? fingerprint.split(',') : []) entries.set(entry.slice(0, 9), entry.slice(9));
  return entries;
}

function differenceFrom(fingerprint: string, theirs: ReadonlyMap<string, string>): string | undefined {
  const areas = new Map<string, number>();
  for (const entry of fingerprint ? fingerprint.split(',') : []) {
    const other = theirs.get(entry.slice(0, 9));
    if (other === undefined || other === entry.slice(9)) continue;
    const area = entry[0] === 't' ? 'tier' : entry[0] === 'p' ? 'place' : (entry[0] as ProseArea);
    areas.set(area, (areas.get(area) ?? 0) + 1);
  }
  if (areas.size === 0) return undefined;
  const words = [...areas].map(([area, n]) =>
    area === 'tier' ? "skills index's tier" : area === 'place' ? "profile line's place" : area === 'g' || area === 'c' ? `${n} paragraph${n === 1 ? '' : 's'} of ${AREA_WORDS[area]}` : AREA_WORDS[area as ProseArea],
  );
  const listed = words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words[0]!;
  return `its ${listed} differ${areas.size === 1 && [...areas.values()][0] === 1 ? 's' : ''} from the newest session's`;
}

/** The skills block without its list: the heading, instructions and closing words of its build. */
function skillsProse(block: string): string {
  const open = block.indexOf(SKILLS_OPEN);
  const close = block.lastIndexOf(SKILLS_CLOSE);
  const prose = open < 0 || close < open ? block : block.slice(0, open) + block.slice(close);
  // The note after a list with names-only categories is the session's focus mode, not its build.
  return prose.replace(NAMES_ONLY_NOTE, '');
}

const NAMES_ONLY_NOTE = /\n\(Categories marked \[names only\][^\n]*/;

const FIRST_LINE_CHARS = 120;
const FACT_LINE = /^[A-Z][A-Za-z0-9 ()/._-]{0,40}: \S/;

/**
 * A paragraph of facts about the session or machine (`Host: …`, `Current working directory: …`,
 * `Python toolchain: …`): every line a `Label: value`. Their values differ between sessions of one
 * build, so they say nothing about the build.
 */
function isFactParagraph(paragraph: string): boolean {
  return paragraph.split('\n').every((line) => FACT_LINE.test(line));
}

/** FNV-1a over UTF-16 units, 8 hex digits: enough to tell paragraphs apart, and no text. */
function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
