// Token counts for cost estimates. Offline only: gpt-tokenizer's o200k_base BPE, which is the real
// tokenizer of current OpenAI models and a close estimate for others (Claude, Gemini, Llama… have their
// own vocabularies; their counts are shown as "≈"). Never throws: a count is never worth a crash.
import { countWithTokenizer, isWhitespace, type ParagraphCount } from './countWithTokenizer';
import { parseModelRef } from './modelRef';
import { TokenCountStore } from './tokenCountStore';
import { processCacheEnv } from '../cacheFolder';
import { ownCopy } from '../text/ownCopy';

export interface TokenCount {
  readonly tokens: number;
  /** True only when the text was counted with the model's own tokenizer (OpenAI o200k models). */
  readonly exact: boolean;
  /** Counted with o200k, not estimated from its length: `exact` for any model o200k is the tokenizer of (countsExactlyFor). */
  readonly counted: boolean;
}

/** Counts paragraphs that no cache knows, in the order given. */
export type UncachedCounter = (paragraphs: readonly string[]) => ParagraphCount[];

// OpenAI models tokenized with o200k_base (gpt-oss uses o200k_harmony: the same merges plus chat-format
// special tokens, so plain text counts the same). GPT-4 / GPT-3.5 use cl100k_base and are not exact here.
const O200K_MODELS = /^(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-[6-9]|gpt-oss|gpt-realtime|gpt-audio|o[1-9](?:-|$)|chatgpt-4o|codex-mini)/;

// Beyond this the estimate is good enough and tokenizing would stall the server.
const MAX_TOKENIZED_CHARS = 2_000_000;
// Characters per token of typical English prose and code, the usual rule of thumb.
const CHARS_PER_TOKEN = 4;

const inThisProcess: UncachedCounter = (paragraphs) => paragraphs.map(countWithTokenizer);
let countUncached: UncachedCounter = inThisProcess;
let disk: TokenCountStore | null | undefined;

/**
 * Where text that no cache knows is counted from now on (the language server passes a helper
 * process, so the tokenizer's tables never stay in it); the default counts in this process.
 */
export function countUncachedWith(counter: UncachedCounter | undefined): void {
  countUncached = counter ?? inThisProcess;
}

/** The environment `disk` was made for: a command run with another makes it again (cacheFolder.ts). */
let diskEnv: NodeJS.ProcessEnv | undefined;

/** Counts remembered across processes (see tokenCountStore.ts); null when turned off. */
function diskStore(): TokenCountStore | undefined {
  const env = processCacheEnv();
  if (disk === undefined || diskEnv !== env) {
    disk?.flush();
    diskEnv = env;
    let version = 'unknown';
    try {
      version = (require('gpt-tokenizer/package.json') as { version: string }).version;
    } catch {
      // the version only keys the file
    }
    disk = TokenCountStore.forProcess(`o200k_base/gpt-tokenizer@${version}`, env) ?? null;
  }
  return disk ?? undefined;
}

export function countTokens(text: string, model?: string): TokenCount {
  if (typeof text !== 'string' || text.length === 0) return { tokens: 0, exact: countsExactlyFor(model), counted: true };
  if (text.length > MAX_TOKENIZED_CHARS) return { tokens: estimateTokensFromChars(text.length), exact: false, counted: false };
  try {
    let tokens = 0;
    let sliced = false;
    for (const part of countParagraphs(paragraphsOf(text))) {
      tokens += part.tokens;
      sliced ||= part.sliced;
    }
    return { tokens, exact: !sliced && countsExactlyFor(model), counted: !sliced };
  } catch {
    return { tokens: estimateTokensFromChars(text.length), exact: false, counted: false };
  }
}

// Prompts are counted paragraph by paragraph, and each paragraph's count is remembered: thousands of
// sessions share a few hundred stored prompts, which share most of their paragraphs (SOUL.md, the
// skills index, memory), and a rebuilt prompt differs from the stored one in a block or two. The sum
// is exactly the count of the whole text: o200k splits text into pre-tokens before BPE, and a
// pre-token never spans a position that follows a newline and holds a character other than
// whitespace or "/" (only the `[\r\n/]*` tail of a punctuation run and whitespace runs can contain a
// newline, and neither continues into such a character). Paragraph starts after a blank line are
// such positions; a long run (countWithTokenizer.ts) never spans one either, since it is all
// whitespace or none.
const remembered = new Map<string, ParagraphCount>();
let rememberedChars = 0;
/** About 32 MB of remembered paragraph text at most; the older half goes when it is full. */
const MAX_REMEMBERED_CHARS = 16_000_000;

