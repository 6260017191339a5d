// Synthetic transcripts and the usage counters Hermes would have recorded for them. The counters
// follow docs/HERMES-HOMES.md and docs/PROMPT-CACHING.md: every assistant message is one API call; its prompt is the tool schemas +
// system prompt + the live messages before it; `input_tokens` counts only the uncached part, so a
// request's prompt = input + cache_read + cache_write.
import { encodeMessageContent } from '../hermes/store/codec';
import type { Rng } from './prng';

export type MessageRole = 'user' | 'assistant' | 'tool' | 'system';

export interface MessageSpec {
  readonly role: MessageRole;
  /** Text, or a list/dict that Hermes stores as `\x00json:` + JSON. */
  readonly content: string | readonly unknown[] | Readonly<Record<string, unknown>>;
  /** Hermes' own count; omitted = estimated from the text; null = left NULL (Hermes did not count it). */
  readonly tokenCount?: number | null;
  readonly timestamp?: number;
  /** In the live transcript (default true). */
  readonly active?: boolean;
  /** Folded into a summary by in-place compaction. */
  readonly compacted?: boolean;
  readonly compressedSummary?: boolean;
  readonly toolCalls?: readonly unknown[];
  readonly toolName?: string;
  readonly toolCallId?: string;
}

/** A message as it goes into the `messages` table. */
export interface StoredMessage {
  readonly role: MessageRole;
  readonly content: string;
  readonly toolCalls: string | null;
  readonly toolName: string | null;
  readonly toolCallId: string | null;
  readonly timestamp: number;
  readonly tokenCount: number | null;
  readonly active: boolean;
  readonly compacted: boolean;
  readonly compressedSummary: boolean;
  readonly finishReason: string | null;
}

export interface UsageCounters {
  readonly messageCount: number;
  readonly toolCallCount: number;
  readonly apiCallCount: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly reasoningTokens: number;
}

export const ZERO_USAGE: UsageCounters = {
  messageCount: 0,
  toolCallCount: 0,
  apiCallCount: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};

/** A rough chars→tokens estimate (about 4 characters per token) for synthetic counts. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

const ASKS = [
  'Can you look at why the nightly export job is slow?',
  'Summarise the open pull requests and flag anything risky.',
  'Write a migration that adds an index on orders.created_at.',
  'Draft a reply to the customer about the delayed shipment.',
  'What changed in the deploy pipeline last week?',
  'Refactor the retry helper so it uses jittered backoff.',
  'Check the error budget for the payments service.',
  'Translate the release notes into German.',
  'Plan the steps to rotate the staging database credentials.',
  'Find the flaky test in the checkout suite and explain it.',
];
const ANSWERS = [
  'I checked the logs: the slow part is the full-table scan in the second query. Adding a covering index fixes it.',
  'Three pull requests are open; the one touching auth middleware needs a second reviewer before merge.',
  'Done. The migration creates the index concurrently so writes are not blocked.',
  'Here is a short, friendly draft that apologises and gives the new delivery date.',
  'Two changes landed: the cache step moved earlier and the integration tests now run in parallel.',
  'The helper now waits base × 2^attempt plus up to 30% random jitter, capped at 20 seconds.',
  'The payments service has used 38% of this month’s error budget; no action is needed yet.',
  'Übersetzt: „Diese Version behebt drei Fehler und beschleunigt den Export.“',
  'First create the new credential, roll it to the app, verify, then revoke the old one.',
  'The test depends on wall-clock time; freezing the clock makes it deterministic.',
];
const TOOLS = [
  { name: 'terminal', args: { command: 'git log --oneline -5' }, result: 'a1b2c3d fix export\n9f8e7d6 bump deps' },
  { name: 'read_file', args: { path: 'src/jobs/export.ts' }, result: 'export async function runExport() { /* … */ }' },
  { name: 'search_files', args: { pattern: 'retry' }, result: 'src/net/retry.ts:12: export function retry(' },
  { name: 'web_search', args: { query: 'postgres create index concurrently' }, result: '1. PostgreSQL docs: CREATE INDEX' },
];

/**
 * `count` live messages of a plausible conversation (user → [assistant tool call → tool] →
 * assistant), preceded by `compacted` messages that in-place compaction folded away (inactive)
 * and a summary message that replaced them. Some user turns are stored as `\x00json:` lists.
 */
