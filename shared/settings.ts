// The `hermesLens.*` settings as the server sees them (pulled per resource through
// workspace/configuration). package.json's schema is checked against DEFAULT_SETTINGS by a test.

export interface PriceOverride {
  input: number;
  cacheRead: number;
  cacheWrite5m?: number;
  cacheWrite1h?: number;
}

export interface HermesLensSettings {
  /** Hermes home; empty = HERMES_HOME, else ~/.hermes. */
  home: string;
  /** The Hermes installation (checkout) serving the home; empty = found where Hermes' installer puts it. */
  hermesInstall: string;
  /** Profiles to watch; empty = every profile of the home. */
  profiles: string[];
  /** Ask before recording a refresh request. */
  confirmRefresh: boolean;
  refreshStrategy: 'epoch' | 'clear-prompt';
  /** $ per million tokens, by model id or glob. */
  priceOverrides: Record<string, PriceOverride>;
  /** Offer a refresh when a save makes sessions stale. */
  notifyOnSave: boolean;
  /** Node.js executable for the server; empty = VS Code's own runtime. */
  serverRuntime: string;
  trace: { server: 'off' | 'messages' | 'verbose' };
}

export const DEFAULT_SETTINGS: HermesLensSettings = {
  home: '',
  hermesInstall: '',
  profiles: [],
  confirmRefresh: true,
  refreshStrategy: 'epoch',
  priceOverrides: {},
  notifyOnSave: true,
  serverRuntime: '',
  trace: { server: 'off' },
};

/** The configuration section the client registers. */
export const SETTINGS_SECTION = 'hermesLens';

/** Merges what the client sent over the defaults, ignoring values of the wrong type. */
export function normalizeSettings(raw: unknown): HermesLensSettings {
  const r = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const str = (v: unknown, d: string) => (typeof v === 'string' ? v : d);
  const bool = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);
  const trace = r.trace && typeof r.trace === 'object' ? (r.trace as Record<string, unknown>) : {};
  const traceServer = trace.server === 'messages' || trace.server === 'verbose' ? trace.server : 'off';
  const server = r.server && typeof r.server === 'object' ? (r.server as Record<string, unknown>) : {};
  return {
    home: str(r.home, DEFAULT_SETTINGS.home),
    hermesInstall: str(r.hermesInstall, DEFAULT_SETTINGS.hermesInstall),
    profiles: Array.isArray(r.profiles) ? r.profiles.filter((p): p is string => typeof p === 'string') : [],
    confirmRefresh: bool(r.confirmRefresh, DEFAULT_SETTINGS.confirmRefresh),
    refreshStrategy: r.refreshStrategy === 'clear-prompt' ? 'clear-prompt' : 'epoch',
    priceOverrides: r.priceOverrides && typeof r.priceOverrides === 'object' ? (r.priceOverrides as Record<string, PriceOverride>) : {},
    notifyOnSave: bool(r.notifyOnSave, DEFAULT_SETTINGS.notifyOnSave),
    serverRuntime: str(server.runtime ?? r.serverRuntime, DEFAULT_SETTINGS.serverRuntime),
    trace: { server: traceServer },
  };
}
