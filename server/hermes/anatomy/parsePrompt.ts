// The anatomy of a stored system prompt: tiers and blocks with their sizes, the identity, the
// project sections, the skills index lines and the trailer values. Never throws: arbitrary text is
// at worst one `other` block in the stable tier.
import { countTokens, countTokensMarked } from '../cost/tokens';
import type { TierName } from '../model';
import { RUNTIME_HEADING } from '../literals/containers';
import { ownCopy } from '../text/ownCopy';
import { pyStrip } from '../text/pyText';
import { locateBlocks, locateBlocksWithHint, type Located } from './locate';
import { projectSections, skillIndexLines } from './sections';
import type { PromptAnatomy, PromptBlock, TierSize } from './types';

export interface ParseOptions {
  /** The SOUL.md block the prompt is expected to open with (identifies where the identity ends). */
  readonly identityHint?: string;
  /** `agent.system_prompt`, to recognise the caller's message in the context tier. */
  readonly callerSystemMessage?: string;
  /** The text's tokens as counted before (countTokens of the whole text), when they are known. */
  readonly tokens?: { readonly tokens: number; readonly counted: boolean };
}

export function parsePrompt(text: string, options: ParseOptions = {}): PromptAnatomy {
  const prompt = typeof text === 'string' ? text : '';
  try {
    // Without a caller's message the blocks are those a rebuild finds (locateBlocksWithHint), which
    // keeps hint-less results: judging a prompt stale then does not locate its blocks twice.
    const located = options.callerSystemMessage ? locateBlocks(prompt, options) : locateBlocksWithHint(prompt, options.identityHint);
    return anatomyOf(prompt, located, options.tokens);
  } catch {
    // A parser bug must not take the lens down: show the prompt as one unknown block.
    return anatomyOf(prompt, wholeTextAsOther(prompt));
  }
}

function wholeTextAsOther(text: string): Located {
  const blocks = text ? [{ kind: 'other' as const, start: 0, end: text.length, tier: 'stable' as const }] : [];
  return { blocks, contextStart: text.length, volatileStart: text.length, skillsTier: undefined, runtimeStart: text.length, firstMarker: text.length, anyMarker: false };
}

// Counted for no model in particular: whether a count is exact depends on the model of the session
// asking (countsExactlyFor), and every session holding the text shares this anatomy.
function anatomyOf(text: string, located: Located, known?: ParseOptions['tokens']): PromptAnatomy {
  // Counting the whole text gives the tiers' counts too (they start at paragraph starts); a count known from before does not.
  const marked = known ? undefined : countTokensMarked(text, [located.contextStart, located.volatileStart]);
  const whole = known ?? marked!.whole;
  const [before1, before2] = marked?.before ?? [];
  const tierTokens = [before1, before1 !== undefined && before2 !== undefined ? before2 - before1 : undefined, before2 !== undefined ? whole.tokens - before2 : undefined];
  const bounds: Array<[TierName, number, number]> = [
    ['stable', 0, located.contextStart],
    ['context', located.contextStart, located.volatileStart],
    ['volatile', located.volatileStart, text.length],
  ];
  // Tiers are contiguous and cover the text: a separating blank line counts with the tier before it.
  const tiers: TierSize[] = bounds.map(([name, start, end], i) => {
    const slice = text.slice(start, end);
    const known = tierTokens[i];
    const tokens = known === undefined || !whole.counted ? tokensOf(slice) : () => known;
    const bytes = bytesOf(slice);
    return { name, start, end, get bytes() { return bytes(); }, get tokens() { return tokens(); } };
  });
  const blocks: PromptBlock[] = located.blocks.map((b) => {
    const slice = text.slice(b.start, b.end);
    const tokens = tokensOf(slice);
    const bytes = bytesOf(slice);
    return { kind: b.kind, tier: b.tier, start: b.start, end: b.end, text: slice, get bytes() { return bytes(); }, get tokens() { return tokens(); }, ...(b.label !== undefined ? { label: b.label } : {}) };
  });
  const textOf = (kind: PromptBlock['kind']) => blocks.find((b) => b.kind === kind)?.text ?? '';
  const skills = blocks.find((b) => b.kind === 'skills-index');
  const project = blocks.find((b) => b.kind === 'project-context');
  const index = skills ? skillIndexLines(skills.text) : { lines: [], categories: new Map<string, string>() };
  const beforeRuntime = text.slice(0, located.runtimeStart);
  const bytes = bytesOf(text);
  return {
    text,
    get bytes() {
      return bytes();
    },
    tokens: whole.tokens,
    // A part of the text holds no run longer than the text's own (countWithTokenizer.ts): counted
    // whole, every part is counted too.
    tokensCounted: whole.counted,
    tiers,
    blocks,
    identity: textOf('identity'),
    identityBounds: { firstMarker: located.firstMarker, anyMarker: located.anyMarker },
    projectSections: project ? projectSections(text, project.start, project.end) : [],
    skillsIndex: { text: skills?.text ?? '', tier: skills ? located.skillsTier : undefined, lines: index.lines, categories: index.categories },
    memoryBlock: textOf('memory'),
    userBlock: textOf('user-profile'),
    model: lastLineValue(beforeRuntime, 'Model'),
    provider: lastLineValue(beforeRuntime, 'Provider'),
    platform: lastLineValue(beforeRuntime, 'Platform'),
    conversationStarted: lastLineValue(beforeRuntime, 'Conversation started'),
  };
}

/**
 * The tokens of a tier or block, counted when first asked: only the prompt's views show them (a
 * verdict needs the whole prompt's count), and their paragraphs are not the whole prompt's, so
 * counting them at once made a first status count most of every prompt three times.
 */
function tokensOf(slice: string): () => number {
  let tokens: number | undefined;
  return () => (tokens ??= countTokens(slice).tokens);
}

/** The UTF-8 size of a text, worked out when first asked: as with tokens, only the views show sizes. */
function bytesOf(slice: string): () => number {
  let bytes: number | undefined;
  return () => (bytes ??= Buffer.byteLength(slice, 'utf8'));
}

/** `SW.identity_line_value`: the last line starting with `Label:`, outside the runtime block. */
function lastLineValue(text: string, label: string): string | undefined {
  const prefix = `${label}:`;
  // From the end, line starts only (the text is a whole prompt: splitting it into lines per label costs).
  for (let at = text.length; at >= 0; ) {
    const found = text.lastIndexOf(prefix, at);
    if (found < 0) return undefined;
    if (found === 0 || text.charCodeAt(found - 1) === 0x0a) {
      const end = text.indexOf('\n', found);
      const line = end < 0 ? text.slice(found) : text.slice(found, end);
      if (!line.startsWith(RUNTIME_HEADING)) return ownCopy(pyStrip(line.slice(prefix.length)));
    }
    at = found - 1;
  }
  return undefined;
}
