// Which of the three breakpoints Hermes marks on a session's route (docs/PROMPT-CACHING.md, read in
// agent/prompt_caching.py and agent/agent_runtime_helpers.py, the same in every build we read):
// Anthropic-style markers go to Claude models (and Kimi, Qwen on Alibaba routes, which take the same
// markers); on the direct Anthropic API (`api.anthropic.com`, `anthropic_messages`) the last tool and
// the stable tier are marked (`build_prompt_cache_plan` with `direct_native_tool_cache`), elsewhere the
// stable tier and the whole system prompt (`apply_anthropic_cache_control`). Other providers mark
// nothing and cache the longest prefix they see themselves (OpenAI, DeepSeek, Gemini's implicit cache).
import type { Breakpoint, CacheLayout } from './types';

/** The layout for a session's model and provider; `ttlSeconds` 0: caching is off in config.yaml. */
export function cacheLayoutOf(model: string, provider: string, ttlSeconds: number): CacheLayout {
  if (ttlSeconds <= 0) return 'off';
  const m = model.toLowerCase();
  const p = provider.toLowerCase();
  const marked = m.includes('claude') || m.includes('kimi') || m.includes('moonshot') || (m.includes('qwen') && ALIBABA_ROUTES.has(p));
  if (!marked) return 'implicit';
  // The lens does not see the base URL: provider `anthropic` is taken for Hermes' default, the direct API.
  return p === 'anthropic' ? 'tools-and-stable' : 'stable-and-system';
}

// agent/prompt_caching.py ALIBABA_FAMILY_PROVIDERS (7339f5f1).
const ALIBABA_ROUTES = new Set(['opencode', 'opencode-zen', 'opencode-go', 'alibaba']);

/** Whether Hermes marks `breakpoint` in `layout`. */
export function markedAt(layout: CacheLayout, breakpoint: Breakpoint): 'yes' | 'no' | 'implicit' | 'off' {
  if (layout === 'off' || layout === 'implicit') return layout;
  if (breakpoint === 'stable') return 'yes';
  return (breakpoint === 'tools') === (layout === 'tools-and-stable') ? 'yes' : 'no';
}
