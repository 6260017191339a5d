// The language status item (shown with markdown and prompt documents) and the status bar item
// (`Hermes: 3 stale · ≈ $0.84`), both driven by the server's StatusNotification. When no SQLite
// binding loads in the server's runtime they say so and open `hermesLens.server.runtime`. While the
// active editor has unsaved changes to a Hermes source, they say what saving them would do.
import * as vscode from 'vscode';
import type { StatusParams } from '../shared/protocol';
import type { Ctx } from './ctx';
import { COMMANDS, FOCUS_SESSIONS_COMMAND, PROMPT_LANGUAGE_ID } from './ids';
import type { SavePreviewTracker } from './savePreviewStatus';
import { RUNTIME_SETTING } from './settingsKeys';

/** Where the language status item shows: the files that feed a prompt, and stored prompts. */
export const STATUS_SELECTOR: vscode.DocumentSelector = [
  { language: 'markdown' },
  { language: PROMPT_LANGUAGE_ID },
  { pattern: '**/.cursorrules' },
  { pattern: '**/.cursor/rules/*.mdc' },
];

export function severityOf(s: StatusParams['severity']): vscode.LanguageStatusSeverity {
  switch (s) {
    case 'error':
      return vscode.LanguageStatusSeverity.Error;
    case 'warning':
      return vscode.LanguageStatusSeverity.Warning;
    default:
      return vscode.LanguageStatusSeverity.Information;
  }
}

const NO_DRIVER_TEXT = 'state.db unavailable';
const NO_DRIVER_HELP = `No SQLite binding loads in the server's runtime (each one tried is named above, with its error). Set \`${RUNTIME_SETTING}\` to a Node.js executable (Node ≥ 22.5 has node:sqlite built in).`;

export function registerStatus(ctx: Ctx, previews: SavePreviewTracker): vscode.Disposable[] {
  const language = vscode.languages.createLanguageStatusItem('hermesLens.status', STATUS_SELECTOR);
  language.name = 'Hermes Prompt Lens';
  const bar = vscode.window.createStatusBarItem('hermesLens.status', vscode.StatusBarAlignment.Left, 50);
  bar.name = 'Hermes Prompt Lens';

  const showSessions: vscode.Command = { title: 'Show Sessions', command: FOCUS_SESSIONS_COMMAND };
  const openRuntime: vscode.Command = { title: 'Set Node Runtime', command: 'workbench.action.openSettings', arguments: [RUNTIME_SETTING] };
  const showOutput: vscode.Command = { title: 'Show Output', command: COMMANDS.showOutput };

  const update = () => {
    const status = ctx.status;
    const state = ctx.serverState;
    const restricted = ctx.isTrusted ? '' : '\n\nRestricted Mode: refreshing is disabled.';
    language.busy = state === 'starting';
    bar.backgroundColor = undefined;

    if (state === 'failed' || (state === 'stopped' && !status)) {
      const why = ctx.startError ?? 'The language server is not running.';
      language.text = 'server not running';
      language.detail = why;
      language.severity = vscode.LanguageStatusSeverity.Error;
      language.command = showOutput;
      bar.text = '$(error) Hermes: server not running';
      bar.tooltip = `${why}\n\nClick to show the output.`;
      bar.command = showOutput;
      bar.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
      bar.show();
      return;
    }
    if (!status) {
      language.text = 'starting…';
      language.detail = undefined;
      language.severity = vscode.LanguageStatusSeverity.Information;
      language.command = showOutput;
      bar.text = '$(sync~spin) Hermes';
      bar.tooltip = 'Hermes Prompt Lens is starting';
      bar.command = showOutput;
      bar.show();
      return;
    }
    if (status.driver === null) {
      language.text = NO_DRIVER_TEXT;
      language.detail = 'set hermesLens.server.runtime';
      language.severity = vscode.LanguageStatusSeverity.Error;
      language.command = openRuntime;
      bar.text = `$(warning) Hermes: ${NO_DRIVER_TEXT}`;
      bar.tooltip = new vscode.MarkdownString(`${status.detail ? `${status.detail}\n\n` : ''}${NO_DRIVER_HELP}\n\nClick to open the setting.`);
      bar.command = openRuntime;
      bar.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      bar.show();
      return;
    }
    language.text = status.text;
    language.detail = status.detail;
    language.severity = severityOf(status.severity);
    language.command = showSessions;
    bar.text = `${status.severity === 'error' ? '$(error) ' : ''}Hermes: ${status.text}`;
    bar.tooltip = `${status.detail}${restricted}\n\nClick to show the Hermes sessions.`;
    bar.command = FOCUS_SESSIONS_COMMAND;
    if (status.severity === 'error') bar.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    const preview = previews.current;
    if (preview) {
      language.text = `unsaved: ${preview.short}`;
      bar.text = `$(edit) Hermes (unsaved): ${preview.short}`;
      bar.tooltip = `Preview of saving the active file: ${preview.sentence}\n\nAs saved: ${status.text}\n${status.detail}${restricted}\n\nClick to show the Hermes sessions.`;
    }
    bar.show();
  };
  update();
  return [language, bar, ctx.onDidChangeStatus(update), previews.onDidChange(update), vscode.workspace.onDidGrantWorkspaceTrust(update)];
}
