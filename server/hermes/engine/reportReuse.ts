// Re-evaluation reuses a session's report when nothing it was computed from changed: the same
// record (listSessionsSince keeps the object of an unchanged row), stored prompt, transcript size,
// staleness verdict and config (new objects whenever their sources change), the same requested
// epoch, and the same side of its cache expiry. Time passing alone changes a report only when its
// cache goes cold, so that is checked against the new `now`.
import type { PromptAnatomy } from '../anatomy/types';
import type { ProfileConfig } from '../config';
import { isCacheWarm } from '../cost/refreshCost';
import type { SessionRecord, TranscriptSize } from '../model';
import type { JudgedPrompt } from './analysisCache';
import type { SessionReport } from './types';

export interface ReportInputs {
  readonly record: SessionRecord;
  readonly config: ProfileConfig;
  readonly anatomy: PromptAnatomy | undefined;
  readonly transcript: TranscriptSize;
  readonly judged: JudgedPrompt;
  readonly requestedEpoch: number;
}

export interface ReusableReport {
  readonly inputs: ReportInputs;
  readonly report: SessionReport;
}

/** The previous report of a session if it still holds at `now`, else undefined. */
export function reusableReport(previous: ReusableReport | undefined, inputs: ReportInputs, now: number): SessionReport | undefined {
  if (!previous) return undefined;
  const was = previous.inputs;
  const same =
    was.record === inputs.record &&
    was.config === inputs.config &&
    was.anatomy === inputs.anatomy &&
    was.transcript === inputs.transcript &&
    was.judged === inputs.judged &&
    was.requestedEpoch === inputs.requestedEpoch;
  if (!same) return undefined;
  const report = previous.report;
  return isCacheWarm(inputs.record.lastActivityAt, report.ttlSeconds, now) === report.cacheWarm ? report : undefined;
}
