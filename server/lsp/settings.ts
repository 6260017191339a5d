// Settings pulled from the client per resource through workspace/configuration: the home and
// profiles are read for the first workspace folder; per-document options for that document. A
// client that cannot be asked (Neovim 0.7 does not announce it) is served what it last pushed with
// workspace/didChangeConfiguration.
import type { Connection } from 'vscode-languageserver/node';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_SECTION, type HermesLensSettings } from '../../shared/settings';

export class SettingsService {
  private cache = new Map<string, Promise<HermesLensSettings>>();
  private pushed: HermesLensSettings = DEFAULT_SETTINGS;

  constructor(
    private readonly connection: Connection,
    private readonly canPull: () => boolean,
  ) {}

  get(scopeUri?: string): Promise<HermesLensSettings> {
    if (!this.canPull()) return Promise.resolve(this.pushed);
    const key = scopeUri ?? '';
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.connection.workspace
        .getConfiguration({ scopeUri, section: SETTINGS_SECTION })
        .then(normalizeSettings, () => DEFAULT_SETTINGS);
      this.cache.set(key, pending);
    }
    return pending;
  }

  /** workspace/didChangeConfiguration: forget everything, pull again on next use. */
  invalidate(pushedSettings?: unknown): void {
    this.cache.clear();
    const section = pushedSettings && typeof pushedSettings === 'object' ? (pushedSettings as Record<string, unknown>)[SETTINGS_SECTION] : undefined;
    if (section !== undefined) this.pushed = normalizeSettings(section);
  }
}
