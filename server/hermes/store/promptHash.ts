// Hermes' key of a prompt stored out of line (v25 on): the sha256 hex of its UTF-8 text, the
// `system_prompts.hash` (docs/HERMES-FORMATS.md §7). The lens gives an inline (pre-v25) prompt the same identity, so
// sessions holding the same text share one parse and one judgement whichever layout stored it.
import { createHash } from 'node:crypto';

/** Of a text, or of its UTF-8 bytes as SQLite holds them (the same hash). */
export function promptHash(text: string | Uint8Array): string {
  return (typeof text === 'string' ? createHash('sha256').update(text, 'utf8') : createHash('sha256').update(text)).digest('hex');
}
