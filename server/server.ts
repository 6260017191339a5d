// The Hermes Prompt Lens language server: wiring only. The Hermes domain layer (server/hermes)
// knows nothing of LSP; each feature lives in server/lsp/features, one file each.
import {
  CodeActionKind,
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
import { DiagnosticsSent } from './lsp/diagnosticsSent';
import { provideHover } from './lsp/features/hover';
import { anatomyDto, diffDto, mapDto } from './lsp/features/promptViews';
import { FirstAnalysis } from './lsp/firstAnalysis';
import { HermesModel } from './workspace/hermesModel';
import { Log } from './lsp/log';
import { RefreshService } from './workspace/refreshService';
import { SavePreviews } from './lsp/savePreviews';
import { warmCounts } from './lsp/warmCounts';
import { SessionListRevisions } from './workspace/sessionListRevisions';
import { SettingsService } from './lsp/settings';
import { StaleBaseline } from './workspace/staleBaseline';
import { Publisher } from './lsp/publisher';
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
  CancelRefreshWhenFreeRequest,
  SavePreviewRequest,
  SessionListRequest,
  TrustChangedNotification,
  type HermesInitializationOptions,
  type RefreshParams,
} from '../shared/protocol';
import type { HermesLensSettings } from '../shared/settings';
import { PrefixFamiliesRequest } from '../shared/prefixFamilies';
import { familiesJson } from './hermes/families/familiesJson';

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
  const publisher = new Publisher({
    connection,
    documents,
    model,
    sessionLists,
    staleBaseline,
    diagnosticsSent,
    log,
    canRefreshLenses: () => canRefreshLenses,
    buildSeenAgain,
    guard,
  });
  const whenFree = new WhenFreeService(model, refresh, () => trusted, log, {
    scheduleChanged: (entries) => void connection.sendNotification(RefreshScheduleChangedNotification, { entries }),
    sessionsChanged: () => publisher.publishAll('sessions'),
  });
  const watcher = new SourceWatcher({
    onSourcesChanged: (paths) => publisher.sourcesChanged(paths),
    onDatabaseChanged: (dirs) => publisher.databaseChanged(dirs),
    onDatabaseSettled: (dirs) => publisher.databaseSettled(dirs),
  });
  publisher.attach(watcher, whenFree);

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
    publisher.refreshLenses();
  });

  async function reconfigure(): Promise<void> {
    try {
      settings = await settingsService.get(firstFolderUri());
      log.setLevel(settings.trace.server === 'verbose' ? 'debug' : 'info');
      const progress = await connection.window.createWorkDoneProgress().catch(() => undefined);
      progress?.begin('Hermes: reading sessions', undefined, settings.home || 'default home');
      const started = Date.now();
      // The first list from what an earlier run kept where it can; what features need of every
      // stored prompt is worked out once the list is out, before requests that need it are answered.
      model.configureFromKept({ home: settings.home, profiles: settings.profiles, priceOverrides: priceOverridesOf(settings, log), hermesInstall: settings.hermesInstall });
      sessionLists.reset();
      staleBaseline.reset(publisher.sessionsByProfile());
      whenFree.start();
      progress?.done();
      log.info(`Hermes home ${model.home?.root ?? '(none)'}: ${model.profiles().length} profile(s) read in ${Date.now() - started} ms.`);
      log.info(buildSummary(model.build));
      logSqliteDriver(log);
      if (model.problem) log.warn(model.problem);
      // Where profiles are to be evaluated again once the list is out, the folders are watched
      // then too, before that evaluation: it reads every row and source again, so what changed
      // before the watch began is in it (watching a thousand skill folders takes a while).
      const completing = model.incomplete;
      publisher.publishAll('everything', undefined, !completing);
      await publisher.written();
      if (completing) {
        publisher.watch();
        if (guard(() => model.completeAnalyses(), false)) publisher.publishAll('sessions');
      }
    } finally {
      // Requests waiting for the first analysis are answered now, with what there is.
      firstAnalysis.finish();
    }
  }

  documents.onDidChangeContent((e) => {
    // Counted first: a client that saves as soon as the diagnostics are back finds the count made.
    warmCounts(model, e.document);
    publisher.publishDiagnostics(e.document);
  });
  documents.onDidClose((e) => {
    savePreviews.forget(e.document.uri);
    publisher.closed(e.document.uri);
  });
  documents.onDidSave((e) => publisher.saved(e.document));

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
  connection.onRequest(CancelRefreshWhenFreeRequest, (params) => afterFirstAnalysis(() => asResponse(() => whenFree.cancel(params))));
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
  connection.onRequest(PrefixFamiliesRequest, () => afterFirstAnalysis(() => asResponse(() => familiesJson(model.prefixes.report()))));

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
    publisher.publishAll();
  }

  function runRefresh(params: RefreshParams) {
    return asResponse(() => {
      buildSeenAgain();
      const result = refresh.run(params);
      log.info(`Refresh requested in profile ${result.profile}: ${result.message}`);
      publisher.publishAll('sessions');
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

/** Price overrides from the settings object; a malformed entry is reported, the rest used. */
function priceOverridesOf(settings: HermesLensSettings, log: Log) {
  if (Object.keys(settings.priceOverrides).length === 0) return undefined;
  const parsed = parsePriceOverrides(settings.priceOverrides, 'the hermesLens.priceOverrides setting');
  if (parsed.problem) log.warn(parsed.problem);
  return parsed.overrides;
}

/** Which SQLite binding reads state.db in this runtime, or each binding's failure (in the Output channel). */
function logSqliteDriver(log: Log): void {
  const sqlite = sqliteDriverStatus();
  if (sqlite.driver) log.info(`SQLite binding: ${sqlite.driver} (SQLite ${sqlite.sqliteVersion}) in Node.js ${process.version}, ${process.platform}-${process.arch}.`);
  else log.warn(sqlite.problem ?? 'No SQLite binding loads.');
}

if (require.main === module) {
  startServer(createConnection(ProposedFeatures.all));
}
