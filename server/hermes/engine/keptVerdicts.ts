// The VerdictStore of the language server: each prompt's verdict per session cwd, in memory, with the
// judging digest of the sources it was judged against and what judging it again without its text
// needs (partsRejudge.ts). After a save of SOUL.md, a skill, an AGENTS.md or a memory file, every
// prompt is judged again from these as `hermes-lens status` does from its disk cache, so the server
// keeps no prompt's text or anatomy resident for it (AnalysisCache keeps a few, for the views).
import type { SourceFs } from '../fs/sourceFs';
import type { StateStore } from '../store/stateStore';
import type { KeptParts } from './partsRejudge';
import type { PromptVerdict } from './promptFacts';
import type { KeptCount, VerdictStore } from './verdictStore';

interface KeptVerdict {
  readonly digest: string;
  readonly verdict: PromptVerdict;
  readonly parts: KeptParts | undefined;
}

export class KeptVerdicts implements VerdictStore {
  readonly keepsByDigest = true;
  readonly rendered = 'all';
  readonly keepsInlineIdentities = false;
  /** By prompt identity, then sourcesKey ('' for none): the last verdict of each. */
  private readonly kept = new Map<string, Map<string, KeptVerdict>>();

  readConfig<T>(fs: SourceFs, read: (fs: SourceFs) => T): T {
    return read(fs);
  }

  render<T>(fs: SourceFs, render: (fs: SourceFs) => T): T {
    return render(fs);
  }

  renderPart<T>(_part: unknown, fs: SourceFs, render: (fs: SourceFs) => T): T {
    return render(fs);
  }

  /** Made from the sources rendered in memory (analyzeProfile memoises it per rendering). */
  digest(_cwd: string | undefined, make: () => string): string {
    return make();
  }

  verdict(identity: string, cwd: string | undefined, digest: string): PromptVerdict | undefined {
    const kept = this.kept.get(identity)?.get(cwd ?? '');
    return kept?.digest === digest ? kept.verdict : undefined;
  }

  anyVerdict(identity: string, cwd: string | undefined): KeptVerdict | undefined {
    return this.kept.get(identity)?.get(cwd ?? '');
  }

  promptTokens(identity: string): KeptCount | undefined {
    const byCwd = this.kept.get(identity);
    if (!byCwd) return undefined;
    for (const { verdict } of byCwd.values()) return { tokens: verdict.prompt.tokens, counted: verdict.prompt.tokensCounted };
    return undefined;
  }

  keepVerdict(identity: string, cwd: string | undefined, digest: string, verdict: PromptVerdict, parts?: KeptParts): void {
    let byCwd = this.kept.get(identity);
    if (!byCwd) this.kept.set(identity, (byCwd = new Map()));
    byCwd.set(cwd ?? '', { digest, verdict, parts });
  }

  /** Forgets the verdicts of prompts no listed session holds any more (sessions that ended, or were deleted). */
  keepOnly(identities: ReadonlySet<string>): void {
    for (const identity of this.kept.keys()) if (!identities.has(identity)) this.kept.delete(identity);
  }

  transcript(): undefined {
    return undefined;
  }

  keepTranscript(): void {}

  inlineIdentity(): undefined {
    return undefined;
  }

  keepInlineIdentity(): void {}

  opening(): void {}

  storedPromptCount(store: StateStore): number {
    return store.countStoredPromptSessions();
  }

  save(): void {}
}

/**
 * `disk` (an earlier run's verdicts, `diskVerdicts`), with every verdict it gives or keeps kept in
 * `memory` as well: the language server's first list comes from the disk, and its next
 * evaluations judge again from memory what that list said.
 */
export function alsoInMemory(disk: VerdictStore, memory: KeptVerdicts): { readonly store: VerdictStore; readonly tookFromDisk: () => boolean } {
  if (!disk.keepsByDigest) return { store: memory, tookFromDisk: () => false };
  let tookFromDisk = false;
  const store: VerdictStore = {
    keepsByDigest: true,
    get rendered() {
      return disk.rendered;
    },
    keepsInlineIdentities: disk.keepsInlineIdentities,
    readConfig: (fs, read) => disk.readConfig(fs, read),
    render: (fs, render) => disk.render(fs, render),
    renderPart: (part, fs, render) => disk.renderPart(part, fs, render),
    digest: (cwd, make, partDigest) => disk.digest(cwd, make, partDigest),
    verdict(identity, cwd, digest) {
      const verdict = disk.verdict(identity, cwd, digest);
      if (verdict) {
        tookFromDisk = true;
        memory.keepVerdict(identity, cwd, digest, verdict, disk.anyVerdict(identity, cwd)?.parts);
      }
      return verdict;
    },
    anyVerdict(identity, cwd) {
      const kept = disk.anyVerdict(identity, cwd);
      // Asked to judge it again from what it says (keptRejudge.ts).
      if (kept) tookFromDisk = true;
      return kept;
    },
    promptTokens: (identity) => disk.promptTokens(identity),
    keepVerdict(identity, cwd, digest, verdict, parts) {
      disk.keepVerdict(identity, cwd, digest, verdict, parts);
      memory.keepVerdict(identity, cwd, digest, verdict, parts);
    },
    transcript: (sessionId, fingerprint) => disk.transcript(sessionId, fingerprint),
    keepTranscript: (sessionId, fingerprint, size) => disk.keepTranscript(sessionId, fingerprint, size),
    inlineIdentity: (sessionId) => disk.inlineIdentity(sessionId),
    keepInlineIdentity: (sessionId, identity) => disk.keepInlineIdentity(sessionId, identity),
    opening: (dbFile) => disk.opening(dbFile),
    storedPromptCount: (store) => disk.storedPromptCount(store),
    save: (problemsToReport) => disk.save(problemsToReport),
  };
  return { store, tookFromDisk: () => tookFromDisk };
}
