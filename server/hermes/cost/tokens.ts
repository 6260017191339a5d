// Token counts for cost estimates. Offline only: gpt-tokenizer's o200k_base BPE, which is the real
// tokenizer of current OpenAI models and a close estimate for others (Claude, Gemini, Llama… have their
// own vocabularies; their counts are shown as "≈"). Never throws: a count is never worth a crash.
import type * as O200k from './o200kEncoder';
import toolSchemaData from './tool-schema-tokens.json';
import { parseModelRef } from './modelRef';
import { TokenCountStore } from './tokenCountStore';

export interface TokenCount {
  readonly tokens: number;
  /** True only when the text was counted with the model's own tokenizer (OpenAI o200k models). */
  readonly exact: boolean;
}

// OpenAI models tokenized with o200k_base (gpt-oss uses o200k_harmony: the same merges plus chat-format
// special tokens, so plain text counts the same). GPT-4 / GPT-3.5 use cl100k_base and are not exact here.
const O200K_MODELS = /^(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-[6-9]|gpt-oss|gpt-realtime|gpt-audio|o[1-9](?:-|$)|chatgpt-4o|codex-mini)/;

// BPE cost grows with the square of a pre-token's length, and a run without spaces (a base64 blob, a
// line of `=`) is one pre-token: 30 KB of letters takes most of a second, 200 KB over half a minute.
// Such runs are counted in slices; the count is then off by at most a token per slice and not "exact".
const LONG_RUN_CHARS = 1000;
const SLICE = 500;
// Beyond this the estimate is good enough and tokenizing would stall the server.
const MAX_TOKENIZED_CHARS = 2_000_000;
// Characters per token of typical English prose and code, the usual rule of thumb.
const CHARS_PER_TOKEN = 4;

// Treat text such as "<|endoftext|>" in a prompt as plain text instead of rejecting it.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

let encoder: typeof O200k | undefined;
let disk: TokenCountStore | null | undefined;

/** Counts remembered across processes (see tokenCountStore.ts); null when turned off. */
function diskStore(): TokenCountStore | undefined {
  if (disk === undefined) {
    let version = 'unknown';
    try {
      version = (require('gpt-tokenizer/package.json') as { version: string }).version;
    } catch {
      // the version only keys the file
    }
    disk = TokenCountStore.forProcess(`o200k_base/gpt-tokenizer@${version}`) ?? null;
  }
  return disk ?? undefined;
}

function o200k(): typeof O200k {
  // Loaded on first use: building the BPE tables takes about 300 ms and 70 MB. A separate file next
  // to this one, in out/ as in dist/ (scripts/build.mjs keeps this require out of the bundles).
  encoder ??= require('./o200kEncoder.js') as typeof O200k;
  return encoder;
}

export function countTokens(text: string, model?: string): TokenCount {
  if (typeof text !== 'string' || text.length === 0) return { tokens: 0, exact: isO200kModel(model) };
  if (text.length > MAX_TOKENIZED_CHARS) return { tokens: estimateTokensFromChars(text.length), exact: false };
  try {
    let tokens = 0;
    let sliced = false;
    let start = 0;
    for (const end of paragraphEnds(text)) {
      const part = countParagraph(start === 0 && end === text.length ? text : text.slice(start, end));
      tokens += part.tokens;
      sliced ||= part.sliced;
      start = end;
    }
    return { tokens, exact: !sliced && isO200kModel(model) };
  } catch {
    return { tokens: estimateTokensFromChars(text.length), exact: false };
  }
}

// Prompts are counted paragraph by paragraph, and each paragraph's count is remembered: thousands of
// sessions share a few hundred stored prompts, which share most of their paragraphs (SOUL.md, the
// skills index, memory), and a rebuilt prompt differs from the stored one in a block or two. The sum
// is exactly the count of the whole text: o200k splits text into pre-tokens before BPE, and a
// pre-token never spans a position that follows a newline and holds a character other than
// whitespace or "/" (only the `[\r\n/]*` tail of a punctuation run and whitespace runs can contain a
// newline, and neither continues into such a character). Paragraph starts after a blank line are
// such positions; a long run (below) never spans one either, since it is all whitespace or none.
interface ParagraphCount {
  readonly tokens: number;
  /** A long run was counted in slices: not exact. */
  readonly sliced: boolean;
}

const remembered = new Map<string, ParagraphCount>();
let rememberedChars = 0;
/** About 32 MB of remembered paragraph text at most; the older half goes when it is full. */
const MAX_REMEMBERED_CHARS = 16_000_000;

