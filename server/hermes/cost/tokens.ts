// Token counts for cost estimates. Offline only: gpt-tokenizer's o200k_base BPE, which is the real
// tokenizer of current OpenAI models and a close estimate for others (Claude, Gemini, Llama… have their
// own vocabularies; their counts are shown as "≈"). Never throws: a count is never worth a crash.
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import toolSchemaData from './tool-schema-tokens.json';
import { parseModelRef } from './modelRef';

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
const LONG_RUN = /\S{1000,}|\s{1000,}/g;
const SLICE = 500;
// Beyond this the estimate is good enough and tokenizing would stall the server.
const MAX_TOKENIZED_CHARS = 2_000_000;
// Characters per token of typical English prose and code, the usual rule of thumb.
const CHARS_PER_TOKEN = 4;

// Treat text such as "<|endoftext|>" in a prompt as plain text instead of rejecting it.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

let encoder: typeof O200k | undefined;

function o200k(): typeof O200k {
  // Loaded on first use: building the BPE tables takes about 300 ms.
  encoder ??= require('gpt-tokenizer/encoding/o200k_base') as typeof O200k;
  return encoder;
}

export function countTokens(text: string, model?: string): TokenCount {
  if (typeof text !== 'string' || text.length === 0) return { tokens: 0, exact: isO200kModel(model) };
  if (text.length > MAX_TOKENIZED_CHARS) return { tokens: estimateTokensFromChars(text.length), exact: false };
  try {
    const { countTokens: count } = o200k();
    let tokens = 0;
    let sliced = false;
    let last = 0;
    for (const run of text.matchAll(LONG_RUN)) {
      const start = run.index ?? 0;
      tokens += count(text.slice(last, start), PLAIN_TEXT);
      for (let offset = 0; offset < run[0].length; offset += SLICE) {
        tokens += count(run[0].slice(offset, offset + SLICE), PLAIN_TEXT);
      }
      last = start + run[0].length;
      sliced = true;
    }
    tokens += count(text.slice(last), PLAIN_TEXT);
    return { tokens, exact: !sliced && isO200kModel(model) };
  } catch {
    return { tokens: estimateTokensFromChars(text.length), exact: false };
  }
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
