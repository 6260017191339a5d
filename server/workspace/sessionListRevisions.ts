// The session list as the client last received it, so each `hermes/sessionListChanged` carries
// only what changed since then: every profile's summary, the sessions the client does not hold
// (whole), the fields that changed of those it holds (patches in columns, sessionPatches.ts, or the
// whole session when a field became null) and the ids that left. A full list goes out after a
// reset (start, reconfigure) and answers `hermes/sessionList`.
//
// What the client holds is kept as a copy of each session's report as sent: re-evaluation updates
// a session's report object in place (engine/sessionReport.ts), so the report itself cannot say
// what it said before. Each delta compares the reports with these copies and brings the copies
// up to date, field by field, instead of copying 2,000 sessions per save.
import { changedSessionFields, changedVerdictFields, copySessionFields, sessionFieldsCopy, sessionJson } from '../hermes/engine/reportJson';
import type { ProfileReport, SessionReport } from '../hermes/engine/types';
import type { ProfileDeltaDto, SessionDto, SessionListChange, SessionListResult } from '../../shared/protocol';
import { profileSummaryDto } from './dto';
import type { HermesModel } from './hermesModel';
import { SentSessions } from './sentSessions';
import { SessionPatchColumns } from './sessionPatches';

interface SentList {
  readonly home: string | null;
  readonly problem: string | null;
  /** The profiles' reports when last sent (their summaries; later evaluations update their sessions' objects). */
  readonly profiles: readonly ProfileReport[];
  /** What the client holds of each profile's sessions, in its order (Held). */
  readonly held: readonly Held[];
}

/**
 * A client's sessions as the server keeps them, in the client's order: copies of what was sent,
 * updated by each delta; the report object each copy was last brought up to date from (while a
 * session's report is the same object, only its verdict can have changed since); and their index
 * by id where a delta needed one (the client keeps its order while Hermes writes move sessions to
 * the top of the report), valid while the list keeps its sessions.
 */
interface Held {
  readonly copies: readonly SessionReport[];
  readonly from: readonly SessionReport[];
  readonly index: Map<string, number> | undefined;
}

type CurrentList = Omit<SentList, 'held'>;

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
    const now = this.current();
    if (!before || !sameProfiles(before, now)) {
      this.remember(now);
      return this.fullList();
    }
    const base = this.revision;
    this.revision += 1;
    const held: Held[] = [];
    const profiles = now.profiles.map((report, i) => {
      const next = profileDelta(before.held[i]!, report);
      held.push(next.held);
      return next.delta;
    });
    this.sent = { ...now, held };
    return { revision: this.revision, base, home: now.home, problem: now.problem, profiles };
  }

  /**
   * The full list (the `hermes/sessionList` request). It is the last list sent, at its revision, as
   * every change of the model is sent at once; should the model have moved on unsent, the answer
   * gets a new revision so later deltas start from it. Its sessions are in the order the client
   * holds them (new ones at the end), not the report's: the next delta names sessions by their
   * place in it, and a client that fetched the list replaces its own with it.
   */
  fullList(): SessionListResult {
    if (!this.sent || !sameAsModel(this.sent, this.model)) this.remember(this.current());
    const sent = this.sent!;
    return {
      revision: this.revision,
      home: sent.home,
      problem: sent.problem,
      profiles: sent.profiles.map((report, i) => ({ ...profileSummaryDto(report), sessions: sent.held[i]!.from.map(sessionJson) })),
    };
  }

  private current(): CurrentList {
    return { home: this.model.home?.root ?? null, problem: this.model.problem ?? null, profiles: this.model.profiles().map((a) => a.report) };
  }

  /** `list` goes out whole, at a new revision: the client will hold a copy of every session. */
  private remember(list: CurrentList): void {
    this.revision += 1;
    this.sent = { ...list, held: list.profiles.map((report) => ({ copies: report.sessions.map(sessionFieldsCopy), from: report.sessions.slice(), index: undefined })) };
  }
}

/**
 * What changed of `report` since the client was sent `before` (its list, in its order), and that
 * list once the client applies the delta: the sessions held in their order without those removed,
 * their copies brought up to date, then copies of the new ones.
 */
function profileDelta(before: Held, report: ProfileReport): { delta: ProfileDeltaDto; held: Held } {
  const sessions = report.sessions;
  const sent = new SentSessions(before.copies, before.index);
  // Where each session sits in the list held (-1: new), then where it will sit once the removed ones are out.
  const heldAt = new Int32Array(sessions.length);
  for (let i = 0; i < sessions.length; i++) heldAt[i] = sent.indexOf(sessions[i]!.id, i);
  const kept = sent.allFound ? undefined : keptPositions(before.copies, sent);
  const stays = (_: SessionReport, h: number) => sent.wasFound(h);
  const copies = kept ? before.copies.filter(stays) : before.copies.slice();
  const from = kept ? before.from.filter(stays) : before.from.slice();
  const pass = new DeltaPass(before, copies, from, kept);
  for (let i = 0; i < sessions.length; i++) pass.compare(sessions[i]!, heldAt[i]!);
  const { changed, patches } = pass;
  const removed = kept ? before.copies.filter((_, h) => !sent.wasFound(h)).map((s) => s.id) : [];
  // The same sessions in the same places: the index by id holds for the next delta too.
  const index = removed.length === 0 && copies.length === before.copies.length ? sent.index : undefined;
  return { delta: { ...profileSummaryDto(report), changed, patched: patches.patches, removed }, held: { copies, from, index } };
}

/**
 * One delta's pass over the sessions, one `compare` per session: a method of its own rather than
 * a loop in profileDelta, which runs once per delta and is optimized by V8 only after several
 * saves; this one runs 2,000 times in the first (see SessionPass in analyzeProfile.ts).
 */
class DeltaPass {
  /** Sessions sent whole: those the client does not hold, and those a patch cannot carry. */
  readonly changed: SessionDto[] = [];
  readonly patches = new SessionPatchColumns();

  constructor(
    private readonly before: Held,
    /** The held copies (and the reports they come from) once the delta is applied, brought up to date here. */
    private readonly copies: SessionReport[],
    private readonly from: SessionReport[],
    /** Each held session's position once the removed ones are out; undefined when none was removed. */
    private readonly kept: Int32Array | undefined,
  ) {}

  /** `session`, held at `h` of the list sent (-1: new). */
  compare(session: SessionReport, h: number): void {
    if (h < 0) {
      this.changed.push(sessionJson(session));
      this.copies.push(sessionFieldsCopy(session));
      this.from.push(session);
      return;
    }
    const held = this.before.copies[h]!;
    const position = this.kept ? this.kept[h]! : h;
    const fields = this.before.from[h] === session ? changedVerdictFields(held, session) : changedSessionFields(held, session);
    this.from[position] = session;
    if (fields === 0) return;
    if (!this.patches.add(session, fields, position)) this.changed.push(sessionJson(session));
    copySessionFields(held, session, fields);
  }
}

/** Each held session's position once those not found are taken out (-1 for those). */
function keptPositions(held: readonly SessionReport[], sent: SentSessions): Int32Array {
  const positions = new Int32Array(held.length);
  let next = 0;
  for (let h = 0; h < held.length; h++) positions[h] = sent.wasFound(h) ? next++ : -1;
  return positions;
}

/** The same profiles in the same order (the client matches a delta's profiles by position). */
function sameProfiles(a: SentList, b: CurrentList): boolean {
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
