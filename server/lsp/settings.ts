// Settings pulled from the client per resource through workspace/configuration (never pushed and
// held as globals): the home and profiles are read for the first workspace folder; per-document
// options are read for that document.
import type { Connection } from 'vscode-languageserver/node';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_SECTION, type HermesLensSettings } from '../../shared/settings';

export class SettingsService {
  private cache = new Map<string, Promise<HermesLensSettings>>();

  constructor(
    private readonly connection: Connection,
    private readonly canPull: () => boolean,
  ) {}

  get(scopeUri?: string): Promise<HermesLensSettings> {
    if (!this.canPull()) return Promise.resolve(DEFAULT_SETTINGS);
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
  invalidate(): void {
    this.cache.clear();
  }
}
