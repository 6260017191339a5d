// What each instruction source contributes to the prompt today, rendered as Hermes renders it
// (docs/HERMES-FORMATS.md). These shapes are shared by staleness, the CLI, the language
// server features and the demo-home generator.
import type { SourceKind } from '../model';

import type { SourceProblem } from '../problems';

export type { SourceProblem };

/** One file's part of the prompt. */
export interface FileContribution {
  readonly kind: SourceKind;
  /** Absolute path. */
  readonly path: string;
  /** The exact text this file puts into the prompt (after scan, truncation, cutting). */
  readonly rendered: string;
  /** For a skill: its index line's name; for a project file: its `## <label>`. */
  readonly label?: string;
}

export interface SkillEntry {
  /** Frontmatter `name`, else the directory name. */
  readonly name: string;
  readonly category: string;
  /** Full description from the frontmatter. */
  readonly description: string;
  /** What enters the prompt: cut to 60 chars as 57 + `...`. */
  readonly promptDescription: string;
  /** Absolute path of SKILL.md. */
  readonly file: string;
  /** False when platforms/conditions/`skills.disabled` leave it out, or a same-named skill of its category comes first. */
  readonly visible: boolean;
  /** False when platforms/conditions/`skills.disabled` leave it out (name clashes aside). */
  readonly eligible: boolean;
}

export interface SkillsIndex {
  readonly entries: readonly SkillEntry[];
  /** Category descriptions by category path, with the DESCRIPTION.md they come from. */
  readonly categories: ReadonlyMap<string, { readonly description: string; readonly file: string }>;
  /** The `## Skills` block exactly as Hermes renders it; '' when no skill is visible. */
  readonly block: string;
  readonly problems: readonly SourceProblem[];
  /** The folders of `skills.external_dirs` whose skills it lists, resolved; absent for none. */
  readonly externalDirs?: readonly string[];
  /**
   * The trusted project skills folders whose skills it lists first (`[project] `, Hermes from
   * 0.20.3), resolved; absent for none (sources/projectSkillDirs.ts).
   */
  readonly projectDirs?: readonly string[];
  /** With `projectDirs`: the index without the project's skills, as builds before 0.20.3 list it (sources/skillsAsRead.ts). */
  readonly withoutProject?: SkillsIndex;
}

export type ProjectContextKind = 'hermes-md' | 'agents-chain' | 'claude-md' | 'cursorrules' | 'none';

export interface ProjectContext {
  readonly kind: ProjectContextKind;
  /** Files that contribute, in prompt order. */
  readonly files: readonly FileContribution[];
  /** Context files found on the way that load nothing because another kind wins (docs/HERMES-FORMATS.md §3). */
  readonly shadowed: ReadonlyArray<{ readonly path: string; readonly winner: string }>;
  /** The `# Project Context` block; '' when no file contributes. */
  readonly block: string;
  readonly problems: readonly SourceProblem[];
  /**
   * Where an `AGENTS.override.md` takes part: what builds reading it otherwise load (without it, as
   * Hermes up to 0.20.2 does; and after the chain, as a fork does). Absent when all builds load the same.
   */
  readonly otherReadings?: { readonly ignored: ProjectContext; readonly appended: ProjectContext };
}

export interface MemorySource {
  readonly kind: 'memory' | 'user';
  readonly path: string;
  readonly entries: readonly string[];
  readonly limit: number;
  /** The ═-framed block; '' when the file has no entries. */
  readonly block: string;
  readonly problems: readonly SourceProblem[];
}

export interface SoulSource {
  readonly path: string;
  /** False when SOUL.md is missing or empty: the default identity is used. */
  readonly exists: boolean;
  /** The identity block as it enters the prompt. */
  readonly block: string;
  readonly problems: readonly SourceProblem[];
}

/** Everything the sources of one profile (and one session cwd) render today. */
export interface RenderedSources {
  readonly soul: SoulSource;
  readonly skills: SkillsIndex;
  readonly projectContext: ProjectContext;
  readonly memory: MemorySource;
  readonly user: MemorySource;
}
