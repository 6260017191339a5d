// The VerdictStore of the language server: each prompt's verdict per session cwd, in memory, with the
// judging digest of the sources it was judged against and what judging it again without its text
// needs (partsRejudge.ts). After a save of SOUL.md, a skill, an AGENTS.md or a memory file, every
// prompt is judged again from these as `hermes-lens status` does from its disk cache, so the server
// keeps no prompt's text or anatomy resident for it (AnalysisCache keeps a few, for the views).
import { memoryVerdicts, type KeptVerdict, type VerdictStore } from './verdictStore';

/** The language server's store: VerdictStore, and the pruning its evaluations ask for. */
export type KeptVerdicts = VerdictStore & { keepOnly(identities: ReadonlySet<string>): void };

/** Verdicts kept in memory by digest; everything else answered as memoryVerdicts answers it (sources read as they are, nothing on disk). */
export function keptVerdicts(): KeptVerdicts {
  /** By prompt identity, then sourcesKey ('' for none): the last verdict of each. */
  const kept = new Map<string, Map<string, KeptVerdict>>();
  return {
    ...memoryVerdicts,
    keepsByDigest: true,
    verdict(identity, cwd, digest) {
      const entry = kept.get(identity)?.get(cwd ?? '');
      return entry?.digest === digest ? entry.verdict : undefined;
    },
    anyVerdict: (identity, cwd) => kept.get(identity)?.get(cwd ?? ''),
    promptTokens(identity) {
      for (const { verdict } of kept.get(identity)?.values() ?? []) return { tokens: verdict.prompt.tokens, counted: verdict.prompt.tokensCounted };
      return undefined;
    },
    keepVerdict(identity, cwd, digest, verdict, parts) {
      let byCwd = kept.get(identity);
      if (!byCwd) kept.set(identity, (byCwd = new Map()));
      byCwd.set(cwd ?? '', { digest, verdict, parts });
    },
    /** Forgets the verdicts of prompts no listed session holds any more (sessions that ended, or were deleted). */
    keepOnly(identities) {
      for (const identity of kept.keys()) if (!identities.has(identity)) kept.delete(identity);
    },
  };
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