/** Counts from memory, else from disk, else all the missing ones in one call of the counter. */
function countParagraphs(paragraphs: readonly string[]): ParagraphCount[] {
  const store = diskStore();
  const counts: Array<ParagraphCount | undefined> = [];
  const keys: string[] = [];
  const missing: number[] = [];
  for (let i = 0; i < paragraphs.length; i++) {
    const text = paragraphs[i]!;
    const hit = remembered.get(text);
    if (hit) {
      counts.push(hit);
      continue;
    }
    keys[i] = store ? TokenCountStore.keyOf(text) : '';
    const stored = store?.get(keys[i]!);
    counts.push(stored);
    if (!stored) missing.push(i);
  }
  if (missing.length > 0) {
    const counted = countUncached(missing.map((i) => paragraphs[i]!));
    missing.forEach((i, n) => {
      counts[i] = counted[n]!;
      store?.set(keys[i]!, counted[n]!);
    });
  }
  for (let i = 0; i < paragraphs.length; i++) if (keys[i] !== undefined) remember(paragraphs[i]!, counts[i]!);
  return counts as ParagraphCount[];
}

function remember(text: string, counted: ParagraphCount): void {
  if (remembered.has(text)) return; // the same paragraph twice in one text
  if (rememberedChars + text.length > MAX_REMEMBERED_CHARS) forgetOlderHalf();
  remembered.set(ownCopy(text), counted);
  rememberedChars += text.length;
}

function forgetOlderHalf(): void {
  let drop = Math.ceil(remembered.size / 2);
  for (const key of remembered.keys()) {
    if (drop-- <= 0) break;
    remembered.delete(key);
    rememberedChars -= key.length;
  }
}

/** The text cut into paragraphs: after blank lines, before a safe character. */
function paragraphsOf(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let from = 0;
  for (;;) {
    const at = text.indexOf('\n\n', from);
    if (at < 0) break;
    let p = at + 2;
    while (text.charCodeAt(p) === 0x0a) p++;
    if (isParagraphStartAt(text, p)) {
      parts.push(text.slice(start, p));
      start = p;
    }
    from = p;
  }
  parts.push(start === 0 ? text : text.slice(start));
  return parts;
}

/** `length` characters that sit unchanged at `before` in one text and at `after` in its edit. */
export interface SharedStretch {
  readonly before: number;
  readonly after: number;
  readonly length: number;
}

/**
 * The tokens of `after`, an edit of `before` (counted `beforeCount`) that kept the `shared`
 * stretches (in order) and changed what lies between them: a rebuilt prompt, where a save changed a
 * block or two of thirty kilobytes. Only the changed parts are counted, each widened to paragraph
 * starts inside the neighbouring shared stretches (the same positions in both texts), so the
 * paragraph sums stay exact; a shared stretch without a paragraph start joins the change around it.
 */
export function countTokensAfterEdit(before: string, beforeCount: TokenCount, after: string, shared: readonly SharedStretch[], model?: string): TokenCount {
  if (before.length > MAX_TOKENIZED_CHARS || after.length > MAX_TOKENIZED_CHARS || !inOrder(shared, before.length, after.length)) return countTokens(after, model);
  let tokens = beforeCount.tokens;
  let exact = beforeCount.exact;
  let counted = beforeCount.counted;
  // From one pair of corresponding paragraph starts to the next, through each shared stretch.
  let fromBefore = 0;
  let fromAfter = 0;
  const changed = (toBefore: number, toAfter: number) => {
    const removed = before.slice(fromBefore, toBefore);
    const added = after.slice(fromAfter, toAfter);
    if (removed !== added) {
      const count = countTokens(added, model);
      tokens += count.tokens - countTokens(removed, model).tokens;
      exact &&= count.exact;
      counted &&= count.counted;
    }
  };
  for (const s of shared) {
    const cuts = paragraphStartsIn(before, after, s);
    if (!cuts) continue; // no paragraph start inside: the stretch is counted with the change around it
    changed(cuts.first, cuts.first - s.before + s.after);
    fromBefore = cuts.last;
    fromAfter = cuts.last - s.before + s.after;
  }
  changed(before.length, after.length);
  return { tokens, exact, counted };
}

/**
 * The first and last positions of a shared stretch (in `before`) where both texts start a paragraph:
 * a paragraph start whose two preceding characters lie in the stretch too, or the texts' common
 * start or end when the stretch reaches it.
 */
function paragraphStartsIn(before: string, after: string, s: SharedStretch): { first: number; last: number } | undefined {
  const end = s.before + s.length;
  const atStart = s.before === 0 && s.after === 0;
  const atEnd = end === before.length && s.after + s.length === after.length;
  const next = paragraphStartAtOrAfter(before, s.before + 2);
  const previous = paragraphStartAtOrBefore(before, end - 1);
  const innerFirst = next <= end - 1 ? next : undefined;
  const innerLast = previous >= s.before + 2 ? previous : undefined;
  const first = atStart ? 0 : (innerFirst ?? (atEnd ? end : undefined));
  const last = atEnd ? end : (innerLast ?? (atStart ? 0 : undefined));
  return first === undefined || last === undefined ? undefined : { first, last };
}

