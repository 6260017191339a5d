// The context every part of the client works through (rust-analyzer's `Ctx`): the extension
// context, the output channel, the settings, the language client's lifecycle, and the two things the
// server pushes that several views show: the session list and the status.
import * as vscode from 'vscode';
import { State, type ExecuteCommandSignature, type LanguageClient, type RequestType } from 'vscode-languageclient/node';
import {
  SessionListChangedNotification,
  SessionListRequest,
  StatusNotification,
  type SessionListChange,
  type SessionListResult,
  type StatusParams,
} from '../shared/protocol';
import { SessionListFollower } from '../shared/sessionListChanges';
import { createClient } from './client';
import { Config } from './config';
import { CLIENT_NAME, CONTEXT_KEYS } from './ids';
import { RUNTIME_SETTING } from './settingsKeys';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

/** Wires something to each new LanguageClient (handlers of server notifications). */
export type ClientHook = (client: LanguageClient) => vscode.Disposable[];

export type ServerCommandInterceptor = (command: string, args: unknown[], next: ExecuteCommandSignature) => vscode.ProviderResult<unknown>;

export class Ctx implements vscode.Disposable {
  readonly config = new Config();
  readonly output: vscode.LogOutputChannel;

  private client_: LanguageClient | undefined;
  private clientDisposables: vscode.Disposable[] = [];
  private runtimeInUse: string | undefined;
  private readonly hooks: ClientHook[] = [];
  private interceptor: ServerCommandInterceptor | undefined;
  /** Start, stop and restart run one after another. */
  private lifecycle: Promise<void> = Promise.resolve();
  /** True while doStart() awaits client.start(). */
  private starting = false;

  /** The server sends what changed; the follower keeps the whole list (and fetches it when a change misses). */
  private readonly sessionList = new SessionListFollower(() => this.reloadSessions());
  private status_: StatusParams | undefined;
  private serverState_: ServerState = 'stopped';
  private startError_: string | undefined;

  private readonly sessionsEmitter = new vscode.EventEmitter<SessionListResult>();
  private readonly statusEmitter = new vscode.EventEmitter<void>();
  /** The session list changed (pushed by the server or fetched). */
  readonly onDidChangeSessions = this.sessionsEmitter.event;
  /** The status or the server state changed. */
  readonly onDidChangeStatus = this.statusEmitter.event;

  private readonly disposables: vscode.Disposable[] = [];

  constructor(readonly extensionContext: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
    this.disposables.push(this.output, this.sessionsEmitter, this.statusEmitter);
  }

  get client(): LanguageClient | undefined {
    return this.client_;
  }
  get sessions(): SessionListResult | undefined {
    return this.sessionList.list;
  }
  get status(): StatusParams | undefined {
    return this.status_;
  }
  get serverState(): ServerState {
    return this.serverState_;
  }
  /** Why the server did not start, when it did not. */
  get startError(): string | undefined {
    return this.startError_;
  }
  get isTrusted(): boolean {
    return vscode.workspace.isTrusted;
  }
  /** The runtime the running server was started with (to tell whether a settings change needs a restart). */
  get runtimeOfRunningServer(): string | undefined {
    return this.runtimeInUse;
  }

  /** Registers a hook for the current client (if any) and every later one. */
  onClient(hook: ClientHook): void {
    this.hooks.push(hook);
    if (this.client_) this.clientDisposables.push(...hook(this.client_));
  }

  /** Lets the commands see `workspace/executeCommand` calls before they reach the server. */
  interceptServerCommands(interceptor: ServerCommandInterceptor): void {
    this.interceptor = interceptor;
  }

  pushCleanup(...d: vscode.Disposable[]): void {
    this.disposables.push(...d);
  }

