// Which provider a demo model runs on, and how that provider reports prompt caching in Hermes'
// counters (docs/PROMPT-CACHING.md): Anthropic bills and reports cache writes; OpenAI, Gemini and DeepSeek cache
// implicitly and report only reads; a local OpenAI-compatible server caches nothing.
import { newestReleaseTable, toolBlockSize } from '../hermes/cost/toolSchemas';

export function defaultProviderFor(model: string): string {
  if (model.startsWith('claude')) return 'anthropic';
  if (/^(gpt-|o\d)/.test(model)) return 'openai';
  if (model.startsWith('gemini')) return 'gemini';
  if (model.startsWith('deepseek')) return 'deepseek';
  return 'custom';
}

export interface CachingBehaviour {
  readonly caches: boolean;
  readonly reportsCacheWrites: boolean;
}

export function cachingOf(provider: string | undefined, model: string): CachingBehaviour {
  const p = provider ?? defaultProviderFor(model);
  if (p === 'custom' || p === 'local' || p === 'ollama') return { caches: false, reportsCacheWrites: false };
  return { caches: true, reportsCacheWrites: p === 'anthropic' || p === 'claude-code' || p === 'anthropic-oauth' };
}

/** The tool schemas' tokens: tools come first in every request (the newest release's measured sizes, cost/toolSchemas.ts). */
export function toolSchemaTokensEstimate(toolNames: readonly string[]): number {
  return toolBlockSize(newestReleaseTable(), toolNames).tokens;
}

export const CLI_TOOLS = ['terminal', 'read_file', 'write_file', 'patch', 'search_files', 'web_search', 'memory', 'skill_view', 'session_search', 'todo'];
export const GATEWAY_TOOLS = ['web_search', 'memory', 'skill_view', 'session_search', 'send_message'];
export const CRON_TOOLS = ['terminal', 'read_file', 'web_search', 'send_message'];
