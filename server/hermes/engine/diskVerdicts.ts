// The VerdictStore of `hermes-lens status`: transcript sizes, verdicts, inline prompts' identities and
// the stored-prompt count kept on disk per state.db (persistedAnalyses.ts), with the judging digests of
// the sources and what rendering them read (sourceDigests.ts). Where the cache folder is off, what it
// keeps is kept in memory only.
import { processCacheEnv } from '../cacheFolder';
import { diskFs } from '../fs/diskFs';
import type { SourceFs } from '../fs/sourceFs';
import type { TranscriptSize } from '../model';
import { databaseFiles, type DatabaseFiles } from '../store/databaseFiles';
import type { StateStore } from '../store/stateStore';
import { PersistedAnalyses } from './persistedAnalyses';
import type { PromptVerdict } from './promptFacts';
import type { KeptParts } from './partsRejudge';
import type { ApartPart } from './keptReads';
import { SourceDigests } from './sourceDigests';
import { RACY_MS } from '../fs/recordingFs';
import { memoryVerdicts, type KeptCount, type VerdictStore } from './verdictStore';

/**
 * The store kept for `dbFile` in the cache folder `env` names (cacheFolder.ts), for one evaluation,
 * its sources read through `fs` (the fs the analysis is given); memoryVerdicts when the folder is off.
 */
export function diskVerdicts(dbFile: string, fs: SourceFs = diskFs, clock: { readonly nowMs: () => number } = SYSTEM_CLOCK, env: NodeJS.ProcessEnv = processCacheEnv()): VerdictStore {
  const persisted = PersistedAnalyses.open(dbFile, env);
  return persisted ? new DiskVerdicts(persisted, new SourceDigests(persisted, fs), clock) : memoryVerdicts;
}

/** Tests that write files and read them back at once pass a later clock, so what was read can be kept (RACY_MS). */
const SYSTEM_CLOCK = { nowMs: () => Date.now() };

class DiskVerdicts implements VerdictStore {
  readonly keepsByDigest = true;
  readonly keepsInlineIdentities = true;
  private files: DatabaseFiles | undefined;

  constructor(
    private readonly persisted: PersistedAnalyses,
    private readonly digests: SourceDigests,
    private readonly clock: { readonly nowMs: () => number },
  ) {}

  get rendered(): VerdictStore['rendered'] {
    return this.digests.rendered;
  }

  /** Read through the digests' recording over the fs given to diskVerdicts (the analysis's). */
  readConfig<T>(_fs: SourceFs, read: (fs: SourceFs) => T): T {
    return this.digests.read(read);
  }

  render<T>(_fs: SourceFs, render: (fs: SourceFs) => T): T {
    return this.digests.render(render);
  }

  renderPart<T>(part: ApartPart, _fs: SourceFs, render: (fs: SourceFs) => T): T {
    return this.digests.renderPart(part, render);
  }

  digest(cwd: string | undefined, make: () => string, partDigest: (part: ApartPart) => string): string {
    return this.digests.digest(cwd, make, partDigest);
  }

  verdict(identity: string, cwd: string | undefined, digest: string): PromptVerdict | undefined {
    return this.persisted.verdict(identity, cwd, digest);
  }

  promptTokens(identity: string): KeptCount | undefined {
    return this.persisted.promptTokens(identity);
  }

  anyVerdict(identity: string, cwd: string | undefined): ReturnType<VerdictStore['anyVerdict']> {
    return this.persisted.anyVerdict(identity, cwd);
  }

  keepVerdict(identity: string, cwd: string | undefined, digest: string, verdict: PromptVerdict, parts?: KeptParts): void {
    this.persisted.keepVerdict(identity, cwd, digest, verdict, parts);
  }

  transcript(sessionId: string, fingerprint: string): TranscriptSize | undefined {
    return this.persisted.transcript(sessionId, fingerprint);
  }

  keepTranscript(sessionId: string, fingerprint: string, size: TranscriptSize): void {
    this.persisted.keepTranscript(sessionId, fingerprint, size);
  }

  inlineIdentity(sessionId: string): string | undefined {
    return this.persisted.inlineIdentity(sessionId);
  }

  keepInlineIdentity(sessionId: string, identity: string): void {
    this.persisted.keepInlineIdentity(sessionId, identity);
  }

  opening(dbFile: string): void {
    this.files = databaseFiles(dbFile);
  }

  /**
   * The count an earlier status kept when the database files did not change since (unless they
   * changed in the seconds before it was kept: a change within the clock's grain could look like none).
   */
  storedPromptCount(store: StateStore): number {
    const files = this.files;
    const kept = files && this.persisted.keptStoredPromptCount(files.signature);
    if (kept !== undefined) return kept;
    const count = store.countStoredPromptSessions();
    if (files && files.newestChangeMs < Date.now() - RACY_MS) this.persisted.keepStoredPromptCount(files.signature, count);
    return count;
  }

  save(problemsToReport: boolean): void {
    this.digests.save(problemsToReport, this.clock.nowMs());
    this.persisted.save();
  }
}
