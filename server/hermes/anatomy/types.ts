// The anatomy of a stored system prompt (docs/HERMES-FORMATS.md §1): its tiers and blocks, located by the markers
// Hermes writes, so we can tell what each source put there and where the skills index sits.
import type { BlockKind, TierName } from '../model';

export interface PromptBlock {
  readonly kind: BlockKind;
  readonly tier: TierName;
  /** UTF-16 offsets into the prompt text, [start, end). */
  readonly start: number;
  readonly end: number;
  /** The block's text (= prompt.slice(start, end)). */
  readonly text: string;
  readonly bytes: number;
  readonly tokens: number;
  /** For `plugin-context`: the plugin id. */
  readonly label?: string;
}

export interface ProjectSection {
  /** The `## <label>` of the file (relative path or file name). */
  readonly label: string;
  /** The section's body as stored (after the `## label` line and blank line). */
  readonly body: string;
  readonly start: number;
  readonly end: number;
}

export interface SkillIndexLine {
  readonly category: string;
  readonly name: string;
  /** As stored (already cut to 60). '' when the line has no description. */
  readonly description: string;
  /** Listed by name only (`  <category> [names only]: a, b`, Hermes' focus mode): its description is not in the prompt. */
  readonly namesOnly?: boolean;
}

export interface TierSize {
  readonly name: TierName;
  readonly start: number;
  readonly end: number;
  readonly bytes: number;
  readonly tokens: number;
}

export interface PromptAnatomy {
  readonly text: string;
  readonly bytes: number;
  readonly tokens: number;
  /**
   * Whether every count was made with o200k rather than estimated. Exact for a session only when
   * o200k is its model's tokenizer too (countsExactlyFor): the anatomy of a text is shared by every
   * session holding it, whatever their models.
   */
  readonly tokensCounted: boolean;
  readonly tiers: readonly TierSize[];
  readonly blocks: readonly PromptBlock[];
  /** The identity block's text (SOUL.md as rendered, or the default identity). */
  readonly identity: string;
  /** What bounds the identity whatever SOUL.md is given as the hint (Located.firstMarker, anyMarker): see identityOpenings.ts. */
  readonly identityBounds: { readonly firstMarker: number; readonly anyMarker: boolean };
  readonly projectSections: readonly ProjectSection[];
  /** The skills index block text ('' when absent) and where it sits. */
  readonly skillsIndex: { readonly text: string; readonly tier: TierName | undefined; readonly lines: readonly SkillIndexLine[]; readonly categories: ReadonlyMap<string, string> };
  /** The ═-framed blocks' full text ('' when absent). */
  readonly memoryBlock: string;
  readonly userBlock: string;
  /** Values of the trailer lines, when present. */
  readonly model: string | undefined;
  readonly provider: string | undefined;
  readonly platform: string | undefined;
  readonly conversationStarted: string | undefined;
}
