// The names of the refresh protocol in use for a home, and where each came from: read from the
// installation's sources next to its CLI text (install/protocolReading.ts), learned from a session
// whose stamp under another `model_config` key took a request's epoch (adoptionFiles.ts), or this
// project's own reading (epochs.ts). What the user's machine shows beats our reading; an
// observed stamp beats a name read in the text, since it is what Hermes did.
import { hermesBuildJson } from '../install/describeBuild';
import type { HermesBuild } from '../install/hermesBuild';
import { GUESSED_PROTOCOL_MODULE, type ProtocolClue } from '../install/protocolReading';
import type { LearnedStamp } from './adoptionFiles';
import { DEFAULT_REFRESH_KEYS, type RefreshKeys } from './epochs';

/** What shows the build has refresh-prompts; `unknown` when no installation could be read. */
export type ProtocolFound = ProtocolClue | 'unknown';
export type KeyOrigin = 'install' | 'learned' | 'default';

export interface RefreshProtocol {
  readonly keys: RefreshKeys;
  readonly found: ProtocolFound;
  /** The file that shows it. */
  readonly where: string | undefined;
  readonly requestKeyFrom: 'install' | 'default';
  readonly stampKeyFrom: KeyOrigin;
  /** Where the names came from: one origin for all of them, or `mixed`. */
  readonly keysFrom: KeyOrigin | 'mixed';
  readonly learned: LearnedStamp | undefined;
  /** The files the names were read from, for those read from the installation. */
  readonly requestKeyFile: string | undefined;
  readonly stampKeyFile: string | undefined;
  /** Why names were not taken from the sources, or what could not be read there. */
  readonly notes: readonly string[];
}

export function refreshProtocolOf(build: HermesBuild, learned?: LearnedStamp): RefreshProtocol {
  const reading = build.kind === 'found' ? build.protocol : undefined;
  const requestKey = reading?.requestKey;
  const sessionKeyPrefix = reading?.sessionKeyPrefix ?? (requestKey !== undefined ? `${requestKey}:` : undefined);
  const stampKeyFrom: KeyOrigin = learned ? 'learned' : reading?.stampKey !== undefined ? 'install' : 'default';
  const requestKeyFrom = requestKey !== undefined ? 'install' : 'default';
  const keys: RefreshKeys = {
    requestKey: requestKey ?? DEFAULT_REFRESH_KEYS.requestKey,
    sessionKeyPrefix: requestKey !== undefined ? sessionKeyPrefix! : DEFAULT_REFRESH_KEYS.sessionKeyPrefix,
    stampKey: learned?.stampKey ?? reading?.stampKey ?? DEFAULT_REFRESH_KEYS.stampKey,
  };
  return {
    keys: sameAsDefault(keys) ? DEFAULT_REFRESH_KEYS : keys,
    found: reading?.clue ?? 'unknown',
    where: reading?.file,
    requestKeyFrom,
    stampKeyFrom,
    keysFrom: requestKeyFrom === stampKeyFrom ? requestKeyFrom : 'mixed',
    learned,
    requestKeyFile: requestKeyFrom === 'install' ? reading?.requestKeyFile : undefined,
    stampKeyFile: stampKeyFrom === 'install' ? reading?.stampKeyFile : undefined,
    notes: reading?.notes ?? [],
  };
}

function sameAsDefault(keys: RefreshKeys): boolean {
  const d = DEFAULT_REFRESH_KEYS;
  return keys.requestKey === d.requestKey && keys.sessionKeyPrefix === d.sessionKeyPrefix && keys.stampKey === d.stampKey;
}

const FOUND_WORDS: Record<ProtocolFound, string> = {
  'cli-text': 'its CLI offers `hermes sessions refresh-prompts`',
  'help-text': "a help text of its CLI names refresh-prompts (no registration of the subcommand was read)",
  module: `no CLI text offers refresh-prompts, but ${GUESSED_PROTOCOL_MODULE} (this project's first guess at the protocol's module) is there`,
  none: 'its CLI does not offer refresh-prompts',
  unknown: 'no installation was read',
};

/** One sentence: which names are in use and where they came from. */
export function protocolSummary(p: RefreshProtocol): string {
  const from = (origin: KeyOrigin, file: string | undefined) =>
    origin === 'install'
      ? `read from ${file ?? p.where ?? 'the installation'}`
      : origin === 'learned'
        ? `learned when session ${p.learned!.sessionId} (${p.learned!.profile}) took epoch ${p.learned!.epoch} under it`
        : "this project's reading";
  const request = from(p.requestKeyFrom, p.requestKeyFile);
  const stamp = from(p.stampKeyFrom, p.stampKeyFile);
  const names =
    request === stamp
      ? `request state_meta.${p.keys.requestKey}, stamp model_config.${p.keys.stampKey} (${request})`
      : `request state_meta.${p.keys.requestKey} (${request}), stamp model_config.${p.keys.stampKey} (${stamp})`;
  return `Refresh protocol: ${FOUND_WORDS[p.found]}; names in use: ${names}.${p.notes.length ? ` ${p.notes.join(' ')}` : ''}`;
}

/** `hermes.protocol` of `status --json` and the language server's messages. */
export function protocolJson(p: RefreshProtocol) {
  return {
    found: p.found,
    where: p.where ?? null,
    requestKey: p.keys.requestKey,
    sessionKeyPrefix: p.keys.sessionKeyPrefix,
    stampKey: p.keys.stampKey,
    keysFrom: p.keysFrom,
    requestKeyFrom: p.requestKeyFrom,
    stampKeyFrom: p.stampKeyFrom,
    learned: p.learned ? { ...p.learned } : null,
    notes: [...p.notes],
    summary: protocolSummary(p),
  };
}

/** The build as `status --json` and the language server give it (`hermes`), with the protocol in use. */
export function hermesJson(build: HermesBuild, protocol: RefreshProtocol) {
  return { ...hermesBuildJson(build), protocol: protocolJson(protocol) };
}
