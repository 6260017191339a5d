// The refresh-epoch protocol (docs/HERMES-INSTALLS.md §4), in one module. The session side is
// Hermes' public contract (`model_config.prompt_refresh_epoch`); the request side's key names are
// this project's reading and live only here, so a correction touches one file.

/** Profile-wide requested epoch in `state_meta`. */
export const PROFILE_EPOCH_KEY = 'prompt_refresh_epoch';
const SESSION_EPOCH_PREFIX = 'prompt_refresh_epoch:';

/** The `state_meta` key of an epoch requested for one session. */
export function sessionEpochKey(sessionId: string): string {
  return SESSION_EPOCH_PREFIX + sessionId;
}

/** Epoch values are decimal integers; anything else counts as 0. */
export function parseEpoch(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** The epoch a session's stored prompt already satisfies (absent means 0). */
export function stampedEpoch(modelConfig: Readonly<Record<string, unknown>>): number {
  return parseEpoch(modelConfig.prompt_refresh_epoch);
}

/** The epoch a session must satisfy: the larger of the profile-wide and its own request. */
export function requestedEpoch(stateMeta: ReadonlyMap<string, string>, sessionId: string): number {
  return Math.max(parseEpoch(stateMeta.get(PROFILE_EPOCH_KEY)), parseEpoch(stateMeta.get(sessionEpochKey(sessionId))));
}

/**
 * `requestedEpoch` for every session of one `state_meta`, its entries parsed once (an evaluation
 * asks for thousands of sessions).
 */
export function requestedEpochs(stateMeta: ReadonlyMap<string, string>): (sessionId: string) => number {
  const profile = parseEpoch(stateMeta.get(PROFILE_EPOCH_KEY));
  const own = new Map<string, number>();
  for (const [key, value] of stateMeta) if (key.startsWith(SESSION_EPOCH_PREFIX)) own.set(key.slice(SESSION_EPOCH_PREFIX.length), parseEpoch(value));
  return own.size === 0 ? () => profile : (sessionId) => Math.max(profile, own.get(sessionId) ?? 0);
}

/** The profile-wide requested epoch alone. */
export function profileRequestedEpoch(stateMeta: ReadonlyMap<string, string>): number {
  return parseEpoch(stateMeta.get(PROFILE_EPOCH_KEY));
}

/** A refresh is pending when the requested epoch is ahead of the session's stamp. */
export function isRefreshPending(stateMeta: ReadonlyMap<string, string>, sessionId: string, modelConfig: Readonly<Record<string, unknown>>): boolean {
  return requestedEpoch(stateMeta, sessionId) > stampedEpoch(modelConfig);
}

/** One more than the largest epoch recorded anywhere, so it exceeds every session's stamp. */
export function nextEpoch(stateMeta: ReadonlyMap<string, string>, modelConfigs: Iterable<Readonly<Record<string, unknown>>>): number {
  let max = 0;
  for (const [key, value] of stateMeta) {
    if (key === PROFILE_EPOCH_KEY || key.startsWith(SESSION_EPOCH_PREFIX)) max = Math.max(max, parseEpoch(value));
  }
  for (const config of modelConfigs) max = Math.max(max, stampedEpoch(config));
  return max + 1;
}
