// The judging digest of each session cwd (judgingDigest.ts) for `hermes-lens status`, kept on disk
// with what rendering the sources read to make it (fs/recordingFs.ts). While those reads still hold (a
// stat of each path they touched says so), the next run takes the digests as they are and renders
// nothing: not SOUL.md, not a thousand skills, not every project's context files. With the
// verdicts kept beside them (persistedAnalyses.ts), a status of an unchanged home then reads the
// sessions' rows and little else.
//
// Digests are kept only from a run whose sources had no problem to report (so a run that takes
// them has none to report either, and no message quoting a file is kept), that saw nothing change
// in the seconds before (a change within the clock's grain could look like no change), and with
// the environment the skills index depends on.
import { diskFs } from '../fs/diskFs';
import { RecordingFs, readsStillHold, type PackedReads } from '../fs/recordingFs';
import type { SourceFs } from '../fs/sourceFs';
import { skillsEnvironmentKey } from '../sources/skills';
import { memo } from '../memo';
import type { PersistedAnalyses } from './persistedAnalyses';
import { withSoulPart } from './judgingDigest';

/** A change this recent may share its file times with the next one: what was read of it is not kept. */
export const RACY_MS = 3000;

export class SourceDigests {
  /** What rendering SOUL.md read, kept apart: after an edit of SOUL.md alone the rest still holds. */
  private readonly soulRecording: RecordingFs;
  private readonly restRecording: RecordingFs;
  private renderedSoul = false;
  private renderedRest = false;
  /** Digests kept by an earlier run whose reads all still hold, by cwd ('' = none). */
  private readonly kept: ReadonlyMap<string, string> | undefined;
  /** Digests kept by an earlier run whose reads hold but SOUL.md's, with the reads that hold. */
  private readonly keptButSoul: { readonly digests: ReadonlyMap<string, string>; readonly reads: PackedReads } | undefined;
  private readonly made = new Map<string, string>();
  /** SOUL.md's part of the digests, once rendered for keptButSoul. */
  private soulPart: string | undefined;
  private readonly environment = skillsEnvironmentKey();

  /** `fs`: what the sources are read through (the disk), noted by a RecordingFs over it. */
  constructor(
    private readonly persisted: PersistedAnalyses,
    fs: SourceFs = diskFs,
  ) {
    this.soulRecording = new RecordingFs(fs);
    this.restRecording = new RecordingFs(fs);
    const kept = persisted.keptSources(this.environment);
    const restHolds = kept !== undefined && readsStillHold(kept.reads, fs);
    if (restHolds && readsStillHold(kept.soulReads, fs)) this.kept = kept.digests;
    else if (restHolds) this.keptButSoul = { digests: kept.digests, reads: kept.reads };
  }

  /** Runs `render` (a rendering of sources for a digest) on the fs that notes what it reads. */
  render<T>(render: (fs: SourceFs) => T): T {
    this.renderedRest = true;
    return render(this.restRecording);
  }

  /** Runs `render` (of SOUL.md alone) on the fs that notes what SOUL.md's rendering reads. */
  renderSoul<T>(render: (fs: SourceFs) => T): T {
    this.renderedSoul = true;
    return render(this.soulRecording);
  }

  /** Runs `read` (config.yaml, read every run) on the fs that notes what it reads, without counting as a rendering. */
  read<T>(read: (fs: SourceFs) => T): T {
    return read(this.restRecording);
  }

  /**
   * The digest of `cwd`: kept; or, when only SOUL.md changed since, the kept one with SOUL.md's part
   * made now by `soulPart` (which renders SOUL.md alone); or made now by `make` (which renders all).
   */
  digest(cwd: string | undefined, make: () => string, soulPart: () => string): string {
    const key = cwd ?? '';
    const kept = this.kept?.get(key);
    if (kept !== undefined) return kept;
    const keptButSoul = this.keptButSoul?.digests.get(key);
    if (keptButSoul !== undefined) return memo(this.made, key, () => withSoulPart(keptButSoul, (this.soulPart ??= soulPart())));
    return memo(this.made, key, make);
  }

  /** What this run rendered: nothing (every digest was kept), SOUL.md alone, or more. */
  get rendered(): 'none' | 'soul' | 'all' {
    if (this.renderedRest) return 'all';
    return this.renderedSoul ? 'soul' : 'none';
  }

  /**
   * Keeps this run's digests and reads for the next run, when it can trust them (see above). A run
   * that took kept digests and rendered more (a new session cwd) has not read everything the kept
   * ones came from: they are dropped, and the next run renders all and keeps what it read. A run
   * that rendered SOUL.md alone keeps the rest's reads as they were, with the new SOUL.md's.
   */
  save(problemsToReport: boolean, nowMs: number): void {
    const rendered = this.rendered;
    if (rendered === 'none') return;
    const racy = (recording: RecordingFs) => recording.newestChangeMs > nowMs - RACY_MS;
    if (rendered === 'soul' && this.keptButSoul && this.soulPart !== undefined) {
      // Otherwise what is kept still says what SOUL.md was: the next run renders it again.
      if (problemsToReport || racy(this.soulRecording)) return;
      const digests = new Map([...this.keptButSoul.digests].map(([cwd, digest]) => [cwd, withSoulPart(digest, this.soulPart!)]));
      this.persisted.keepSources(this.environment, this.keptButSoul.reads, this.soulRecording.pack(), digests);
      return;
    }
    if (this.kept !== undefined || this.keptButSoul !== undefined || problemsToReport || racy(this.restRecording) || racy(this.soulRecording)) this.persisted.dropSources();
    else this.persisted.keepSources(this.environment, this.restRecording.pack(), this.soulRecording.pack(), this.made);
  }
}
