// The open home's prefix families, as the language server's features ask for them: the families
// themselves from the analyses (regrouped only when a session's report was replaced: a save of
// SOUL.md replaces none), and their partings, read from the stored prompts and request times
// through the connections the model keeps, worked out when first asked after that.
import type { ProfileAnalysis } from '../hermes/engine/analyzeProfile';
import type { SessionReport } from '../hermes/engine/types';
import { explainPartings, familiesOf } from '../hermes/families/prefixFamilies';
import type { ProfileReading } from '../hermes/families/readings';
import type { FamiliesReport, PrefixFamily, PrefixMember } from '../hermes/families/types';
import type { PriceOverrides } from '../hermes/cost/prices';
import type { StateStore } from '../hermes/store/stateStore';
import type { SessionRecord } from '../hermes/model';
import type { PartingPlaces } from '../hermes/families/prefixFamilies';

/** Pairs' places kept at most (a home of thousands of prompts explains a few dozen pairs). */
const PLACES_KEPT = 2048;

/** What the families read of the open home. */
export interface FamiliesSource {
  readonly home: { readonly root: string } | undefined;
  profiles(): ProfileAnalysis[];
  /** The read connection kept for a profile's state.db. */
  keptStore(analysis: ProfileAnalysis): StateStore;
  readonly priceOverrides: PriceOverrides | undefined;
}

interface Grouped {
  /** Per profile, the report objects the families were grouped from. */
  readonly basis: ReadonlyArray<readonly SessionReport[]>;
  readonly analyses: readonly ProfileAnalysis[];
  readonly members: PrefixMember[];
  readonly families: PrefixFamily[];
  readonly revision: number;
  report?: FamiliesReport;
}

export class PrefixFamilies {
  private grouped: Grouped | undefined;
  private revisions = 0;
  /** The report objects last announced as a change (takeChange). */
  private announced: ReadonlyArray<readonly SessionReport[]> | undefined;
  private changes = 0;
  /** Where pairs of prompts part, kept across regroupings (reading two prompts is a report's cost), while the profiles' SOUL.md read the same. */
  private readonly places = new Map<string, PartingPlaces>();
  private placesFor: readonly object[] = [];
  /** Each session's request times, by the row they were read at (a Hermes write changes the row of the session it touches). */
  private readonly times = new WeakMap<SessionRecord, readonly number[]>();

  constructor(private readonly source: FamiliesSource) {}

  /** Bumped whenever the families may have changed since the last time they were asked for. */
  get revision(): number {
    return this.current().revision;
  }

  /** The families, regrouped only when a session's report object changed. */
  families(): readonly PrefixFamily[] {
    return this.current().families;
  }

  /** The families and where those that could share part (reads a few prompts the first time after a change). */
  report(): FamiliesReport {
    const grouped = this.current();
    if (!grouped.report) {
      const readings = this.readings(grouped.analyses);
      const home = this.source.home?.root ?? '';
      grouped.report = { homes: home ? [home] : [], families: grouped.families, ...explainPartings(grouped.members, grouped.families, readings, { priceOverrides: this.source.priceOverrides, places: this.keptPlaces(grouped.analyses) }) };
    }
    return grouped.report;
  }

  /** The families if they were grouped since the last change (a hover regroups nothing). */
  familiesIfKnown(): readonly PrefixFamily[] | undefined {
    return this.grouped && sameBasis(this.grouped.basis, this.source.profiles()) ? this.grouped.families : undefined;
  }

  /** The report if it was worked out since the last change (a hover never reads prompts). */
  reportIfKnown(): FamiliesReport | undefined {
    return this.grouped && sameBasis(this.grouped.basis, this.source.profiles()) ? this.grouped.report : undefined;
  }

  /**
   * Whether the families may have changed since the last time this said so (a session's report was
   * replaced): the client is told, and asks again if it shows them. Nothing is regrouped here.
   */
  takeChange(): boolean {
    const analyses = this.source.profiles();
    if (this.announced && sameBasis(this.announced, analyses)) return false;
    this.announced = analyses.map((a) => a.report.sessions);
    this.changes++;
    return true;
  }

  /** Counts the changes takeChange announced. */
  get announcedChanges(): number {
    return this.changes;
  }

  private current(): Grouped {
    const analyses = this.source.profiles();
    if (this.grouped && sameBasis(this.grouped.basis, analyses)) return this.grouped;
    const home = this.source.home?.root ?? '';
    const { members, families } = familiesOf(this.readings(analyses).map((r) => ({ ...r, home })), { priceOverrides: this.source.priceOverrides });
    this.grouped = { basis: analyses.map((a) => a.report.sessions), analyses, members, families, revision: ++this.revisions };
    return this.grouped;
  }

  /** The places kept, dropped when a profile's SOUL.md reads otherwise (the words name its lines). */
  private keptPlaces(analyses: readonly ProfileAnalysis[]): Map<string, PartingPlaces> {
    const souls = analyses.map((a) => a.sourcesFor(undefined).soul);
    if (souls.length !== this.placesFor.length || souls.some((s, i) => s !== this.placesFor[i]) || this.places.size > PLACES_KEPT) this.places.clear();
    this.placesFor = souls;
    return this.places;
  }

  private readings(analyses: readonly ProfileAnalysis[]): ProfileReading[] {
    const home = this.source.home?.root ?? '';
    return analyses.map((analysis) => ({
      home,
      analysis,
      anatomyOf: (sessionId) => analysis.anatomyOf(sessionId),
      requestTimes: (sessionIds, since) => this.requestTimes(analysis, sessionIds, since),
    }));
  }

  /** Request times read only for the sessions whose row changed since they were last read. */
  private requestTimes(analysis: ProfileAnalysis, sessionIds: readonly string[], since: number): ReadonlyMap<string, readonly number[]> {
    const out = new Map<string, readonly number[]>();
    const missing: Array<{ id: string; record: SessionRecord | undefined }> = [];
    for (const id of sessionIds) {
      const record = analysis.inputsOf(id)?.record;
      const kept = record && this.times.get(record);
      if (kept) out.set(id, kept.filter((t) => t >= since));
      else missing.push({ id, record });
    }
    if (missing.length > 0) {
      const read = this.source.keptStore(analysis).requestTimes(missing.map((m) => m.id), since);
      for (const { id, record } of missing) {
        const times = read.get(id) ?? [];
        if (record) this.times.set(record, times);
        out.set(id, times);
      }
    }
    return out;
  }
}

/** The same profiles holding the same report objects: reports are updated in place, and a new basis makes a new one. */
function sameBasis(basis: ReadonlyArray<readonly SessionReport[]>, analyses: readonly ProfileAnalysis[]): boolean {
  if (analyses.length !== basis.length) return false;
  for (let i = 0; i < analyses.length; i++) {
    const now = analyses[i]!.report.sessions;
    const was = basis[i]!;
    if (now === was) continue;
    if (now.length !== was.length) return false;
    for (let k = 0; k < now.length; k++) if (now[k] !== was[k]) return false;
  }
  return true;
}
