// Context-file truncation (HERMES-FORMATS §3.4, `PB._truncate_content`) and the cap it uses. The
// head and tail are measured from the cap, in code points, and the marker names the absolute path
// the agent should read instead.
import type { ProfileConfig } from '../profile/config';
import { codePointLength, unitOffset } from '../text/pyText';

export interface Truncation {
  /** The text as it enters the prompt. */
  readonly text: string;
  readonly truncated: boolean;
  /** Code points kept from the start and from the end (the whole text and 0 when not truncated). */
  readonly head: number;
  readonly tail: number;
  /** Code points of the input. */
  readonly length: number;
  /** UTF-16 offsets of the input that were dropped, [start, end); empty when not truncated. */
  readonly dropped: { readonly start: number; readonly end: number };
  /** UTF-16 offset of the input where the kept tail starts (the input's length when not truncated). */
  readonly tailFrom: number;
  /** The marker put in the middle ('' when not truncated). */
  readonly marker: string;
}

export const CONTEXT_FILE_MAX_CHARS = 20_000;
const DYNAMIC_CEILING = 500_000;
const WINDOW_FRACTION = 0.06;
/**
 * Hermes' `CHARS_PER_TOKEN` (agent/model_metadata.py) was not found in the sources we read; its
 * rough token estimate uses 4 characters per token, so we assume 4.
 */
const CHARS_PER_TOKEN = 4;

export function truncateContextText(text: string, cap: number, warnName: string, readPath: string): Truncation {
  const length = codePointLength(text);
  if (length <= cap) {
    return { text, truncated: false, head: length, tail: 0, length, dropped: { start: text.length, end: text.length }, tailFrom: text.length, marker: '' };
  }
  const head = Math.trunc(cap * 0.7);
  const tail = Math.trunc(cap * 0.2);
  const marker =
    `\n\n[...truncated ${warnName}: kept ${head}+${tail} of ${length} chars. The middle is omitted — ` +
    `if you need the full instructions, read the complete file with the read_file tool: ${readPath || warnName}]\n\n`;
  const headEnd = unitOffset(text, head);
  // Python's `text[-0:]` is the whole text: with a cap under 5 the "tail" is everything.
  const tailStart = tail > 0 ? unitOffset(text, length - tail) : 0;
  const kept = text.slice(0, headEnd) + marker + text.slice(tailStart);
  return {
    text: kept,
    truncated: true,
    head,
    tail,
    length,
    dropped: { start: headEnd, end: Math.max(headEnd, tailStart) },
    tailFrom: tailStart,
    marker,
  };
}

/**
 * The per-file cap: `context_file_max_chars` when set, else 6% of the model's window (in characters),
 * clamped to 20,000–500,000; 20,000 when the window is unknown.
 */
export function contextFileCap(config: Pick<ProfileConfig, 'contextFileMaxChars'>, contextWindow?: number): number {
  const pinned = config.contextFileMaxChars;
  if (pinned !== undefined && pinned > 0) return Math.trunc(pinned);
  if (contextWindow === undefined || !Number.isInteger(contextWindow) || contextWindow <= 0) return CONTEXT_FILE_MAX_CHARS;
  const budget = Math.trunc(contextWindow * CHARS_PER_TOKEN * WINDOW_FRACTION);
  return Math.max(CONTEXT_FILE_MAX_CHARS, Math.min(budget, DYNAMIC_CEILING));
}

/** The one-line message for a truncated file, shared by every source that gets truncated. */
export function truncationMessage(name: string, t: Truncation, cap: number): string {
  return (
    `${name} is longer than the context-file cap (${t.length} characters, cap ${cap}): Hermes keeps its first ${t.head} and last ${t.tail} ` +
    `characters and drops the middle marked here. ${truncationFix(cap)}`
  );
}

/** How to keep a file whole, for every truncation message. */
export function truncationFix(cap: number): string {
  return `Trim the file to ${cap} characters or fewer, or raise context_file_max_chars in the profile's config.yaml.`;
}
