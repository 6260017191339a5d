// The refresh-epoch protocol (docs/HERMES-INSTALLS.md §4), in one module. Every name of it is this
// project's reading and lives only here (DEFAULT_REFRESH_KEYS); the names the user's installation
// shows, or a stamp seen taking the epoch, replace them (refreshProtocol.ts) and come in as a
// RefreshKeys, so a correction touches one place.

/** The names of the protocol: the `state_meta` keys of the requests and the `model_config` stamp. */
export interface RefreshKeys {
  /** The profile-wide requested epoch in `state_meta`. */
  readonly requestKey: string;
  /** `state_meta` key of an epoch requested for one session: this prefix, then the session id. */
  readonly sessionKeyPrefix: string;
  /** The `model_config` key where a session stamps the epoch its stored prompt satisfies. */
  readonly stampKey: string;
}

/** This project's reading of the names, used where the installation names none. */
export const DEFAULT_REFRESH_KEYS: RefreshKeys = {
  requestKey: 'prompt_refresh_epoch',
  sessionKeyPrefix: 'prompt_refresh_epoch:',
  stampKey: 'prompt_refresh_epoch',
};

/** Profile-wide requested epoch in `state_meta`, as this project reads it. */
export const PROFILE_EPOCH_KEY = DEFAULT_REFRESH_KEYS.requestKey;

/** The `state_meta` key of an epoch requested for one session. */
export function sessionEpochKey(sessionId: string, keys: RefreshKeys = DEFAULT_REFRESH_KEYS): string {
  return keys.sessionKeyPrefix + sessionId;
}

/** Whether a `state_meta` key is a refresh request (profile-wide or for one session). */
export function isRequestKey(key: string, keys: RefreshKeys = DEFAULT_REFRESH_KEYS): boolean {
  return key === keys.requestKey || key.startsWith(keys.sessionKeyPrefix);
}

/** Epoch values are decimal integers; anything else counts as 0. */
export function parseEpoch(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** The epoch a session's stored prompt already satisfies (absent means 0). */
export function stampedEpoch(modelConfig: Readonly<Record<string, unknown>>, keys: RefreshKeys = DEFAULT_REFRESH_KEYS): number {
  return parseEpoch(modelConfig[keys.stampKey]);
}

/** The epoch a session must satisfy: the larger of the profile-wide and its own request. */
export function requestedEpoch(stateMeta: ReadonlyMap<string, string>, sessionId: string, keys: RefreshKeys = DEFAULT_REFRESH_KEYS): number {
  return Math.max(parseEpoch(stateMeta.get(keys.requestKey)), parseEpoch(stateMeta.get(sessionEpochKey(sessionId, keys))));
}

/**
 * `requestedEpoch` for every session of one `state_meta`, its entries parsed once (an evaluation
 * asks for thousands of sessions).
 */
export function requestedEpochs(stateMeta: ReadonlyMap<string, string>, keys: RefreshKeys = DEFAULT_REFRESH_KEYS): (sessionId: string) => number {
  const profile = parseEpoch(stateMeta.get(keys.requestKey));
  const own = new Map<string, number>();
  const prefix = keys.sessionKeyPrefix;
  for (const [key, value] of stateMeta) if (key.startsWith(prefix) && key !== keys.requestKey) own.set(key.slice(prefix.length), parseEpoch(value));
  return own.size === 0 ? () => profile : (sessionId) => Math.max(profile, own.get(sessionId) ?? 0);
}

/** The profile-wide requested epoch alone. */
export function profileRequestedEpoch(stateMeta: ReadonlyMap<string, string>, keys: RefreshKeys = DEFAULT_REFRESH_KEYS): number {
  return parseEpoch(stateMeta.get(keys.requestKey));
}

/** A refresh is pending when the requested epoch is ahead of the session's stamp. */
export function isRefreshPending(
  stateMeta: ReadonlyMap<string, string>,
  sessionId: string,
  modelConfig: Readonly<Record<string, unknown>>,
  keys: RefreshKeys = DEFAULT_REFRESH_KEYS,
): boolean {
  return requestedEpoch(stateMeta, sessionId, keys) > stampedEpoch(modelConfig, keys);
}

/**
 * One more than the largest epoch recorded anywhere, so it exceeds every session's stamp: under
 * the names in use and under this project's own (an epoch written before the names were learned).
 */
export function nextEpoch(stateMeta: ReadonlyMap<string, string>, modelConfigs: Iterable<Readonly<Record<string, unknown>>>, keys: RefreshKeys = DEFAULT_REFRESH_KEYS): number {
  let max = 0;
  for (const [key, value] of stateMeta) {
    if (isRequestKey(key, keys) || isRequestKey(key)) max = Math.max(max, parseEpoch(value));
  }
  for (const config of modelConfigs) max = Math.max(max, stampedEpoch(config, keys), stampedEpoch(config));
  return max + 1;
}

/** The `model_config` keys whose stamps a request must exceed: the one in use and this project's own. */
export function stampKeysOf(keys: RefreshKeys): string[] {
  return [...new Set([keys.stampKey, DEFAULT_REFRESH_KEYS.stampKey])];
}
