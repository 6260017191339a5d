// The judging digest of each session cwd (judgingDigest.ts) for `hermes-lens status`, kept on disk
// with what rendering the sources read to make it (fs/recordingFs.ts). While those reads still hold (a
// stat of each path they touched says so), the next run takes the digests as they are and renders
// nothing: not SOUL.md, not a thousand skills, not every project's context files. With the
// verdicts kept beside them (persistedAnalyses.ts), a status of an unchanged home then reads the
// sessions' rows and little else.
//
// SOUL.md, MEMORY.md and USER.md are read apart from the rest (APART_PARTS): after edits of these
// alone, the rest's reads still hold, and only the edited ones are rendered again; the verdicts kept
// beside the digests are then judged again without their prompts (partsRejudge.ts).
//
// Digests are kept only from a run whose sources had no problem to report (so a run that takes
// them has none to report either, and no message quoting a file is kept), that saw nothing change
// in the seconds before (a change within the clock's grain could look like no change), and with
// the environment the skills index depends on.
import { diskFs } from '../fs/diskFs';
import { RACY_MS, RecordingFs, readsStillHold } from '../fs/recordingFs';
import { APART_PARTS, type ApartPart, type KeptReads } from './keptReads';
import type { SourceFs } from '../fs/sourceFs';
import { skillsEnvironmentKey } from '../sources/skills';
import { memo } from '../memo';
import type { PersistedAnalyses } from './persistedAnalyses';
import { withParts, type DigestPart } from './judgingDigest';

export class SourceDigests {
  private readonly recordings: Readonly<Record<ApartPart | 'rest', RecordingFs>>;
  private readonly renderedParts = new Set<ApartPart>();
  private renderedRest = false;
  /** Digests kept by an earlier run whose reads all still hold, by cwd ('' = none). */
  private readonly kept: ReadonlyMap<string, string> | undefined;
  /** Digests kept by an earlier run whose reads hold but those of `changed` parts, with the reads of each part that hold. */
  private readonly keptBut: { readonly digests: ReadonlyMap<string, string>; readonly changed: readonly ApartPart[]; readonly reads: KeptReads } | undefined;
  private readonly made = new Map<string, string>();
  /** The changed parts' digests, once rendered for keptBut. */
  private readonly partDigests = new Map<DigestPart, string>();
  private readonly environment = skillsEnvironmentKey();

  /** `fs`: what the sources are read through (the disk), noted by a RecordingFs over it. */
  constructor(
    private readonly persisted: PersistedAnalyses,
    fs: SourceFs = diskFs,
  ) {
    this.recordings = { soul: new RecordingFs(fs), memory: new RecordingFs(fs), user: new RecordingFs(fs), rest: new RecordingFs(fs) };
    const kept = persisted.keptSources(this.environment);
    if (!kept || !readsStillHold(kept.reads.rest, fs)) return;
    const changed = APART_PARTS.filter((part) => !readsStillHold(kept.reads[part], fs));
    if (changed.length === 0) this.kept = kept.digests;
    else this.keptBut = { digests: kept.digests, changed, reads: kept.reads };
  }

  /** Runs `render` (a rendering of sources for a digest) on the fs that notes what it reads. */
  render<T>(render: (fs: SourceFs) => T): T {
    this.renderedRest = true;
    return render(this.recordings.rest);
  }

  /** Runs `render` (of one part kept apart alone) on the fs that notes what that part's rendering reads. */
  renderPart<T>(part: ApartPart, render: (fs: SourceFs) => T): T {
    this.renderedParts.add(part);
    return render(this.recordings[part]);
  }

  /** Runs `read` (config.yaml, read every run) on the fs that notes what it reads, without counting as a rendering. */
  read<T>(read: (fs: SourceFs) => T): T {
    return read(this.recordings.rest);
  }

  /**
   * The digest of `cwd`: kept; or, when only parts kept apart changed since, the kept one with
   * their parts made now by `partDigest` (which renders that part alone); or made now by `make`
   * (which renders all).
   */
  digest(cwd: string | undefined, make: () => string, partDigest: (part: ApartPart) => string): string {
    const key = cwd ?? '';
    const kept = this.kept?.get(key);
    if (kept !== undefined) return kept;
    const keptBut = this.keptBut?.digests.get(key);
    if (keptBut !== undefined) return memo(this.made, key, () => withParts(keptBut, this.changedDigests(partDigest)));
    return memo(this.made, key, make);
  }

  /** What this run rendered: nothing (every digest was kept), parts kept apart alone, or more. */
  get rendered(): 'none' | 'all' | readonly ApartPart[] {
    if (this.renderedRest) return 'all';
    return this.renderedParts.size === 0 ? 'none' : [...this.renderedParts];
  }

  /**
   * Keeps this run's digests and reads for the next run, when it can trust them (see above). A run
   * that took kept digests and rendered more (a new session cwd) has not read everything the kept
   * ones came from: they are dropped, and the next run renders all and keeps what it read. A run
   * that rendered changed parts alone keeps the other reads as they were, with the new parts'.
   */
  save(problemsToReport: boolean, nowMs: number): void {
    const rendered = this.rendered;
    if (rendered === 'none') return;
    const racy = (recording: RecordingFs) => recording.newestChangeMs > nowMs - RACY_MS;
    const keptBut = this.keptBut;
    if (rendered !== 'all' && keptBut && this.partDigests.size === keptBut.changed.length) {
      // Otherwise what is kept still says what the parts were: the next run renders them again.
      if (problemsToReport || rendered.some((part) => racy(this.recordings[part]))) return;
      const reads = { ...keptBut.reads };
      for (const part of rendered) reads[part] = this.recordings[part].pack();
      const digests = new Map([...keptBut.digests].map(([cwd, digest]) => [cwd, withParts(digest, this.partDigests)]));
      this.persisted.keepSources(this.environment, reads, digests);
      return;
    }
    const recordings = Object.values(this.recordings);
    if (this.kept !== undefined || keptBut !== undefined || problemsToReport || recordings.some(racy)) this.persisted.dropSources();
    else this.persisted.keepSources(this.environment, { rest: this.recordings.rest.pack(), soul: this.recordings.soul.pack(), memory: this.recordings.memory.pack(), user: this.recordings.user.pack() }, this.made);
  }

  private changedDigests(partDigest: (part: ApartPart) => string): ReadonlyMap<DigestPart, string> {
    for (const part of this.keptBut!.changed) if (!this.partDigests.has(part)) this.partDigests.set(part, partDigest(part));
    return this.partDigests;
  }
}
