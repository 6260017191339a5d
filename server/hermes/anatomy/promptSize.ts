// What `hermes prompt-size` reports for a stored prompt: the size of each tier, of the skills
// index, of the memory, of the user profile and of the project context, in UTF-8 bytes (and
// tokens), each found by what it carries wherever the prompt's build put it. Hermes also counts
// the tool schemas, which are not part of the prompt text.
import type { BlockKind } from '../model';
import type { PromptAnatomy } from './types';

export interface PromptSizeRow {
  readonly label: string;
  readonly bytes: number;
  readonly tokens: number;
}

export interface PromptSizeReport {
  readonly rows: readonly PromptSizeRow[];
  readonly totalBytes: number;
  readonly totalTokens: number;
  readonly tokensExact: boolean;
  readonly skillsIndexTier: PromptAnatomy['skillsIndex']['tier'];
}

/** `tokensExact`: the session's (its report's), as the counts are exact only for o200k models. */
export function promptSizeReport(anatomy: PromptAnatomy, tokensExact: boolean): PromptSizeReport {
  const tier = (name: string) => anatomy.tiers.find((t) => t.name === name);
  const blockRow = (label: string, kind: BlockKind): PromptSizeRow => {
    const blocks = anatomy.blocks.filter((b) => b.kind === kind);
    return { label, bytes: blocks.reduce((n, b) => n + b.bytes, 0), tokens: blocks.reduce((n, b) => n + b.tokens, 0) };
  };
  const rows: PromptSizeRow[] = [
    ...(['stable', 'context', 'volatile'] as const).map((name) => ({ label: `${name} tier`, bytes: tier(name)?.bytes ?? 0, tokens: tier(name)?.tokens ?? 0 })),
    blockRow('skills index', 'skills-index'),
    blockRow('memory', 'memory'),
    blockRow('user profile', 'user-profile'),
    blockRow('project context', 'project-context'),
    { label: 'total', bytes: anatomy.bytes, tokens: anatomy.tokens },
  ];
  return { rows, totalBytes: anatomy.bytes, totalTokens: anatomy.tokens, tokensExact, skillsIndexTier: anatomy.skillsIndex.tier };
}
