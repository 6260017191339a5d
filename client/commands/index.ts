// The command registry: each command is a small factory over the CommandContext (rust-analyzer
// style), registered under its id from ids.ts (which the schema test checks against package.json).
import * as vscode from 'vscode';
import type { AnatomyPanel } from '../anatomy/anatomyPanel';
import type { Ctx } from '../ctx';
import { ClientCommands } from '../../shared/protocol';
import { COMMANDS, FOCUS_SESSIONS_COMMAND, type CommandName } from '../ids';
import type { PromptDocuments } from '../promptDocuments';
import { showPromptAnatomy } from './anatomy';
import { diffPrompt, showPrompt, showPromptSize } from './prompt';
import { clearSessionPrompt, interceptServerRefresh, refreshProfile, refreshSession } from './refresh';
import { cancelRefreshWhenFree } from './refreshWhenFree';
import { reloadSessions, restartServer, showOutput } from './server';

export interface CommandContext {
  readonly ctx: Ctx;
  readonly prompts: PromptDocuments;
  readonly anatomy: AnatomyPanel;
}

export type Cmd = (...args: any[]) => unknown;
export type CmdFactory = (c: CommandContext) => Cmd;

const factories: Record<CommandName, CmdFactory> = {
  refreshProfile,
  refreshSession,
  showPrompt,
  diffPrompt,
  showPromptSize,
  reloadSessions,
  showOutput,
  restartServer,
  showPromptAnatomy,
  cancelRefreshWhenFree,
  clearSessionPrompt,
};

export function registerCommands(c: CommandContext): vscode.Disposable[] {
  c.ctx.interceptServerCommands(interceptServerRefresh(c.ctx));
  return [
    ...(Object.keys(factories) as CommandName[]).map((name) => vscode.commands.registerCommand(COMMANDS[name], factories[name](c))),
    // Not in the palette: the target of the server's informational code lenses.
    vscode.commands.registerCommand(ClientCommands.showSessions, () => vscode.commands.executeCommand(FOCUS_SESSIONS_COMMAND)),
  ];
}
