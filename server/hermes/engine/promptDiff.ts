// What a refresh would change in a session's prompt, section by section (the CLI's `diff` and the
// editor's diff view both show this).
import { structuredPatch } from 'diff';
import { parsePrompt } from '../anatomy/parsePrompt';
import type { PromptAnatomy, PromptBlock } from '../anatomy/types';
import { rebuildPrompt } from '../sources/promptBuilder';
import type { RenderedSources } from '../sources/types';

export interface SectionDiff {
  /** e.g. `identity`, `project-context`, `skills-index`, `memory`. */
  readonly section: string;
  readonly change: 'added' | 'removed' | 'changed';
  /** Unified-diff hunks of the section's lines. */
  readonly hunks: readonly string[];
}

export interface PromptDiff {
  readonly before: string;
  readonly after: string;
  readonly sections: readonly SectionDiff[];
}

export function diffPrompt(stored: PromptAnatomy, sources: RenderedSources): PromptDiff {
  const after = rebuildPrompt(stored.text, sources);
  const rebuilt = parsePrompt(after);
  const sections: SectionDiff[] = [];
  const beforeBlocks = sectionTexts(stored.blocks);
  const afterBlocks = sectionTexts(rebuilt.blocks);
  for (const name of new Set([...beforeBlocks.keys(), ...afterBlocks.keys()])) {
    const a = beforeBlocks.get(name);
    const b = afterBlocks.get(name);
    if (a === b) continue;
    const change = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    const patch = structuredPatch(name, name, a ?? '', b ?? '', '', '', { context: 2 });
    const hunks = patch.hunks.map((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines].join('\n'));
    sections.push({ section: name, change, hunks });
  }
  return { before: stored.text, after, sections };
}

/** Blocks keyed by kind (and label), several of one kind joined in prompt order. */
function sectionTexts(blocks: readonly PromptBlock[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const block of blocks) {
    const key = block.label ? `${block.kind}:${block.label}` : block.kind;
    map.set(key, map.has(key) ? `${map.get(key)}\n\n${block.text}` : block.text);
  }
  return map;
}
