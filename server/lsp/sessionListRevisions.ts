// The session list as the client last received it, so each `hermes/sessionListChanged` carries
// only what changed since then: every profile's summary, the sessions the client does not hold
// (whole), the fields that changed of those it holds (patches in columns, sessionPatches.ts, or the
// whole session when a field became null; a session whose report is the same object is skipped at
// once, as re-evaluation keeps the report of a session whose inputs did not change, see
// engine/sessionReport.ts) and the ids that left. A full list goes out after a reset (start,
// reconfigure) and answers `hermes/sessionList`.
import { changedSessionFields, sessionJson } from '../hermes/engine/reportJson';
import type { ProfileReport } from '../hermes/engine/types';
import type { ProfileDeltaDto, SessionDto, SessionListChange, SessionListResult } from '../../shared/protocol';
import { profileDto, profileSummaryDto } from './dto';
import type { HermesModel } from './hermesModel';
import { SentSessions } from './sentSessions';
import { SessionPatchColumns } from './sessionPatches';

interface SentList {
  readonly home: string | null;
  readonly problem: string | null;
  readonly profiles: readonly ProfileReport[];
}

export class SessionListRevisions {
  private revision = 0;
  private sent: SentList | undefined;

  constructor(private readonly model: HermesModel) {}

  /** The next change goes out as a full list (the client may hold a list of another configuration). */
  reset(): void {
    this.sent = undefined;
  }

  /** What to send now: a delta against the last list sent, or the full list after a reset. */
  nextChange(): SessionListChange {
    const before = this.sent;
    const base = this.revision;
    const now = this.remember();
    if (!before || !sameProfiles(before, now)) return this.fullList();
    return {
      revision: this.revision,
      base,
      home: now.home,
      problem: now.problem,
      profiles: now.profiles.map((report, i) => profileDelta(before.profiles[i]!, report)),
    };
  }

  /**
   * The full list (the `hermes/sessionList` request). It is the last list sent, at its revision, as
   * every change of the model is sent at once; should the model have moved on unsent, the answer
   * gets a new revision so later deltas start from it.
   */
  fullList(): SessionListResult {
    if (!this.sent || !sameAsModel(this.sent, this.model)) this.remember();
    return {
      revision: this.revision,
      home: this.sent!.home,
      problem: this.sent!.problem,
      profiles: this.sent!.profiles.map(profileDto),
    };
  }

  private remember(): SentList {
    this.revision += 1;
    this.sent = {
      home: this.model.home?.root ?? null,
      problem: this.model.problem ?? null,
      profiles: this.model.profiles().map((a) => a.report),
    };
    return this.sent;
  }
}

function profileDelta(sentReport: ProfileReport, report: ProfileReport): ProfileDeltaDto {
  const sent = new SentSessions(sentReport.sessions);
  const changed: SessionDto[] = [];
  const patches = new SessionPatchColumns();
  for (let i = 0; i < report.sessions.length; i++) {
    const session = report.sessions[i]!;
    const held = sent.find(session.id, i);
    if (held === session) continue;
    if (held) {
      const fields = changedSessionFields(held, session);
      if (fields === 0 || patches.add(session, fields)) continue;
    }
    changed.push(sessionJson(session));
  }
  return { ...profileSummaryDto(report), changed, patched: patches.patches, removed: sent.missingFrom(report.sessions) };
}

/** The same profiles in the same order (the client matches a delta's profiles by position). */
function sameProfiles(a: SentList, b: SentList): boolean {
  return a.home === b.home && a.profiles.length === b.profiles.length && a.profiles.every((p, i) => p.name === b.profiles[i]!.name);
}

function sameAsModel(sent: SentList, model: HermesModel): boolean {
  const reports = model.profiles().map((a) => a.report);
  return (
    sent.home === (model.home?.root ?? null) &&
    sent.problem === (model.problem ?? null) &&
    sent.profiles.length === reports.length &&
    sent.profiles.every((p, i) => p === reports[i])
  );
}