/** The stretches follow each other, inside both texts. */
function inOrder(shared: readonly SharedStretch[], beforeLength: number, afterLength: number): boolean {
  let before = 0;
  let after = 0;
  for (const s of shared) {
    if (s.length <= 0 || s.before < before || s.after < after || s.before + s.length > beforeLength || s.after + s.length > afterLength) return false;
    before = s.before + s.length;
    after = s.after + s.length;
  }
  return true;
}

/** The last paragraph start at or before `limit` (0, the text's start, when there is none). */
function paragraphStartAtOrBefore(text: string, limit: number): number {
  if (limit < 2) return 0;
  for (let at = text.lastIndexOf('\n\n', limit - 2); at >= 0; at = at === 0 ? -1 : text.lastIndexOf('\n\n', at - 1)) {
    if (isParagraphStartAt(text, at + 2)) return at + 2;
  }
  return 0;
}

/** The first paragraph start at or after `from` (the text's length when there is none). */
function paragraphStartAtOrAfter(text: string, from: number): number {
  for (let at = text.indexOf('\n\n', Math.max(0, from - 2)); at >= 0; at = text.indexOf('\n\n', at + 1)) {
    if (at + 2 >= from && isParagraphStartAt(text, at + 2)) return at + 2;
  }
  return text.length;
}

/**
 * Whether the count of `text` is exactly the counts of its two sides at `position` added: its start,
 * its end, or a paragraph start. A change confined to one side is then measured on that side alone.
 */
export function isTokenBoundary(text: string, position: number): boolean {
  return position === 0 || position === text.length || isParagraphStartAt(text, position);
}

/** Whether `text`, put right after a blank line, starts a paragraph there (by its first character). */
export function opensParagraph(text: string): boolean {
  return text.length > 0 && isParagraphStart(text.charCodeAt(0));
}

/** Where paragraphsOf cuts: after a blank line, on a character that is no newline and starts a paragraph. */
function isParagraphStartAt(text: string, p: number): boolean {
  return p < text.length && text.charCodeAt(p - 1) === 0x0a && text.charCodeAt(p - 2) === 0x0a && text.charCodeAt(p) !== 0x0a && isParagraphStart(text.charCodeAt(p));
}

/** Not whitespace (as the pre-tokenizer's `\s`) and not "/". */
function isParagraphStart(code: number): boolean {
  return code !== 0x2f && !isWhitespace(code);
}

/** Tokens of text known only by its length (transcript messages whose token_count Hermes did not record). */
export function estimateTokensFromChars(chars: number): number {
  return Number.isFinite(chars) && chars > 0 ? Math.ceil(chars / CHARS_PER_TOKEN) : 0;
}

// By model name: every count asks, and a profile uses a handful of models.
const o200kByModel = new Map<string, boolean>();

/** Whether o200k is the model's own tokenizer, so that a count made with it is exact for the model. */
export function countsExactlyFor(model: string | undefined): boolean {
  if (model === undefined) return false;
  let known = o200kByModel.get(model);
  if (known === undefined) {
    const ref = parseModelRef(model);
    known = ref !== undefined && (ref.vendor === undefined || ref.vendor === 'openai') && O200K_MODELS.test(ref.bare);
    if (o200kByModel.size < 1000) o200kByModel.set(model, known);
  }
  return known;
}

/**
 * countTokens, with the tokens of the text before each of `marks` (offsets into `text`) from the
 * same paragraph counts: a parsed prompt's tiers are counted with the whole text instead of each
 * again. A mark that is no paragraph start (isTokenBoundary) gets undefined: count that part apart.
 */
export function countTokensMarked(text: string, marks: readonly number[], model?: string): { readonly whole: TokenCount; readonly before: ReadonlyArray<number | undefined> } {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TOKENIZED_CHARS) return { whole: countTokens(text, model), before: marks.map(() => undefined) };
  try {
    // One pass over the paragraphs, as countTokens makes it, summing up to each paragraph start.
    const parts = paragraphsOf(text);
    const counts = countParagraphs(parts);
    const ends = new Map<number, number>();
    let at = 0;
    let tokens = 0;
    let sliced = false;
    for (let i = 0; i < parts.length; i++) {
      ends.set(at, tokens);
      at += parts[i]!.length;
      tokens += counts[i]!.tokens;
      sliced ||= counts[i]!.sliced;
    }
    ends.set(text.length, tokens);
    const whole = { tokens, exact: !sliced && countsExactlyFor(model), counted: !sliced };
    return { whole, before: marks.map((m) => (sliced ? undefined : ends.get(m))) };
  } catch {
    return { whole: countTokens(text, model), before: marks.map(() => undefined) };
  }
}
