// What the language server sends after a change, and in which order: the status and the session
// list first, then lenses, diagnostics and the note after a save. server.ts only routes events here.
import fs = require('node:fs');
import { CodeLensRefreshRequest, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { describeError } from '../hermes/errors';
import { sqliteDriverStatus } from '../hermes/store/connection';
import { statusOf } from '../workspace/dto';
import type { HermesModel } from '../workspace/hermesModel';
import type { SessionListRevisions } from '../workspace/sessionListRevisions';
import type { ProfileSessions, StaleBaseline } from '../workspace/staleBaseline';
import type { SourceWatcher } from '../workspace/watch';
import type { WhenFreeService } from '../workspace/whenFreeService';
import { SavedSourceNotification, SessionListChangedNotification, StatusNotification } from '../../shared/protocol';
import { PrefixFamiliesChangedNotification } from '../../shared/prefixFamilies';
import { diagnoseDocument, diagnosticsFollowSessions } from './features/diagnostics';
import type { DiagnosticsSent } from './diagnosticsSent';
import type { Log } from './log';
import { uriToPath } from './uri';

/** What changed: everything (a source, the settings), a Hermes write, or the last write of a burst. */
export type Change = 'everything' | 'sessions' | 'settled';

export interface PublisherParts {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly model: HermesModel;
  readonly sessionLists: SessionListRevisions;
  readonly staleBaseline: StaleBaseline;
  readonly diagnosticsSent: DiagnosticsSent;
  readonly log: Log;
  /** Whether the client refreshes code lenses when asked (known after initialize). */
  readonly canRefreshLenses: () => boolean;
  /** Reads the Hermes build again; publishes when it changed. */
  readonly buildSeenAgain: () => void;
  /** Runs `work`, logging a failure and answering `fallback` (the server stays up). */
  readonly guard: <T>(work: () => T, fallback: T) => T;
}

/** How long moved watches of refresh requests wait to be written (keepAdoptionSoon). */
const ADOPTION_KEPT_AFTER_MS = 1000;

export class Publisher {
  /** Saves already evaluated, so the watcher's echo of the same write is skipped. */
  private readonly handledSaves = new Map<string, number>();
  private watcher: SourceWatcher | undefined;
  private whenFree: WhenFreeService | undefined;
  /** Settles once the last session list change published is written out. */
  private listSent: Promise<void> = Promise.resolve();
  private adoptionTimer: NodeJS.Timeout | undefined;

  constructor(private readonly parts: PublisherParts) {}

  /** The watcher whose folders follow the model, and the schedule settled after each change (both made after this). */
  attach(watcher: SourceWatcher, whenFree: WhenFreeService): void {
    this.watcher = watcher;
    this.whenFree = whenFree;
  }

  /** The watcher saw instruction files change: those not already evaluated as a save are. */
  sourcesChanged(paths: readonly string[]): void {
    const fresh = paths.filter((p) => this.handledSaves.get(p) !== mtimeOf(p));
    if (fresh.length === 0) return;
    this.parts.log.debug(() => `sources changed: ${fresh.join(', ')}`);
    this.parts.model.sourcesChanged(fresh);
    this.publishAll();
  }

  /** Only the sessions a write touched are read again here; the full scan follows once settled. */
  databaseChanged(dirs: readonly string[]): void {
    if (!this.parts.guard(() => this.parts.model.databaseChanged(dirs), true)) return;
    this.parts.log.debug(() => `state.db changed in ${dirs.join(', ')}`);
    this.publishAll('sessions');
  }

  databaseSettled(dirs: readonly string[]): void {
    // Hermes writes once it runs again, which is when an upgraded (or another) build shows.
    this.parts.buildSeenAgain();
    if (!this.parts.guard(() => this.parts.model.verifyDatabases(dirs), true)) {
      this.settleCounts();
      return;
    }
    this.parts.log.debug(() => `state.db rows changed without a message in ${dirs.join(', ')}`);
    this.publishAll('settled');
  }

  /** A document was saved: evaluated now (not at the watcher's echo), then the sessions it made stale are told. */
  saved(document: TextDocument): void {
    const { model, staleBaseline, connection } = this.parts;
    const file = uriToPath(document.uri);
    if (!file) return;
    this.handledSaves.set(file, mtimeOf(file));
    model.sourcesChanged([file]);
    this.publishAll('everything', (sessions) => {
      if (!model.roleOf(file)) return;
      const reports = new Map(model.profiles().map((a) => [a.profile.name, a.report]));
      for (const [profile, newly] of staleBaseline.takeNew(sessions)) {
        const report = reports.get(profile)!;
        void connection.sendNotification(SavedSourceNotification, {
          uri: document.uri,
          profile,
          newlyStale: newly.length,
          staleTotal: report.totals.stale,
          staleRefreshCostUsd: report.totals.staleRefreshCostUsd,
        });
      }
    });
  }

  /**
   * Everything clients show, after a re-evaluation. The status and the session list go first: the
   * change a save or a Hermes write made is on its way to the client before the rest (lenses,
   * diagnostics) is worked out, in a task after the one that writes them out (vscode-jsonrpc
   * writes in a setImmediate of its own, queued when they were sent). The folders to watch are
   * brought up to date before, as a client that has seen the list may write at once, and the status
   * goes before the list, as a client that has seen the list may read the status. After a
   * change of the sessions alone (a Hermes write) only the documents whose diagnostics follow the
   * sessions are diagnosed again (`settled`: the last of a burst of them). `then` gets each
   * profile's sessions as the model has them when the rest runs: those published, unless another
   * re-evaluation came in between. `watchNow` false leaves the folders to a later `watch()`, for
   * a caller that reads everything again after it (the first list taken from the disk).
   */
  publishAll(changed: Change = 'everything', then?: (sessions: ProfileSessions) => void, watchNow = true): void {
    const { model, connection, sessionLists, guard } = this.parts;
    if (watchNow) this.watch();
    const driver = sqliteDriverStatus();
    void connection.sendNotification(StatusNotification, statusOf(model, driver.driver ?? null, driver.problem));
    const sent = connection.sendNotification(SessionListChangedNotification, sessionLists.nextChange());
    this.listSent = sent.then(
      () => undefined,
      () => undefined,
    );
    // The count of sessions holding a stored prompt is an aggregate over every session (about 30 ms
    // on 20,000): re-evaluations leave it for after the change is written out, to follow in a change
    // of its own; Hermes writes leave it for when their burst has settled (a turn is several
    // commits, and each counted again was that much of the server's thread per commit).
    if (changed !== 'sessions') sent.then(() => this.settleCounts(), () => undefined);
    setImmediate(() =>
      guard(() => {
        const sessions = this.sessionsByProfile();
        this.parts.staleBaseline.settle(sessions);
        this.refreshLenses();
        // A session current, refreshed, ended or active again: its refresh when free is settled.
        this.whenFree?.reconcile();
        for (const line of model.takeAdoptionNews()) this.parts.log.info(line);
        this.keepAdoptionSoon();
        for (const document of this.parts.documents.all()) {
          if (changed === 'everything' || diagnosticsFollowSessions(model, document)) this.publishDiagnostics(document);
        }
        // Clients that show the families ask for them again (nothing is worked out here).
        if (model.prefixes.takeChange()) void connection.sendNotification(PrefixFamiliesChangedNotification, { revision: model.prefixes.announcedChanges });
        then?.(sessions);
      }, undefined),
    );
  }

  /**
   * Watches of refresh requests that moved are kept for status and the other windows: written at
   * most once a second, whatever the number of Hermes writes meanwhile (each file holds every
   * watched session of a profile).
   */
  private keepAdoptionSoon(): void {
    if (this.adoptionTimer) return;
    this.adoptionTimer = setTimeout(() => {
      this.adoptionTimer = undefined;
      this.parts.guard(() => this.parts.model.persistAdoption(), undefined);
    }, ADOPTION_KEPT_AFTER_MS);
    this.adoptionTimer.unref?.();
  }

  /** Brings the watched folders up to date with the model's profiles and session cwds. */
  watch(): void {
    this.watcher?.update(
      this.parts.model.profiles().map((a) => a.profile.dir),
      this.parts.model.projectDirs(),
      [...this.parts.model.externalSkillDirs(), ...this.parts.model.projectSkillDirs()],
    );
  }

  /** Settles once the session list change last published is written out (or could not be). */
  written(): Promise<void> {
    return this.listSent;
  }

  /** Brings the deferred stored-prompt counts up to date, and sends the change if any moved. */
  settleCounts(): void {
    const changed = this.parts.guard(() => this.parts.model.settleStoredPromptCounts().length > 0, false);
    if (changed) void this.parts.connection.sendNotification(SessionListChangedNotification, this.parts.sessionLists.nextChange());
  }

  refreshLenses(): void {
    if (this.parts.canRefreshLenses()) this.parts.connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  }

  /** A document's diagnostics, sent only when they differ from those it has. */
  publishDiagnostics(document: TextDocument): void {
    try {
      const diagnostics = diagnoseDocument(this.parts.model, document);
      if (!this.parts.diagnosticsSent.takeChanged(document.uri, document.version, diagnostics)) return;
      void this.parts.connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    } catch (error) {
      this.parts.log.error(`Diagnostics failed for ${document.uri}: ${describeError(error)}`);
    }
  }

  /** A document was closed: it has no diagnostics any more. */
  closed(uri: string): void {
    this.parts.diagnosticsSent.forget(uri);
    void this.parts.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  sessionsByProfile(): ProfileSessions {
    return new Map(this.parts.model.profiles().map(({ profile, report }) => [profile.name, report.sessions]));
  }
}

function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}
