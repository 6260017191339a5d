// Claude Sonnet-like prices ($ per million tokens) for arithmetic worked out by hand in the tests.
import type { ModelPrices } from '../../../server/hermes/cost/prices';

export const CLAUDE_LIKE_PRICES: ModelPrices = {
  modelId: 'test-sonnet',
  provider: 'anthropic',
  inputPerMTok: 3,
  cacheReadPerMTok: 0.3,
  cacheWrite5mPerMTok: 3.75,
  cacheWrite1hPerMTok: 6,
  origin: 'override',
  cacheFamily: 'anthropic',
};
