// A real LSP client for protocol tests: starts the bundled server (dist/server.js) over stdio with
// the V8 flags and environment VS Code gives it (shared/serverLaunch.ts), answers
// workspace/configuration from memory, records notifications, and offers typed helpers (initialize,
// open, hover, …). Waiting is always for a message, never for a fixed time. `hermes/sessionListChanged`
// is recorded as the full list after the change (applied as the VS Code client applies it), so tests
// wait on whole lists; the changes as sent are in `sessionListChanges`.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import {
  CodeActionRequest,
  CodeLensRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExecuteCommandRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  type CodeAction,
  type CodeLens,
  type Command,
  type Diagnostic,
  type Hover,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { pathToFileURL } from 'node:url';
import { SessionListChangedNotification, SessionListRequest, type SessionListChange, type SessionListResult } from '../../shared/protocol';
import { SessionListFollower } from '../../shared/sessionListChanges';
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../../shared/serverLaunch';

export const SERVER_BUNDLE = path.resolve(__dirname, '../../../dist/server.js');

/**
 * Extra Node options for the server process, opt-in through LENS_SERVER_NODE_ARGS (space-separated,
 * e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the server under a benchmark).
 */
function nodeArgsOf(env: NodeJS.ProcessEnv): string[] {
  return (env.LENS_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
}

type Listener = { method: string; predicate: (params: any) => boolean; resolve: (params: any) => void };

export class TestLspClient {
  readonly connection: ProtocolConnection;
  readonly process: ChildProcess;
  readonly notifications: Array<{ method: string; params: any }> = [];
  /** Every `hermes/sessionListChanged` as the server sent it (full lists and deltas). */
  readonly sessionListChanges: SessionListChange[] = [];
  /** The list each delta (by its revision) was applied to: its patches name sessions by their place in it. */
  readonly listBeforeDelta = new Map<number, SessionListResult>();
  /** What workspace/configuration answers for the `hermesLens` section. */
  settings: Record<string, unknown>;
  stderr = '';
  private listeners: Listener[] = [];
  /** Notifications dropped by forgetHistory: marks count them, so a mark taken before stays valid. */
  private forgotten = 0;
  private versions = new Map<string, number>();
  private readonly sessionList = new SessionListFollower(() => this.fetchSessionList());
  /** workspace/configuration is answered once this resolves (holdConfiguration). */
  private configurationGate: Promise<void> = Promise.resolve();

  constructor(settings: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env) {
    this.settings = settings;
    this.process = spawn(process.execPath, [...SERVER_EXEC_ARGV, ...nodeArgsOf(env), SERVER_BUNDLE, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...env, ...SERVER_ENV } });
    this.process.stderr!.on('data', (chunk) => (this.stderr += String(chunk)));
    const reader = new StreamMessageReader(this.process.stdout!);
    // The reader warns of a message still incomplete after 10 s with a timer that re-arms itself
    // and that dispose() leaves running: a server killed in the middle of a message (the protocol
    // tests kill theirs after each test) held the test process open for good. No warning is needed.
    reader.partialMessageTimeout = 0;
    this.connection = createProtocolConnection(reader, new StreamMessageWriter(this.process.stdin!));
    this.connection.onRequest(ConfigurationRequest.type, async (params) => {
      await this.configurationGate;
      return params.items.map((item) => (item.section === 'hermesLens' ? this.settings : null));
    });
    this.connection.onRequest(RegistrationRequest.type, () => undefined);
    this.connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    this.connection.onRequest('workspace/codeLens/refresh', () => {
      this.record('workspace/codeLens/refresh', null);
      return null;
    });
    this.connection.onNotification(SessionListChangedNotification, (change) => {
      this.sessionListChanges.push(change);
      if (this.sessionList.list && 'base' in change) this.listBeforeDelta.set(change.revision, this.sessionList.list);
      const list = this.sessionList.receive(change);
      if (list) this.record(SessionListChangedNotification.method, list);
    });
    this.connection.onUnhandledNotification((message) => this.record(message.method, message.params));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => this.record(PublishDiagnosticsNotification.method, params));
    this.connection.listen();
  }

  private record(method: string, params: any): void {
    this.notifications.push({ method, params });
    for (const listener of [...this.listeners]) {
      if (listener.method === method && listener.predicate(params)) {
        this.listeners.splice(this.listeners.indexOf(listener), 1);
        listener.resolve(params);
      }
    }
  }

  /**
   * Holds the answers to workspace/configuration until the function returned is called: the server,
   * which reads the home once it has its settings, cannot have read it before then.
   */
  holdConfiguration(): () => void {
    let release!: () => void;
    this.configurationGate = new Promise<void>((resolve) => (release = resolve));
    return release;
  }

  /** Resolves with the first notification of `method` (already received or future) that matches. */
  waitFor<T = any>(method: string, predicate: (params: T) => boolean = () => true, options: { since?: number } = {}): Promise<T> {
    const past = this.notificationsSince(options.since ?? 0).find((n) => n.method === method && predicate(n.params));
    if (past) return Promise.resolve(past.params);
    return new Promise((resolve) => this.listeners.push({ method, predicate, resolve }));
  }

  /** The session list as the changes received so far make it. */
  get currentSessionList(): SessionListResult | undefined {
    return this.sessionList.list;
  }

  /** A change did not apply to the list held: the full list, recorded like a change. */
  private async fetchSessionList(): Promise<void> {
    const list = await this.connection.sendRequest(SessionListRequest, {});
    this.sessionList.replace(list);
    this.record(SessionListChangedNotification.method, list);
  }

  /** The notifications received after `mark` (a mark() taken then). */
  notificationsSince(mark: number): Array<{ method: string; params: any }> {
    return this.notifications.slice(Math.max(0, mark - this.forgotten));
  }

  /** Index to pass as `since` so only later notifications count. */
  mark(): number {
    return this.forgotten + this.notifications.length;
  }

  /**
   * Drops what was received so far (notifications, session list changes and the lists deltas were
   * applied to); marks taken before stay valid. A long run (the benchmark: dozens of full session
   * lists of 2,000 sessions) otherwise keeps every list, and this process's full garbage
   * collections, tens of milliseconds each, land in the latencies it measures.
   */
  forgetHistory(): void {
    this.forgotten += this.notifications.length;
    this.notifications.length = 0;
    this.sessionListChanges.length = 0;
    this.listBeforeDelta.clear();
  }

  async initialize(options: { isTrusted?: boolean; rootDir?: string; hoverCommandLinks?: boolean } = {}): Promise<InitializeResult> {
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: options.rootDir ? pathToFileURL(options.rootDir).toString() : null,
      workspaceFolders: options.rootDir ? [{ uri: pathToFileURL(options.rootDir).toString(), name: 'root' }] : null,
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, codeLens: { refreshSupport: true } },
        textDocument: { hover: { contentFormat: ['markdown'] }, codeAction: { disabledSupport: true } },
        window: { workDoneProgress: true },
      },
      initializationOptions: options.isTrusted === undefined ? undefined : { isTrusted: options.isTrusted, hoverCommandLinks: options.hoverCommandLinks },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    return result;
  }

  async open(file: string, text: string, languageId = 'markdown'): Promise<string> {
    const uri = pathToFileURL(file).toString();
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    return uri;
  }

  /** Sends the new text; answers the document version it carries. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  async save(uri: string): Promise<void> {
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  diagnostics(uri: string, predicate: (d: Diagnostic[]) => boolean = () => true, since?: number): Promise<Diagnostic[]> {
    return this.waitFor<PublishDiagnosticsParams>(PublishDiagnosticsNotification.method, (p) => p.uri === uri && predicate(p.diagnostics), { since }).then((p) => p.diagnostics);
  }

  hover(uri: string, line: number, character: number): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
  }

  codeLens(uri: string): Promise<CodeLens[] | null> {
    return this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  }

  codeActions(uri: string): Promise<Array<Command | CodeAction> | null> {
    return this.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [] },
    });
  }

  executeCommand(command: string, args: unknown[]): Promise<unknown> {
    return this.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  }

  async changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  }

  /** shutdown + exit; resolves with the process's exit code. */
  async shutdown(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.process.once('exit', (code) => resolve(code)));
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    const code = await exited;
    this.connection.dispose();
    return code;
  }

  kill(): void {
    if (this.process.exitCode === null) this.process.kill('SIGKILL');
    this.connection.dispose();
  }
}
