// While SOUL.md or a memory file is edited, the tokens of the block its text would put into the
// prompt are counted at each change, before its diagnostics go out: a save then finds the count made
// (judgement.ts regionTokens remembers it by text), where it otherwise waited for the token-count
// helper's round trip in the middle of the re-evaluation (docs/BENCHMARKS.md). VS Code asks the save
// preview while a source is dirty, which counts the same; other clients ask nothing before saving.
// Only text no cache knows goes to the helper: a keystroke changes one paragraph.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { regionTokens } from '../hermes/engine/judgement';
import { analyzeMemoryText } from '../hermes/sources/memory';
import { analyzeSoulText } from '../hermes/sources/soul';
import type { HermesModel } from '../workspace/hermesModel';
import { MAX_DIAGNOSED_CHARS, MAX_DIAGNOSED_MEMORY_CHARS } from './features/diagnostics';
import { uriToPath } from './uri';

/** The blank line that follows SOUL.md and the memory blocks in a prompt (the region a re-judgement counts). */
const GAP_AFTER = '\n\n';

/** Counts what `document`'s text puts into the prompt, when it is SOUL.md, MEMORY.md or USER.md. Never throws. */
export function warmCounts(model: HermesModel, document: TextDocument): void {
  try {
    const file = uriToPath(document.uri);
    const target = file ? model.classify(file) : undefined;
    if (!target || (target.kind !== 'soul' && target.kind !== 'memory' && target.kind !== 'user')) return;
    const raw = document.getText();
    if (raw.length > (target.kind === 'soul' ? MAX_DIAGNOSED_CHARS : MAX_DIAGNOSED_MEMORY_CHARS)) return;
    const text = target.kind === 'soul' && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    const block = target.kind === 'soul' ? analyzeSoulText(target.file, text, target.analysis.profile.dir, target.analysis.config).block : analyzeMemoryText(target.file, text, target.kind).block;
    if (block) regionTokens(block, GAP_AFTER);
  } catch {
    // A count made later, at the save, is as good.
  }
}