function countParagraph(text: string): ParagraphCount {
  const hit = remembered.get(text);
  if (hit) return hit;
  const store = diskStore();
  const key = store ? TokenCountStore.keyOf(text) : '';
  let counted = store?.get(key);
  if (!counted) {
    counted = countUncached(text);
    store?.set(key, counted);
  }
  if (rememberedChars + text.length > MAX_REMEMBERED_CHARS) forgetOlderHalf();
  // Keep a flat copy as the key: a slice would keep the whole prompt it was cut from alive.
  remembered.set(text.length > 64 ? (' ' + text).slice(1) : text, counted);
  rememberedChars += text.length;
  return counted;
}

function forgetOlderHalf(): void {
  let drop = Math.ceil(remembered.size / 2);
  for (const key of remembered.keys()) {
    if (drop-- <= 0) break;
    remembered.delete(key);
    rememberedChars -= key.length;
  }
}

function countUncached(text: string): ParagraphCount {
  const { countTokens: count } = o200k();
  let tokens = 0;
  let sliced = false;
  let last = 0;
  for (const [start, end] of longRuns(text)) {
    tokens += count(text.slice(last, start), PLAIN_TEXT);
    for (let offset = start; offset < end; offset += SLICE) tokens += count(text.slice(offset, Math.min(end, offset + SLICE)), PLAIN_TEXT);
    last = end;
    sliced = true;
  }
  tokens += count(last === 0 ? text : text.slice(last), PLAIN_TEXT);
  return { tokens, sliced };
}

/** Where each paragraph ends (the last one at `text.length`): after blank lines, before a safe character. */
function paragraphEnds(text: string): number[] {
  const ends: number[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf('\n\n', from);
    if (at < 0) break;
    let p = at + 2;
    while (text.charCodeAt(p) === 0x0a) p++;
    if (p < text.length && isParagraphStart(text.charCodeAt(p))) ends.push(p);
    from = p;
  }
  ends.push(text.length);
  return ends;
}

/** Not whitespace (as the pre-tokenizer's `\s`) and not "/". */
function isParagraphStart(code: number): boolean {
  return code !== 0x2f && !isWhitespace(code);
}

// `\s` of JavaScript regular expressions (the o200k pre-tokenizer's class).
function isWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Maximal runs of at least LONG_RUN_CHARS UTF-16 units that are all whitespace or all not (what
 * `/\S{1000,}|\s{1000,}/g` finds), by a single scan.
 */
function longRuns(text: string): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = 0;
  let space = text.length > 0 && isWhitespace(text.charCodeAt(0));
  for (let i = 1; i <= text.length; i++) {
    const s = i < text.length ? isWhitespace(text.charCodeAt(i)) : !space;
    if (s === space) continue;
    if (i - start >= LONG_RUN_CHARS) runs.push([start, i]);
    start = i;
    space = s;
  }
  return runs;
}

/** Tokens of text known only by its length (transcript messages whose token_count Hermes did not record). */
export function estimateTokensFromChars(chars: number): number {
  return Number.isFinite(chars) && chars > 0 ? Math.ceil(chars / CHARS_PER_TOKEN) : 0;
}

interface ToolSchemaData {
  readonly averageTokensPerTool: number;
  readonly tokensByTool: Readonly<Record<string, number>>;
  readonly tokensByToolPrefix: Readonly<Record<string, number>>;
}

// Typed against the interface so tsc checks the data file; its origin is documented in the file.
const TOOL_SCHEMAS: ToolSchemaData = toolSchemaData;

/**
 * Estimated tokens of the tool schemas sent before the system prompt (the start of the cached prefix).
 * Hermes stores only the tool names, so each tool counts its measured size or the measured average.
 */
export function toolSchemaTokens(toolNames: readonly string[]): number {
  let total = 0;
  for (const name of new Set(toolNames.map((tool) => tool.trim()).filter((tool) => tool.length > 0))) {
    total += toolTokens(name);
  }
  return total;
}

function toolTokens(name: string): number {
  if (Object.prototype.hasOwnProperty.call(TOOL_SCHEMAS.tokensByTool, name)) return TOOL_SCHEMAS.tokensByTool[name];
  for (const [prefix, tokens] of Object.entries(TOOL_SCHEMAS.tokensByToolPrefix)) {
    if (name.startsWith(prefix)) return tokens;
  }
  return TOOL_SCHEMAS.averageTokensPerTool;
}

function isO200kModel(model: string | undefined): boolean {
  const ref = parseModelRef(model);
  if (!ref) return false;
  if (ref.vendor !== undefined && ref.vendor !== 'openai') return false;
  return O200K_MODELS.test(ref.bare);
}
