// What prefix families need of a stored prompt, without its text: the stable tier as Hermes marks
// it for the provider's cache (agent/prompt_caching.py: the request's first system part, the
// `static_system_prefix`), as a size and a digest, and the digest of each of its blocks, so that
// where two prompts' stable tiers first differ is known to the block without reading either
// (docs/PROMPT-CACHING.md, "Who shares a cache entry"). Digests, never text: these are kept on disk.
import { createHash } from 'node:crypto';
import type { BlockKind } from '../model';
import type { PromptAnatomy } from './types';

export interface StableBlockPrint {
  readonly kind: BlockKind;
  /** UTF-8 bytes from the prompt's start to the block's end. */
  readonly end: number;
  /** Digest of the block's text. */
  readonly digest: string;
}

export interface PrefixPrint {
  /** UTF-8 bytes of the stable tier without the blank line that joins it to the next tier: Hermes' static prefix. */
  readonly stableBytes: number;
  /** Its tokens (o200k; counted with the blank line after it, at most one token more). */
  readonly stableTokens: number;
  /** Digest of the stable tier's text (Hermes' static prefix). */
  readonly stableDigest: string;
  /** The stable tier's blocks in order. */
  readonly stableBlocks: readonly StableBlockPrint[];
  /** UTF-8 bytes of the whole prompt. */
  readonly bytes: number;
}

const BLANK = '\n\n';

/** The stable tier of a stored prompt as Hermes sends it as the static prefix (without the joining blank line). */
export function stableTierText(anatomy: Pick<PromptAnatomy, 'text' | 'tiers'>): string {
  const end = anatomy.tiers.find((t) => t.name === 'stable')?.end ?? 0;
  const text = anatomy.text.slice(0, end);
  return text.endsWith(BLANK) && end < anatomy.text.length ? text.slice(0, -BLANK.length) : text;
}

/**
 * The print of a parsed prompt: its stable blocks' sizes and digests, and the stable tier's digest
 * made of those and the text between them rather than of the tier's text again.
 */
export function prefixPrintOf(anatomy: PromptAnatomy): PrefixPrint {
  const text = anatomy.text;
  const stableEnd = stableTierText(anatomy).length;
  const stableBlocks: StableBlockPrint[] = [];
  const parts: string[] = [];
  let at = 0;
  let bytes = 0;
  for (const block of anatomy.blocks) {
    if (block.tier !== 'stable' || block.end > stableEnd) break;
    if (block.start > at) {
      const gap = text.slice(at, block.start);
      bytes += Buffer.byteLength(gap, 'utf8');
      parts.push(gap);
    }
    const digest = digestOf(block.text);
    bytes += Buffer.byteLength(block.text, 'utf8');
    at = block.end;
    stableBlocks.push({ kind: block.kind, end: bytes, digest });
    parts.push(`\u0000${digest}\u0000`);
  }
  // Text of the stable tier after its last block (none in a prompt of Hermes' own: blocks are stripped and joined by blank lines).
  if (stableEnd > at) {
    const rest = text.slice(at, stableEnd);
    parts.push(rest);
    bytes += Buffer.byteLength(rest, 'utf8');
  }
  const tier = anatomy.tiers.find((t) => t.name === 'stable');
  return { stableBytes: bytes, stableTokens: tier ? tier.tokens : 0, stableDigest: digestOf(parts.join('')), stableBlocks, bytes: anatomy.bytes };
}

/** 96 bits of SHA-256, base64url: a family's key must not merge two texts, and no text is kept. */
export function digestOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 16);
}
