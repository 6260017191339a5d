// The Hermes Prompt Lens language server: wiring only. The Hermes domain layer (server/hermes)
// knows nothing of LSP; each feature lives in server/lsp/features, one file each.
import fs = require('node:fs');
import {
  CodeActionKind,
  CodeLensRefreshRequest,
  createConnection,
  ProposedFeatures,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HelperTokenCounter } from './tokenHelper/helperTokenCounter';
import { parsePriceOverrides } from './hermes/cost/prices';
import { countUncachedWith } from './hermes/cost/tokens';
import { describeError, HermesError } from './hermes/errors';
import { buildSummary } from './hermes/install/describeBuild';
import { sqliteDriverStatus } from './hermes/store/connection';
import { provideCodeActions } from './lsp/features/codeActions';
import { provideCodeLenses } from './lsp/features/codeLens';
import { diagnoseDocument, diagnosticsFollowSessions } from './lsp/features/diagnostics';
import { DiagnosticsSent } from './lsp/diagnosticsSent';
import { provideHover } from './lsp/features/hover';
import { anatomyDto, diffDto, mapDto } from './lsp/features/promptViews';
import { statusOf } from './workspace/dto';
import { FirstAnalysis } from './lsp/firstAnalysis';
import { HermesModel } from './workspace/hermesModel';
import { Log } from './lsp/log';
import { RefreshService } from './workspace/refreshService';
import { SavePreviews } from './lsp/savePreviews';
import { SessionListRevisions } from './workspace/sessionListRevisions';
import { SettingsService } from './lsp/settings';
import { StaleBaseline, type ProfileSessions } from './workspace/staleBaseline';
import { uriToPath } from './lsp/uri';
import { actionsStillReading, hoverStillReading, lensesStillReading, STILL_READING } from './lsp/stillReading';
import { SourceWatcher } from './workspace/watch';
import { WhenFreeService } from './workspace/whenFreeService';
import {
  Commands,
  PromptAnatomyRequest,
  PromptDiffRequest,
  PromptMapRequest,
  RefreshPreviewRequest,
  RefreshRequest,
  RefreshScheduleChangedNotification,
  RefreshWhenFreeRequest,
  SavedSourceNotification,
  SavePreviewRequest,
  SessionListChangedNotification,
  SessionListRequest,
  StatusNotification,
  TrustChangedNotification,
  type HermesInitializationOptions,
  type RefreshParams,
} from '../shared/protocol';
import type { HermesLensSettings } from '../shared/settings';

