// How the flat `hermesLens.*` keys of package.json map onto HermesLensSettings (shared/settings.ts).
// No vscode import: the settings-schema test and the config wrapper both use it.
import { DEFAULT_SETTINGS, SETTINGS_SECTION, type HermesLensSettings } from '../shared/settings';

export interface SettingKey {
  /** The key under `hermesLens.` in package.json, e.g. `server.runtime`. */
  readonly key: string;
  /** Reads this setting out of a HermesLensSettings. */
  readonly read: (s: HermesLensSettings) => unknown;
  /** Builds the raw (VS Code-shaped) object normalizeSettings() accepts for one value. */
  readonly raw: (value: unknown) => Record<string, unknown>;
}

const top = <K extends keyof HermesLensSettings>(key: K): SettingKey => ({
  key,
  read: (s) => s[key],
  raw: (value) => ({ [key]: value }),
});

/** Every setting, in package.json order. `serverRuntime` is spelled `server.runtime` in the schema. */
export const SETTING_KEYS: readonly SettingKey[] = [
  top('home'),
  top('hermesInstall'),
  top('profiles'),
  top('confirmRefresh'),
  top('refreshStrategy'),
  top('priceOverrides'),
  top('notifyOnSave'),
  { key: 'server.runtime', read: (s) => s.serverRuntime, raw: (value) => ({ server: { runtime: value } }) },
  { key: 'trace.server', read: (s) => s.trace.server, raw: (value) => ({ trace: { server: value } }) },
];

/** `hermesLens.server.runtime` and friends. */
export const fullKey = (key: string): string => `${SETTINGS_SECTION}.${key}`;

export const RUNTIME_SETTING = fullKey('server.runtime');
export const HOME_SETTING = fullKey('home');

/** Default values keyed like package.json. */
export function flatDefaults(): Map<string, unknown> {
  return new Map(SETTING_KEYS.map((k) => [fullKey(k.key), k.read(DEFAULT_SETTINGS)]));
}
