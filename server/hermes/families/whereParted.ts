// Where two members' prefixes first differ: in the tools array (which tools, and where that tool's
// JSON starts when the build's schemas were measured), else in the system prompt (the byte, its
// tier, its block). Read from the two stored prompts; nothing of their text is kept.
import type { PromptAnatomy, PromptBlock } from '../anatomy/types';
import { stableTierText } from '../anatomy/prefixPrint';
import type { TierName } from '../model';
import { commonLength } from './choosePairs';
import type { PrefixMember } from './types';

export interface ToolsDifference {
  readonly kind: 'tools';
  /** Bytes into the tools array where the first differing tool starts (or where the shorter array ends); undefined when unmeasured. */
  readonly offset: number | undefined;
  /** The byte itself: one array ends where the other goes on. Otherwise the difference lies inside the tool at `offset`. */
  readonly exact: boolean;
  /** Tools only one side carries, and tools both carry whose schemas differ. */
  readonly onlyA: readonly string[];
  readonly onlyB: readonly string[];
  readonly differing: readonly string[];
}

export interface SystemDifference {
  readonly kind: 'system';
  /** UTF-8 bytes into the system prompt. */
  readonly offset: number;
  /** UTF-16 units into A's prompt. */
  readonly at: number;
  readonly tier: TierName;
  /** A's block there (undefined: between blocks, or past A's end). */
  readonly block: PromptBlock | undefined;
  /** Whether both stable tiers are byte-identical (the difference lies after them). */
  readonly stableEqual: boolean;
}

export function toolsDifference(a: PrefixMember, b: PrefixMember): ToolsDifference | undefined {
  if (a.tools.digest === b.tools.digest) return undefined;
  const i = commonLength(a.tools.keys, b.tools.keys);
  const namesA = new Set(a.tools.names);
  const namesB = new Set(b.tools.names);
  const keyOf = (m: PrefixMember) => new Map(m.tools.names.map((n, k) => [n, m.tools.keys[k]]));
  const keysA = keyOf(a);
  const keysB = keyOf(b);
  const ended = i === a.tools.keys.length || i === b.tools.keys.length;
  const shorter = i === a.tools.keys.length ? a : b;
  const offset = ended ? (shorter.tools.bytes === undefined ? undefined : shorter.tools.bytes - 1) : a.tools.starts?.[i];
  return {
    kind: 'tools',
    offset,
    exact: ended,
    onlyA: a.tools.names.filter((n) => !namesB.has(n)),
    onlyB: b.tools.names.filter((n) => !namesA.has(n)),
    differing: a.tools.names.filter((n) => namesB.has(n) && keysA.get(n) !== keysB.get(n)),
  };
}

/** Where two stored prompts first differ; undefined when they are the same text. */
export function systemDifference(a: PromptAnatomy, b: PromptAnatomy): SystemDifference | undefined {
  const x = a.text;
  const y = b.text;
  let at = 0;
  const n = Math.min(x.length, y.length);
  while (at < n && x.charCodeAt(at) === y.charCodeAt(at)) at++;
  if (at === x.length && at === y.length) return undefined;
  // A surrogate pair split by the difference counts from its start.
  if (at > 0 && isHighSurrogate(x.charCodeAt(at - 1))) at--;
  const tier = a.tiers.find((t) => t.start <= at && at < t.end)?.name ?? a.tiers[a.tiers.length - 1]?.name ?? 'stable';
  // In the blank line between two blocks: the block before it, which the other prompt goes on with.
  const block = a.blocks.find((k) => k.start <= at && at < k.end) ?? [...a.blocks].reverse().find((k) => k.end <= at);
  return { kind: 'system', offset: Buffer.byteLength(x.slice(0, at), 'utf8'), at, tier, block, stableEqual: stableTierText(a) === stableTierText(b) };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
