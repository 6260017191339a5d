// Builds the LanguageClient: where the server bundle is, which runtime runs it, which documents it
// sees. Like vscode-eslint: a `module` server over IPC, with `runtime` when the user chose a Node
// executable (`hermesLens.server.runtime`), else VS Code's own runtime.
import * as vscode from 'vscode';
import {
  LanguageClient,
  RevealOutputChannelOn,
  TransportKind,
  type DocumentSelector,
  type ExecuteCommandSignature,
  type LanguageClientOptions,
  type NodeModule,
  type ServerOptions,
} from 'vscode-languageclient/node';
import type { HermesInitializationOptions } from '../shared/protocol';
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../shared/serverLaunch';
import { SETTINGS_SECTION } from '../shared/settings';
import { CLIENT_ID, CLIENT_NAME, COMMANDS } from './ids';

/** The files that feed a Hermes prompt (docs/HERMES-FORMATS.md §3–4): the server gets diagnostics, hovers and lenses on them. */
export const SERVER_DOCUMENT_SELECTOR: DocumentSelector = [
  { scheme: 'file', language: 'markdown' },
  { scheme: 'file', pattern: '**/.cursorrules' },
  { scheme: 'file', pattern: '**/.cursor/rules/*.mdc' },
];

/** Workspace files whose creation or deletion can change a prompt (sent as didChangeWatchedFiles). */
export const SOURCE_FILES_GLOB =
  '**/{SOUL.md,AGENTS.md,AGENTS.override.md,agents.md,.hermes.md,HERMES.md,CLAUDE.md,claude.md,.cursorrules,SKILL.md,DESCRIPTION.md,MEMORY.md,USER.md,*.mdc}';

export interface ClientSetup {
  /** Absolute path of dist/server.js. */
  readonly serverModule: string;
  /** Node executable, or undefined for VS Code's runtime. */
  readonly runtime: string | undefined;
  readonly output: vscode.LogOutputChannel;
  /** Sees every `workspace/executeCommand` the editor sends (code lenses, code actions). */
  readonly executeCommand: (command: string, args: unknown[], next: ExecuteCommandSignature) => vscode.ProviderResult<unknown>;
}

export function createClient(setup: ClientSetup): { client: LanguageClient; disposables: vscode.Disposable[] } {
  // The client adds SERVER_ENV to this process's environment.
  const launch = { execArgv: [...SERVER_EXEC_ARGV], env: { ...SERVER_ENV } };
  const run: NodeModule = { module: setup.serverModule, transport: TransportKind.ipc, runtime: setup.runtime, options: launch };
  const debug: NodeModule = { ...run, options: { ...launch, execArgv: [...launch.execArgv, '--nolazy', '--inspect=6019'] } };
  const serverOptions: ServerOptions = { run, debug };

  const watcher = vscode.workspace.createFileSystemWatcher(SOURCE_FILES_GLOB);
  const clientOptions: LanguageClientOptions = {
    documentSelector: SERVER_DOCUMENT_SELECTOR,
    // The server pulls `hermesLens` per resource through workspace/configuration; this makes the
    // client send workspace/didChangeConfiguration when any of it changes.
    synchronize: { configurationSection: SETTINGS_SECTION, fileEvents: watcher },
    initializationOptions: (): HermesInitializationOptions => ({ isTrusted: vscode.workspace.isTrusted, hoverCommandLinks: true }),
    outputChannel: setup.output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    diagnosticCollectionName: 'hermes',
    // Hovers link to the prompt anatomy view; no other command runs from them.
    markdown: { isTrusted: { enabledCommands: [COMMANDS.showPromptAnatomy, COMMANDS.clearSessionPrompt] }, supportThemeIcons: true },
    middleware: {
      executeCommand: (command, args, next) => setup.executeCommand(command, args, next),
    },
  };
  const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  return { client, disposables: [watcher] };
}
