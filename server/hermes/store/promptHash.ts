// Hermes' key of a prompt stored out of line (v25 on): the sha256 hex of its UTF-8 text, the
// `system_prompts.hash` of FACTS §2. The lens gives an inline (pre-v25) prompt the same identity, so
// sessions holding the same text share one parse and one judgement whichever layout stored it.
import { createHash } from 'node:crypto';

export function promptHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