export function synthesizeMessages(rng: Rng, count: number, options: { compacted?: number } = {}): MessageSpec[] {
  const folded = options.compacted ?? 0;
  const out: MessageSpec[] = [];
  const conversation = (n: number, flags: { active: boolean; compacted: boolean }): MessageSpec[] => {
    const list: MessageSpec[] = [];
    while (list.length < n) {
      const turn = rng.int(0, ASKS.length - 1);
      const ask = ASKS[turn] as string;
      list.push({ role: 'user', content: rng.chance(0.25) ? [{ type: 'text', text: ask }] : ask, ...flags });
      if (rng.chance(0.4)) {
        const tool = rng.pick(TOOLS);
        const callId = `call_${rng.hex(12)}`;
        const call = { id: callId, type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.args) } };
        list.push({ role: 'assistant', content: '', toolCalls: [call], ...flags });
        list.push({ role: 'tool', content: tool.result, toolName: tool.name, toolCallId: callId, ...flags });
      }
      list.push({ role: 'assistant', content: ANSWERS[turn] as string, ...flags });
    }
    return list.slice(0, n);
  };
  if (folded > 0) {
    out.push(...conversation(folded, { active: false, compacted: true }));
    if (count > 0) {
      out.push({
        role: 'user',
        content: '[CONTEXT COMPACTION] Earlier turns were summarised: the user asked for help with the export job and the deploy pipeline; both were resolved.',
        compressedSummary: true,
        active: true,
        compacted: false,
      });
    }
  }
  out.push(...conversation(Math.max(0, count - (folded > 0 ? 1 : 0)), { active: true, compacted: false }));
  return out;
}

/** Encodes messages for the table and spreads timestamps from `startedAt` to `lastActivityAt`. */
export function toStoredMessages(specs: readonly MessageSpec[], startedAt: number, lastActivityAt: number): StoredMessage[] {
  const span = Math.max(0, lastActivityAt - startedAt);
  return specs.map((m, i) => {
    const content = encodeMessageContent(m.content);
    const toolCalls = m.toolCalls ? JSON.stringify(m.toolCalls) : null;
    const fraction = specs.length <= 1 ? 1 : i / (specs.length - 1);
    const timestamp = m.timestamp ?? round3(startedAt + span * fraction);
    const tokenCount = m.tokenCount === null ? null : (m.tokenCount ?? estimateTokens(content + (toolCalls ?? '')));
    return {
      role: m.role,
      content,
      toolCalls,
      toolName: m.toolName ?? null,
      toolCallId: m.toolCallId ?? null,
      timestamp,
      tokenCount,
      active: m.active ?? true,
      compacted: m.compacted ?? false,
      compressedSummary: m.compressedSummary ?? false,
      finishReason: m.role === 'assistant' ? (m.toolCalls ? 'tool_calls' : 'stop') : null,
    };
  });
}

export interface UsageContext {
  /** Tokens of the tool schemas + system prompt: the fixed head of every request. */
  readonly headTokens: number;
  /** Tokens of live messages already in the transcript before `messages` (for appends). */
  readonly priorTranscriptTokens?: number;
  /** Providers with a write premium report cache writes (Anthropic); the others only reads. */
  readonly reportsCacheWrites: boolean;
  /** A local model without prompt caching: everything is plain input. */
  readonly caches?: boolean;
  /** The cached prefix is gone (the system prompt was rebuilt with other bytes): the first call writes it all again. */
  readonly cacheMiss?: boolean;
}

/** The counters Hermes adds for `messages` (one API call per assistant message). */
export function usageFor(messages: readonly StoredMessage[], ctx: UsageContext): UsageCounters {
  const caches = ctx.caches ?? true;
  let transcript = ctx.priorTranscriptTokens ?? 0;
  // What the provider has cached from the previous call (an append assumes a warm cache).
  let cached = transcript > 0 && !ctx.cacheMiss ? ctx.headTokens + transcript : 0;
  let sinceLastCall = 0;
  const usage: { -readonly [K in keyof UsageCounters]: number } = { ...ZERO_USAGE, messageCount: messages.length };
  for (const m of messages) {
    const tokens = m.tokenCount ?? 0;
    if (m.role === 'assistant') {
      const prompt = ctx.headTokens + transcript;
      usage.apiCallCount += 1;
      usage.outputTokens += tokens;
      if (m.toolCalls) usage.toolCallCount += 1;
      if (!caches) {
        usage.inputTokens += prompt;
      } else {
        const read = Math.min(cached, prompt);
        const fresh = prompt - read;
        const uncached = Math.min(sinceLastCall, fresh);
        usage.cacheReadTokens += read;
        if (ctx.reportsCacheWrites) {
          usage.cacheWriteTokens += fresh - uncached;
          usage.inputTokens += uncached;
        } else {
          usage.inputTokens += fresh;
        }
      }
      cached = prompt + tokens;
      sinceLastCall = 0;
    } else {
      sinceLastCall += tokens;
    }
    if (m.compressedSummary) {
      // Compaction rewrote the transcript: the folded messages (sent by the calls before it) are
      // replaced by the summary, and the provider cache starts over.
      transcript = tokens;
      cached = 0;
      continue;
    }
    transcript += tokens;
  }
  return usage;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
