// Memoised work for re-evaluation. Stored prompts are keyed by content (`hash:<sha>`), so their
// anatomy never goes stale; inline (pre-v25) keys are per session and dropped on a database change.
// Rendered sources are per session cwd and dropped when an instruction file changes.
import type { PromptAnatomy } from '../anatomy/types';
import type { StaleReason, TranscriptSize } from '../model';
import type { RenderedSources } from '../sources/types';

export interface CachedTranscript {
  /** Hermes bumps these on every turn; equal values mean the transcript is unchanged. */
  readonly fingerprint: string;
  readonly size: TranscriptSize;
}

export class AnalysisCache {
  readonly anatomies = new Map<string, PromptAnatomy>();
  readonly sources = new Map<string, RenderedSources>();
  readonly staleness = new Map<string, { reasons: StaleReason[]; deltaTokens: number }>();
  readonly transcripts = new Map<string, CachedTranscript>();

  /** An instruction file changed: everything derived from the sources goes. */
  sourcesChanged(): void {
    this.sources.clear();
    this.staleness.clear();
  }

  /** Hermes wrote to the database: per-session prompt keys may now point elsewhere. */
  databaseChanged(): void {
    for (const key of [...this.anatomies.keys()]) if (key.startsWith('inline:')) this.anatomies.delete(key);
    for (const key of [...this.staleness.keys()]) if (key.startsWith('inline:')) this.staleness.delete(key);
  }
}
