// Where an analysis keeps what it worked out between runs: in memory only (the language server, whose
// AnalysisCache already keeps everything while it runs, and most CLI commands), or on disk as well
// (`hermes-lens status`: diskVerdicts.ts). The pass over the sessions asks the store, never a flag.
import type { SourceFs } from '../fs/sourceFs';
import type { TranscriptSize } from '../model';
import type { StateStore } from '../store/stateStore';
import type { PromptVerdict } from './promptFacts';
import type { KeptParts } from './partsRejudge';
import type { ApartPart } from './keptReads';

/** A prompt's tokens, and whether they were counted with o200k (PromptAnatomy.tokensCounted). */
export interface KeptCount {
  readonly tokens: number;
  readonly counted: boolean;
}

/** A verdict as a store keeps it: with the digest of the sources it was judged against, and what judging it again without the prompt needs. */
export interface KeptVerdict {
  readonly digest: string;
  readonly verdict: PromptVerdict;
  readonly parts: KeptParts | undefined;
}

export interface VerdictStore {
  /** Whether verdicts are kept by the judging digest of a session cwd (else `digest` is never asked: no digest is made). */
  readonly keepsByDigest: boolean;
  /**
   * What this run rendered of the sources: nothing (every digest was kept, so no problem of a
   * source is known), parts kept apart alone (the rest held since a run that had no problem), or all.
   */
  readonly rendered: 'none' | 'all' | readonly ApartPart[];
  /** Runs `read` (config.yaml) on the fs the sources are read through for this store. */
  readConfig<T>(fs: SourceFs, read: (fs: SourceFs) => T): T;
  /** Runs `render` (a rendering of sources) on the fs the sources are read through for this store. */
  render<T>(fs: SourceFs, render: (fs: SourceFs) => T): T;
  /** `render` for one part alone, whose reads a store keeps apart (after edits of such parts alone, the rest still holds). */
  renderPart<T>(part: ApartPart, fs: SourceFs, render: (fs: SourceFs) => T): T;
  /**
   * The judging digest of `cwd`: kept, or made now by `make` (rendering all), or, when only parts
   * kept apart changed since it was kept, from it and their parts made by `partDigest`. Asked only when `keepsByDigest`.
   */
  digest(cwd: string | undefined, make: () => string, partDigest: (part: ApartPart) => string): string;
  verdict(identity: string, cwd: string | undefined, digest: string): PromptVerdict | undefined;
  /** The verdict kept for a prompt and cwd against whatever sources, their digest, and what judging new SOUL.md or memory files without the text needs. */
  anyVerdict(identity: string, cwd: string | undefined): KeptVerdict | undefined;
  /**
   * The whole prompt's token count kept with any verdict of it, whatever the sources it was judged
   * against: a count of the text alone, which an edit of a source leaves as it was.
   */
  promptTokens(identity: string): KeptCount | undefined;
  keepVerdict(identity: string, cwd: string | undefined, digest: string, verdict: PromptVerdict, parts?: KeptParts): void;
  transcript(sessionId: string, fingerprint: string): TranscriptSize | undefined;
  keepTranscript(sessionId: string, fingerprint: string, size: TranscriptSize): void;
  /** The identity an earlier run found a session's inline prompt to hold (AnalysisCache.settleKeptInline). */
  inlineIdentity(sessionId: string): string | undefined;
  /** Whether `inlineIdentity` can know anything (else the inline prompts are not settled against it). */
  readonly keepsInlineIdentities: boolean;
  keepInlineIdentity(sessionId: string, identity: string): void;
  /** Just before the database is opened: what its files are then (a kept count's key). */
  opening(dbFile: string): void;
  /** The count of sessions holding a stored prompt: kept, or counted now by `store`. */
  storedPromptCount(store: StateStore): number;
  /** Forgets what is kept of prompts other than these (no listed session holds them any more); a store kept on disk prunes itself. */
  keepOnly?(identities: ReadonlySet<string>): void;
  /** The evaluation is done: what is worth keeping is kept. */
  save(problemsToReport: boolean): void;
}

/** Nothing kept beyond the AnalysisCache: every question is answered now. */
export const memoryVerdicts: VerdictStore = {
  keepsByDigest: false,
  rendered: 'all',
  keepsInlineIdentities: false,
  readConfig: (fs, read) => read(fs),
  render: (fs, render) => render(fs),
  renderPart: (_part, fs, render) => render(fs),
  digest: (_cwd, make) => make(),
  verdict: () => undefined,
  anyVerdict: () => undefined,
  promptTokens: () => undefined,
  keepVerdict: () => undefined,
  transcript: () => undefined,
  keepTranscript: () => undefined,
  inlineIdentity: () => undefined,
  keepInlineIdentity: () => undefined,
  opening: () => undefined,
  storedPromptCount: (store) => store.countStoredPromptSessions(),
  save: () => undefined,
};
