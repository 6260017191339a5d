// What the readers report of a source file Hermes cannot use as it is: a shape every layer from
// the file reads up to the editor's diagnostics shares.
import type { ProblemRange } from './text/positions';

/** A problem found in a source file, with where it is (0-based line/character, UTF-16). */
export interface SourceProblem {
  readonly file: string;
  readonly code:
    | 'truncated'
    | 'blocked'
    | 'description-cut'
    | 'frontmatter-missing'
    | 'frontmatter-invalid'
    | 'duplicate-skill'
    | 'shadowed'
    | 'per-profile-text'
    | 'prefix-split'
    | 'memory-over-limit'
    | 'unreadable'
    | 'binary';
  readonly message: string;
  readonly range?: ProblemRange;
}
