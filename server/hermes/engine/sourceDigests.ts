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
import { RecordingFs, readsStillHold } from '../fs/recordingFs';
import type { SourceFs } from '../fs/sourceFs';
import { skillsEnvironmentKey } from '../sources/skills';
import { memo } from '../memo';
import type { PersistedAnalyses } from './persistedAnalyses';

/** A change this recent may share its file times with the next one: what was read of it is not kept. */
export const RACY_MS = 3000;

export class SourceDigests {
  private readonly recording: RecordingFs;
  private rendered = false;
  /** Digests kept by an earlier run whose reads still hold, by cwd ('' = none). */
  private readonly kept: ReadonlyMap<string, string> | undefined;
  private readonly made = new Map<string, string>();
  private readonly environment = skillsEnvironmentKey();

  /** `fs`: what the sources are read through (the disk), noted by a RecordingFs over it. */
  constructor(
    private readonly persisted: PersistedAnalyses,
    fs: SourceFs = diskFs,
  ) {
    this.recording = new RecordingFs(fs);
    const kept = persisted.keptSources(this.environment);
    this.kept = kept !== undefined && readsStillHold(kept.reads, fs) ? kept.digests : undefined;
  }

  /** Runs `render` (a rendering of sources for a digest) on the fs that notes what it reads. */
  render<T>(render: (fs: SourceFs) => T): T {
    this.rendered = true;
    return render(this.recording);
  }

  /** Runs `read` (config.yaml, read every run) on the fs that notes what it reads, without counting as a rendering. */
  read<T>(read: (fs: SourceFs) => T): T {
    return read(this.recording);
  }

  /** The digest of `cwd`: kept, or made now by `make` (which renders through `render`). */
  digest(cwd: string | undefined, make: () => string): string {
    const key = cwd ?? '';
    return this.kept?.get(key) ?? memo(this.made, key, make);
  }

  /** Whether every source this run needed came from the kept digests (nothing was rendered). */
  get fromDisk(): boolean {
    return this.kept !== undefined && !this.rendered;
  }

  /**
   * Keeps this run's digests and reads for the next run, when it can trust them (see above). A run
   * that took kept digests and rendered more (a new session cwd) has not read everything the kept
   * ones came from: they are dropped, and the next run renders all and keeps what it read.
   */
  save(problemsToReport: boolean, nowMs: number): void {
    if (!this.rendered) return;
    if (this.kept !== undefined || problemsToReport || this.recording.newestChangeMs > nowMs - RACY_MS) this.persisted.dropSources();
    else this.persisted.keepSources(this.environment, this.recording.pack(), this.made);
  }
}