export function startServer(connection: Connection): void {
  // Text no cache knows is counted in a helper process: the tokenizer's tables never stay in the server.
  countUncachedWith(new HelperTokenCounter().count);
  const documents = new TextDocuments(TextDocument);
  const log = new Log(connection);
  const model = new HermesModel();
  let trusted = false;
  let hoverCommandLinks = false;
  let canPullConfiguration = false;
  let canRefreshLenses = false;
  let settings: HermesLensSettings | undefined;
  let folders: string[] = [];
  const settingsService = new SettingsService(connection, () => canPullConfiguration);
  const refresh = new RefreshService(model, () => trusted, () => settings?.refreshStrategy ?? 'epoch');
  const staleBaseline = new StaleBaseline();
  const sessionLists = new SessionListRevisions(model);
  const diagnosticsSent = new DiagnosticsSent();
  /** Answers that need the home read wait for its first analysis (bounded: lsp/firstAnalysis.ts). */
  const firstAnalysis = new FirstAnalysis();
  const savePreviews = new SavePreviews(model);
  const whenFree = new WhenFreeService(model, refresh, () => trusted, log, {
    scheduleChanged: (entries) => void connection.sendNotification(RefreshScheduleChangedNotification, { entries }),
    sessionsChanged: () => publishAll('sessions'),
  });
  /** Saves already evaluated, so the watcher's echo of the same write is skipped. */
  const handledSaves = new Map<string, number>();
  const watcher = new SourceWatcher({
    onSourcesChanged(paths) {
      const fresh = paths.filter((p) => handledSaves.get(p) !== mtimeOf(p));
      if (fresh.length === 0) return;
      log.debug(() => `sources changed: ${fresh.join(', ')}`);
      model.sourcesChanged(fresh);
      publishAll();
    },
    onDatabaseChanged(dirs) {
      // Only the sessions a write touched are read again here; the full scan follows once settled.
      if (!guard(() => model.databaseChanged(dirs), true)) return;
      log.debug(() => `state.db changed in ${dirs.join(', ')}`);
      publishAll('sessions');
    },
    onDatabaseSettled(dirs) {
      // Hermes writes once it runs again, which is when an upgraded (or another) build shows.
      buildSeenAgain();
      if (!guard(() => model.verifyDatabases(dirs), true)) {
        settleCounts();
        return;
      }
      log.debug(() => `state.db rows changed without a message in ${dirs.join(', ')}`);
      publishAll('settled');
    },
  });

  connection.onInitialize((params: InitializeParams) => {
    const options = (params.initializationOptions ?? {}) as Partial<HermesInitializationOptions>;
    // Clients that do not speak of trust (Neovim, a plain LSP client) are trusted like a CLI.
    trusted = options.isTrusted ?? true;
    hoverCommandLinks = options.hoverCommandLinks === true;
    canPullConfiguration = Boolean(params.capabilities.workspace?.configuration);
    canRefreshLenses = Boolean(params.capabilities.workspace?.codeLens?.refreshSupport);
    folders = (params.workspaceFolders ?? []).map((f) => f.uri);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        executeCommandProvider: { commands: [Commands.refresh] },
      },
      serverInfo: { name: 'hermes-prompt-lens' },
    };
  });

  connection.onInitialized(async () => {
    await reconfigure();
  });

  connection.onDidChangeConfiguration(async (change) => {
    settingsService.invalidate(change.settings);
    await reconfigure();
  });

  connection.onNotification(TrustChangedNotification, ({ isTrusted }) => {
    trusted = isTrusted;
    refreshLenses();
  });

  async function reconfigure(): Promise<void> {
    try {
      settings = await settingsService.get(firstFolderUri());
      log.setLevel(settings.trace.server === 'verbose' ? 'debug' : 'info');
      const progress = await connection.window.createWorkDoneProgress().catch(() => undefined);
      progress?.begin('Hermes: reading sessions', undefined, settings.home || 'default home');
      const started = Date.now();
      model.configure({ home: settings.home, profiles: settings.profiles, priceOverrides: priceOverridesOf(settings, log), hermesInstall: settings.hermesInstall });
      sessionLists.reset();
      staleBaseline.reset(sessionsByProfile());
      whenFree.start();
      progress?.done();
      log.info(`Hermes home ${model.home?.root ?? '(none)'}: ${model.profiles().length} profile(s) read in ${Date.now() - started} ms.`);
      log.info(buildSummary(model.build));
      if (model.problem) log.warn(model.problem);
      publishAll();
    } finally {
      // Requests waiting for the first analysis are answered now, with what there is.
      firstAnalysis.finish();
    }
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
   * re-evaluation came in between.
   */
  function publishAll(changed: 'everything' | 'sessions' | 'settled' = 'everything', then?: (sessions: ProfileSessions) => void): void {
    watcher.update(model.profiles().map((a) => a.profile.dir), model.projectDirs());
    const driver = sqliteDriverStatus();
    void connection.sendNotification(StatusNotification, statusOf(model, driver.driver ?? null, driver.problem));
    const sent = connection.sendNotification(SessionListChangedNotification, sessionLists.nextChange());
    // The count of sessions holding a stored prompt is an aggregate over every session (about 30 ms
    // on 20,000): re-evaluations leave it for after the change is written out, to follow in a change
    // of its own; Hermes writes leave it for when their burst has settled (a turn is several
    // commits, and each counted again was that much of the server's thread per commit).
    if (changed !== 'sessions') sent.then(settleCounts, () => undefined);
    setImmediate(() =>
      guard(() => {
        const sessions = sessionsByProfile();
        staleBaseline.settle(sessions);
        refreshLenses();
        // A session current, refreshed, ended or active again: its refresh when free is settled.
        whenFree.reconcile();
        for (const document of documents.all()) {
          if (changed === 'everything' || diagnosticsFollowSessions(model, document)) publishDiagnostics(document);
        }
        then?.(sessions);
      }, undefined),
    );
  }

  function settleCounts(): void {
    const changed = guard(() => model.settleStoredPromptCounts().length > 0, false);
    if (changed) void connection.sendNotification(SessionListChangedNotification, sessionLists.nextChange());
  }

  function refreshLenses(): void {
    if (canRefreshLenses) connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  }

  function publishDiagnostics(document: TextDocument): void {
    try {
      const diagnostics = diagnoseDocument(model, document);
      if (!diagnosticsSent.takeChanged(document.uri, document.version, diagnostics)) return;
      void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
    } catch (error) {
      log.error(`Diagnostics failed for ${document.uri}: ${describeError(error)}`);
    }
  }

  documents.onDidChangeContent((e) => publishDiagnostics(e.document));
  documents.onDidClose((e) => {
    diagnosticsSent.forget(e.document.uri);
    savePreviews.forget(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });
  documents.onDidSave((e) => {
    const file = uriToPath(e.document.uri);
    if (!file) return;
    handledSaves.set(file, mtimeOf(file));
    model.sourcesChanged([file]);
    publishAll('everything', (sessions) => {
      if (!model.roleOf(file)) return;
      const reports = new Map(model.profiles().map((a) => [a.profile.name, a.report]));
      for (const [profile, newly] of staleBaseline.takeNew(sessions)) {
        const report = reports.get(profile)!;
        void connection.sendNotification(SavedSourceNotification, {
          uri: e.document.uri,
          profile,
          newlyStale: newly.length,
          staleTotal: report.totals.stale,
          staleRefreshCostUsd: report.totals.staleRefreshCostUsd,
        });
      }
    });
  });

  function sessionsByProfile(): ProfileSessions {
    return new Map(model.profiles().map(({ profile, report }) => [profile.name, report.sessions]));
  }


  // Each waits for the first analysis of the home; past the wait, what is known and a word that more is coming.
  connection.onHover((params) =>
    firstAnalysis.answer((stillRunning) => {
      const document = documents.get(params.textDocument.uri);
      const hover = guard(() => provideHover(model, document, params, savePreviews.of(document), hoverCommandLinks), null);
      return stillRunning ? hoverStillReading(hover) : hover;
    }),
  );
  connection.onCodeLens((params) =>
    firstAnalysis.answer((stillRunning) => {
      const lenses = guard(() => provideCodeLenses(model, params, savePreviews.of(documents.get(params.textDocument.uri))), []);
      return stillRunning ? lensesStillReading(lenses) : lenses;
    }),
  );
  connection.onRequest(SavePreviewRequest, (params) => afterFirstAnalysis(() => guard(() => savePreviews.of(documents.get(params.uri)) ?? null, null)));
  connection.onCodeAction((params) =>
    firstAnalysis.answer((stillRunning) => {
      const actions = guard(() => provideCodeActions(model, params, trusted), []);
      return stillRunning ? actionsStillReading(actions) : actions;
    }),
  );

  connection.onExecuteCommand(async (params) => {
    if (params.command !== Commands.refresh) throw new ResponseError(-32601, `Unknown command ${params.command}`);
    return afterFirstAnalysis(() => runRefresh((params.arguments?.[0] ?? {}) as RefreshParams));
  });
  connection.onRequest(RefreshRequest, (params) => afterFirstAnalysis(() => runRefresh(params)));
  connection.onRequest(RefreshPreviewRequest, (params) => afterFirstAnalysis(() => asResponse(() => (buildSeenAgain(), refresh.preview(params)))));
  connection.onRequest(RefreshWhenFreeRequest, (params) => afterFirstAnalysis(() => asResponse(() => (buildSeenAgain(), whenFree.request(params)))));
  connection.onRequest(SessionListRequest, () =>
    firstAnalysis.answer((stillRunning) => {
      if (!stillRunning) buildSeenAgain();
      const list = sessionLists.fullList();
      return stillRunning ? { ...list, problem: list.problem ?? STILL_READING } : list;
    }),
  );
  connection.onRequest(PromptAnatomyRequest, (params) => afterFirstAnalysis(() => asResponse(() => anatomyDto(model, params))));
  connection.onRequest(PromptDiffRequest, (params) => afterFirstAnalysis(() => asResponse(() => diffDto(model, params))));
  connection.onRequest(PromptMapRequest, (params) => afterFirstAnalysis(() => asResponse(() => mapDto(model, params))));

  /** A request about the sessions, once the first analysis has finished; past the wait, an error that says it is still running. */
  function afterFirstAnalysis<T>(work: () => T | ResponseError<void>): T | ResponseError<void> | Promise<T | ResponseError<void>> {
    return firstAnalysis.answer((stillRunning) => (stillRunning ? new ResponseError<void>(1, STILL_READING) : work()));
  }

  /**
   * Reads the Hermes build again before what depends on it most (a refresh, its preview, a reload of
   * the list): a confirmation must name the build that will read the request. A change is published.
   */
  function buildSeenAgain(): void {
    if (!guard(() => model.redetectBuild(), false)) return;
    log.info(buildSummary(model.build));
    publishAll();
  }

  function runRefresh(params: RefreshParams) {
    return asResponse(() => {
      buildSeenAgain();
      const result = refresh.run(params);
      log.info(`Refresh requested in profile ${result.profile}: ${result.message}`);
      publishAll('sessions');
      return result;
    });
  }

  /** Expected problems go back as one clear error message; the server stays up either way. */
  function asResponse<T>(work: () => T): T | ResponseError<void> {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof HermesError)) log.error(`Request failed: ${(error as Error)?.stack ?? describeError(error)}`);
      return new ResponseError(1, describeError(error));
    }
  }

  function guard<T>(work: () => T, fallback: T): T {
    try {
      return work();
    } catch (error) {
      log.error(`Request failed: ${(error as Error)?.stack ?? describeError(error)}`);
      return fallback;
    }
  }

  function firstFolderUri(): string | undefined {
    return folders[0];
  }

  connection.onShutdown(() => {
    watcher.dispose();
    whenFree.dispose();
    // Close the read connections kept per profile (on Windows an open handle would lock the file).
    model.dispose();
  });
  documents.listen(connection);
  connection.listen();
}

function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/** Price overrides from the settings object; a malformed entry is reported, the rest used. */
function priceOverridesOf(settings: HermesLensSettings, log: Log) {
  if (Object.keys(settings.priceOverrides).length === 0) return undefined;
  const parsed = parsePriceOverrides(settings.priceOverrides, 'the hermesLens.priceOverrides setting');
  if (parsed.problem) log.warn(parsed.problem);
  return parsed.overrides;
}

if (require.main === module) {
  startServer(createConnection(ProposedFeatures.all));
}