  /** Starts the server; resolves (never rejects) once it runs and the first session list is in, or it failed. */
  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }
  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }
  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  /** Sends a custom request; rejects with a readable error when the server is not running. */
  async request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R> {
    const client = this.client_;
    if (!client || !client.isRunning()) {
      throw new Error(this.startError_ ? `The Hermes language server is not running: ${this.startError_}` : 'The Hermes language server is not running.');
    }
    // (`params` is typed by `type`; the cast only bridges vscode-languageclient's NoInfer<RequestParam<P>>.)
    return client.sendRequest<P, R, void>(type, params as never);
  }

  /** Fetches the session list again (the tree's reload button; after a refresh). */
  async reloadSessions(): Promise<SessionListResult | undefined> {
    try {
      const list = await this.request(SessionListRequest, {});
      this.setSessions(list);
      return list;
    } catch (e) {
      this.output.warn(`Session list: ${errorMessage(e)}`);
      return undefined;
    }
  }

  private setSessions(list: SessionListResult): void {
    this.sessionList.replace(list);
    this.showSessions(list);
  }

  private receiveSessionChange(change: SessionListChange): void {
    const list = this.sessionList.receive(change);
    if (list) this.showSessions(list);
  }

  private showSessions(list: SessionListResult): void {
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasProblem, !!list.problem);
    this.sessionsEmitter.fire(list);
  }

  private setStatus(status: StatusParams): void {
    this.status_ = status;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.noDriver, status.driver === null);
    this.statusEmitter.fire();
  }

  private setServerState(state: ServerState): void {
    this.serverState_ = state;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.serverState, state);
    this.statusEmitter.fire();
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.lifecycle.then(step, step);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  private async doStart(): Promise<void> {
    if (this.client_) return;
    this.startError_ = undefined;
    this.setServerState('starting');
    const runtime = this.config.serverRuntime;
    const { client, disposables } = createClient({
      serverModule: this.extensionContext.asAbsolutePath('dist/server.js'),
      runtime,
      output: this.output,
      executeCommand: (command, args, next) => (this.interceptor ? this.interceptor(command, args, next) : next(command, args)),
    });
    this.client_ = client;
    this.runtimeInUse = runtime;
    this.clientDisposables = [
      ...disposables,
      client.onNotification(SessionListChangedNotification, (change) => this.receiveSessionChange(change)),
      client.onNotification(StatusNotification, (status) => this.setStatus(status)),
      client.onDidChangeState((e) => {
        if (this.client_ !== client) return;
        if (e.newState === State.Running) {
          this.setServerState('running');
          // vscode-languageclient restarted a crashed server: the list may have changed meanwhile.
          if (!this.starting) void this.reloadSessions();
        } else if (e.newState === State.Starting && !this.starting) {
          this.setServerState('starting');
        } else if (e.newState === State.Stopped && this.serverState_ !== 'failed') {
          this.setServerState('stopped');
        }
      }),
    ];
    for (const hook of this.hooks) this.clientDisposables.push(...hook(client));

    this.output.info(`Starting the server with ${runtime ? `runtime ${runtime}` : "VS Code's own runtime"}.`);
    this.starting = true;
    try {
      await client.start();
    } catch (e) {
      const message = errorMessage(e);
      this.output.error(`The server did not start: ${message}`);
      await this.disposeClient();
      this.startError_ = message;
      this.setServerState('failed');
      void this.reportStartFailure(runtime, message);
      return;
    } finally {
      this.starting = false;
    }
    this.setServerState('running');
    await this.reloadSessions();
  }

  private async doStop(): Promise<void> {
    await this.disposeClient();
    this.setServerState('stopped');
  }

  private async disposeClient(): Promise<void> {
    const client = this.client_;
    this.client_ = undefined;
    this.runtimeInUse = undefined;
    for (const d of this.clientDisposables.splice(0)) d.dispose();
    if (!client) return;
    try {
      await client.dispose(2000);
    } catch (e) {
      this.output.warn(`Stopping the server: ${errorMessage(e)}`);
    }
  }

  private async reportStartFailure(runtime: string | undefined, message: string): Promise<void> {
    const actions = runtime ? ['Open Settings', 'Show Output'] : ['Show Output'];
    const text = runtime
      ? `Hermes Prompt Lens: the language server did not start with ${RUNTIME_SETTING} = "${runtime}": ${message}`
      : `Hermes Prompt Lens: the language server did not start: ${message}`;
    const choice = await vscode.window.showErrorMessage(text, ...actions);
    if (choice === 'Open Settings') await Config.open(RUNTIME_SETTING);
    else if (choice === 'Show Output') this.output.show(true);
  }

  async dispose(): Promise<void> {
    await this.stop();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e && typeof e === 'object' && 'message' in e && typeof (e as { message: unknown }).message === 'string') {
    return (e as { message: string }).message;
  }
  return String(e);
}
