// The one typed view of the `hermesLens.*` settings on the client side. Values are read fresh on
// every access (never cached), through the same normalizeSettings() the server uses.
import os = require('node:os');
import path = require('node:path');
import * as vscode from 'vscode';
import { normalizeSettings, SETTINGS_SECTION, type HermesLensSettings } from '../shared/settings';
import { RUNTIME_SETTING } from './settingsKeys';

export class Config {
  /** The settings that apply to a resource (or the window when none is given). */
  get(resource?: vscode.Uri): HermesLensSettings {
    return normalizeSettings(vscode.workspace.getConfiguration(undefined, resource ?? null).get(SETTINGS_SECTION));
  }

  /**
   * The Node executable for the server, or undefined for VS Code's own runtime. `~` is expanded;
   * a relative path is left to vscode-languageclient (resolved against the workspace folder).
   * In Restricted Mode VS Code ignores the workspace value (package.json restrictedConfigurations).
   */
  get serverRuntime(): string | undefined {
    const value = this.get().serverRuntime.trim();
    if (value.length === 0) return undefined;
    if (value === '~') return os.homedir();
    if (value.startsWith('~/') || value.startsWith('~\\')) return path.join(os.homedir(), value.slice(2));
    return value;
  }

  /** Calls `listener` when a `hermesLens.*` setting changes. */
  onDidChange(listener: (e: vscode.ConfigurationChangeEvent) => void): vscode.Disposable {
    return vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS_SECTION)) listener(e);
    });
  }

  /** Opens the Settings editor on one setting, e.g. `hermesLens.server.runtime`. */
  static open(setting: string = RUNTIME_SETTING): Thenable<unknown> {
    return vscode.commands.executeCommand('workbench.action.openSettings', setting);
  }
}

/** Restarts the server when `hermesLens.server.runtime` now names another executable. */
export function restartOnRuntimeChange(ctx: {
  readonly config: Config;
  readonly runtimeOfRunningServer: string | undefined;
  readonly serverState: string;
  restart(): Promise<void>;
}): vscode.Disposable {
  return ctx.config.onDidChange((e) => {
    if (!e.affectsConfiguration(RUNTIME_SETTING)) return;
    const wanted = ctx.config.serverRuntime;
    if (ctx.serverState === 'failed' || wanted !== ctx.runtimeOfRunningServer) void ctx.restart();
  });
}
