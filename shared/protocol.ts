// Every custom message between the extension and the language server, in one place. Types only
// plus method names: no vscode import, no Node API, so both sides (and any LSP client) share it.
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

export type SessionStateName = 'fresh' | 'stale' | 'pending' | 'no-prompt' | 'ended';
export type TierName = 'stable' | 'context' | 'volatile';

export interface StaleReasonDto {
  source: string;
  path: string;
  change: 'added' | 'removed' | 'changed';
  detail: string;
}

export { OTHER_BUILD } from './otherBuild';

export type AdoptionStateName = 'pending' | 'adopted' | 'adopted-stamp-unread' | 'not-adopted';

/**
 * How the session's latest refresh request stands, as the lens watched it land: pending (no turn
 * yet), adopted (its stamp reached the epoch), adopted with a stamp the lens did not read (its
 * prompt was rebuilt, or another model_config key took the epoch: `stampKey`, learned), or not
 * adopted (a turn on the very same prompt, no stamp moved).
 */
export interface AdoptionDto {
  state: AdoptionStateName;
  epoch: number;
  /** When the lens recorded the request (epoch seconds); null for one found in state_meta (Hermes' own command, another window's lens before this one watched). */
  requestedAt: number | null;
  by: 'lens' | 'seen';
  /** The turn that decided it: messages at the read before and after it, and Hermes' last_activity_at then. */
  turn: { messagesBefore: number; messagesAfter: number; lastActivityAt: number | null } | null;
  decidedAt: number | null;
  stampKey: string | null;
  note: string | null;
  /** What the lens predicted the rebuild would cost, when the request was made. */
  predicted: { costUsd: number | null; prefixTokens: number; cacheWarm: boolean } | null;
  /** What Hermes recorded for the deciding turn: the change of its counters between the last read before and the first read after. */
  recorded: { cacheWriteTokens: number; cacheReadTokens: number; inputTokens: number } | null;
  /** One phrase for the views. */
  summary: string;
}

/** Watched requests of live sessions, by how each stands. */
export interface AdoptionCountsDto {
  adopted: number;
  adoptedStampUnread: number;
  waiting: number;
  notAdopted: number;
}

export interface SessionDto {
  profile: string;
  id: string;
  title: string | null;
  source: string | null;
  model: string | null;
  provider: string | null;
  state: SessionStateName;
  reasons: StaleReasonDto[];
  /**
   * Set when another Hermes build wrote this session's prompt than the profile's newest session's:
   * how that shows, a phrase to follow OTHER_BUILD. Not staleness: in no stale count or cost.
   */
  otherBuild: string | null;
  tipSessionId: string | null;
  lastActivityAt: number | null;
  requestedEpoch: number;
  stampedEpoch: number;
  /** A refresh was requested that the Hermes build serving the home cannot adopt ("requested, but this Hermes build cannot adopt it"). */
  unadoptableRequest: boolean;
  /** The session's latest refresh request as watched (null when none is). */
  adoption: AdoptionDto | null;
  systemPromptTokens: number;
  /** The tool schemas sent before the system prompt, by the sizes Hermes' own code measured (the prompt anatomy view says whose). */
  toolTokens: number;
  prefixTokens: number;
  tokensExact: boolean;
  /** Change in system prompt tokens a refresh would make. */
  deltaTokens: number;
  ttlSeconds: number;
  cacheWarm: boolean;
  cacheExpiresAt: number | null;
  /** null = unknown (no prices for the model). */
  refreshCostUsd: number | null;
  refreshCostColdUsd: number | null;
  apiEquivalent: boolean;
}

/** Whose measured tool-schema sizes price a session's tools, and of which tools. */
export interface ToolTableDto {
  /** The Hermes build measured (`v0.20.3-schema26`). */
  build: string;
  /** `prompt`: the build the prompt's text shows; `installed`: the installed build's version; `newest`: the newest release measured. */
  by: 'prompt' | 'installed' | 'newest';
  /** Whether state.db named the session's tools; else the build's default list for its surface. */
  recorded: boolean;
  tools: number;
  /** Tools that build's table lacks, counted at its average: an estimate. */
  estimated: number;
}

/** A profile without its sessions: what every session list change carries for each profile. */
export interface ProfileSummaryDto {
  name: string;
  home: string;
  dbFile: string;
  active: boolean;
  unavailable: string | null;
  /**
   * Sessions holding a stored prompt, ended ones included: an aggregate over every session, so it
   * follows in a change of its own after a save, and after Hermes writes once their burst settles.
   */
  storedPromptSessions: number;
  requestedEpoch: number;
  /** The live sessions' watched refresh requests. */
  adoption: AdoptionCountsDto;
  problems: string[];
  totals: { sessions: number; stale: number; pending: number; fresh: number; staleRefreshCostUsd: number; unknownCost: number };
  stale: number;
  pending: number;
  staleRefreshCostUsd: number;
  unknownCost: number;
}

export interface ProfileDto extends ProfileSummaryDto {
  /** In no particular order: clients sort them for display. */
  sessions: SessionDto[];
}

export interface SessionListResult {
  /** Which state of the list this is: each change the server sends has a new one. */
  revision: number;
  home: string | null;
  /** Why nothing can be shown (no home, no SQLite binding), when that is the case. */
  problem: string | null;
  profiles: ProfileDto[];
}

/** A field a patch can change: any but `id`, which names the session. */
export type SessionPatchField = Exclude<keyof SessionDto, 'id'>;

/**
 * Sessions the list holds that changed in the same fields, as columns: `values[f][i]` is the new
 * value of field `fields[f]` of the i-th session `at` names. The client replaces each session held
 * by a copy with those fields set, the others as held. Columns because a save of SOUL.md changes
 * the same three numbers of thousands of sessions: three lists of numbers, instead of an object per
 * session to build, send, parse and merge. A delta has one entry per set of fields changed, and a
 * session is in one at most.
 *
 * Sessions are named by where they sit in the client's list, in runs: `at` is `[first, count,
 * first, count, …]`, the positions `first` to `first + count - 1` in turn. A position is one of
 * the list at `base` once the delta's `removed` sessions are taken out of it: a client keeps the
 * sessions it holds in their order and adds new ones at the end (shared/sessionListChanges.ts),
 * and the server follows the same order. Ids were two thirds of a save's delta; a save that
 * patches 2,000 sessions in a row names them with two numbers.
 *
 * No value is null: a session with a field that became null goes whole (`changed`) instead, since
 * some clients' JSON decoders drop null members and array elements (Neovim's LSP client does), and
 * there a patch could not clear the field.
 */
export interface SessionPatchesDto {
  /** The fields these sessions changed in, at least one, each once. */
  fields: SessionPatchField[];
  /** The sessions' positions, as runs of consecutive positions: `[first, count, …]`. */
  at: number[];
  /** One column per field, one value per session. */
  values: Array<Array<NonNullable<SessionDto[SessionPatchField]>>>;
}

/**
 * A profile's summary and how its sessions changed since the base revision. A session that did
 * not change is in none of the lists, and a session is in one at most, once.
 */
export interface ProfileDeltaDto extends ProfileSummaryDto {
  /** Sessions whole (as in the full list): new ones, and held ones a patch cannot describe (they replace the one held). */
  changed: SessionDto[];
  /** Sessions the list at `base` holds that changed, as patches, one entry per set of fields changed. */
  patched: SessionPatchesDto[];
  /** Ids of sessions no longer in the list. */
  removed: string[];
}

/** What changed between two revisions of the list; every profile is listed, in the list's order. */
export interface SessionListDelta {
  revision: number;
  /** The revision this delta applies to (a full list has none). */
  base: number;
  home: string | null;
  problem: string | null;
  profiles: ProfileDeltaDto[];
}

/**
 * A change of the session list: the full list (the first change after the server starts or is
 * reconfigured) or a delta against the revision before. A client whose list is not at `base`, or
 * that gets a patch for a position its list does not have, is out of step: it asks for the full list (`hermes/sessionList`); shared/sessionListChanges.ts applies changes.
 */
export type SessionListChange = SessionListResult | SessionListDelta;

/** client → server: the full session list, at the revision of the last change sent. */
export const SessionListRequest = new RequestType<Record<string, never>, SessionListResult, void>('hermes/sessionList');

/** server → client: the session list changed (a save, a refresh, or Hermes wrote to a state.db). */
export const SessionListChangedNotification = new NotificationType<SessionListChange>('hermes/sessionListChanged');

/** The Hermes build that serves the home (the same as `hermes-lens status --json`'s `hermes`). */
export interface HermesBuildDto {
  /** pyproject.toml's version; null when no installation was found or read. */
  version: string | null;
  /** The installation folder; null when none was found (a remote gateway). */
  path: string | null;
  /** Whether it adopts refresh requests; null when that cannot be told. */
  refresh: boolean | null;
  /** Why the installation cannot be read (names the path and what to do); null when it can. */
  problem: string | null;
  /** One sentence for the views. */
  summary: string;
  /** The refresh protocol's names in use and where they came from. */
  protocol: RefreshProtocolDto;
}

/** The names of the refresh protocol in use (`hermes.protocol` of `status --json`). */
export interface RefreshProtocolDto {
  /** What shows the build has refresh-prompts: its CLI registers it, only a help text names it, only the guessed module is there, nothing, or no installation was read. */
  found: 'cli-text' | 'help-text' | 'module' | 'none' | 'unknown';
  /** The file that shows it. */
  where: string | null;
  requestKey: string;
  sessionKeyPrefix: string;
  stampKey: string;
  /** `install`: read from its sources; `learned`: a session was seen stamping it; `default`: this project's reading; `mixed`: not all from one. */
  keysFrom: 'install' | 'learned' | 'default' | 'mixed';
  requestKeyFrom: 'install' | 'default';
  stampKeyFrom: 'install' | 'learned' | 'default';
  learned: { stampKey: string; profile: string; sessionId: string; epoch: number; at: number } | null;
  /** Why names were not taken from the sources, or what could not be read. */
  notes: string[];
  summary: string;
}

export interface RefreshParams {
  profile: string;
  /** These sessions (each one's compaction tip), or the whole profile when absent. */
  sessionIds?: string[];
  /**
   * The profile's stale sessions (the "Refresh N stale sessions" action); ignored with sessionIds.
   * With the epoch strategy this records the profile-wide request (stale sessions are the ones it
   * costs); with clear-prompt it clears the stale sessions' prompts.
   */
  onlyStale?: boolean;
  strategy?: 'epoch' | 'clear-prompt';
  dryRun?: boolean;
}

export interface RefreshResultDto {
  profile: string;
  scope: 'profile' | 'session';
  sessionIds: string[];
  epoch: number | null;
  storedPromptSessions: number;
  strategy: 'epoch' | 'clear-prompt';
  dryRun: boolean;
  /** The Hermes-style message, with how the request stands for the sessions it concerns. */
  message: string;
  /** The sessions the request concerns, by how it stands for each (all waiting right after it). */
  adoption: AdoptionCountsDto | null;
}

/** client → server: record a refresh request (refused in untrusted workspaces). */
export const RefreshRequest = new RequestType<RefreshParams, RefreshResultDto, void>('hermes/refresh');

export interface RefreshPreviewDto {
  profile: string;
  /** `profile`: the profile-wide request; `session`: a request about the sessions named (or cleared). */
  scope: 'profile' | 'session';
  /** The sessions the refresh costs: the ones named, or the profile's stale ones. */
  sessions: number;
  warm: number;
  cold: number;
  warmCostUsd: number;
  coldCostUsd: number;
  unknownCost: number;
  apiEquivalent: boolean;
  /** Fresh sessions a profile-wide request also reaches: they rebuild the same bytes and keep their cache (no cost). */
  alsoRebuiltFresh: number;
  /** What the refresh does, in one sentence (for clear-prompt: with its two drawbacks). */
  effect: string;
  /** The Hermes build that serves the home. */
  hermes: HermesBuildDto;
  /**
   * Why no refresh request (the epoch strategy) would be written: the build cannot adopt one, or
   * its installation cannot be read. The older way (clear-prompt) is offered instead. Null when a
   * request may be written.
   */
  requestBlocked: string | null;
}

/** client → server: what a refresh would touch and cost (for the confirmation dialog). */
export const RefreshPreviewRequest = new RequestType<RefreshParams, RefreshPreviewDto, void>('hermes/refreshPreview');

export interface PromptBlockDto {
  kind: string;
  tier: TierName;
  start: number;
  end: number;
  bytes: number;
  tokens: number;
  label?: string;
}

export interface PromptAnatomyDto {
  profile: string;
  sessionId: string;
  text: string;
  bytes: number;
  tokens: number;
  tokensExact: boolean;
  tiers: Array<{ name: TierName; start: number; end: number; bytes: number; tokens: number }>;
  blocks: PromptBlockDto[];
}

export interface SessionRef {
  profile: string;
  sessionId: string;
}

/** client → server: a session's stored prompt and its tiers. */
export const PromptAnatomyRequest = new RequestType<SessionRef, PromptAnatomyDto, void>('hermes/promptAnatomy');

export interface PromptDiffDto {
  profile: string;
  sessionId: string;
  before: string;
  after: string;
  sections: Array<{ section: string; change: string; hunks: string[] }>;
}

/** client → server: the stored prompt and what a refresh would build instead. */
export const PromptDiffRequest = new RequestType<SessionRef, PromptDiffDto, void>('hermes/promptDiff');

/** Where one part of a stored prompt comes from, for the prompt anatomy view. Carries no prompt text. */
export interface PromptPartDto {
  /** The anatomy's block kind (`identity`, `project-context`, `skills-index`, `memory`, …). */
  kind: string;
  tier: TierName;
  /** The source's name: `SOUL.md`, a context file's label (`../AGENTS.md`), `skills/`, `MEMORY.md`, or "Hermes' own text". */
  label: string;
  origin: 'file' | 'folder' | 'config' | 'hermes';
  /** Absolute path of the file (the skills folder for the index); null for Hermes' own text. */
  path: string | null;
  /** 0-based line where the part's text starts in the file, when found. */
  line: number | null;
  /** UTF-16 offsets into the stored prompt (as PromptAnatomyDto's). */
  start: number;
  end: number;
  bytes: number;
  tokens: number;
  /** Share of the prompt's tokens in tenths of a percent; the parts' shares add up to 1000. */
  shareTenths: number;
  /** The session's stale reasons that concern this part. */
  stale: StaleReasonDto[];
  /**
   * For the skills index: each line's skill, with its SKILL.md and the line of its description, the
   * bytes its index line costs every request and its SKILL.md's bytes (what loading it costs once).
   */
  entries: Array<{ name: string; category: string; path: string | null; line: number | null; stale: StaleReasonDto | null; indexBytes: number | null; skillMdBytes: number | null }>;
}

/** The tool schemas every request of a session sends before its system prompt: the first block of the cached prefix. */
export interface PromptToolsDto {
  tokens: number;
  bytes: number;
  count: number;
  /** Whose measured sizes (the Hermes build, `v0.20.3-schema26`) and why: the prompt's text shows it, the installed build's version, or the newest release measured. */
  build: string;
  /** How to call that build to a user: `Hermes 0.20.3`, or a fork's or derived build said as such. */
  buildTitle: string;
  by: 'prompt' | 'installed' | 'newest';
  /** Whether state.db named the tools; else the build's default list for the session's surface. */
  recorded: boolean;
  /** Tools the build's table lacks, at its average: an estimate. */
  estimated: number;
  /** Largest first. */
  toolsets: Array<{ toolset: string; tools: number; tokens: number; bytes: number }>;
}

export interface PromptMapDto {
  profile: string;
  sessionId: string;
  bytes: number;
  tokens: number;
  tokensExact: boolean;
  tiers: Array<{ name: TierName; bytes: number; tokens: number; shareTenths: number }>;
  /** In the order of the prompt. */
  parts: PromptPartDto[];
  /** Stale reasons of files the prompt does not carry yet (a context file or memory added since). */
  unplaced: StaleReasonDto[];
  /** The tool schemas sent before the prompt; null when the session is not in the report. */
  tools: PromptToolsDto | null;
}

/** client → server: a session's stored prompt as parts with their files, sizes and stale marks (the prompt anatomy view). */
export const PromptMapRequest = new RequestType<SessionRef, PromptMapDto, void>('hermes/promptMap');

export interface StatusParams {
  severity: 'ok' | 'warning' | 'error';
  /** Short text for the status item, e.g. `3 stale · ≈ $0.84`. */
  text: string;
  detail: string;
  stale: number;
  pending: number;
  staleRefreshCostUsd: number;
  /** SQLite binding in use, or null when none loads. */
  driver: string | null;
  /** The Hermes build that serves the home (its summary is also in `detail`). */
  hermes: HermesBuildDto;
  /** Watched refresh requests of every profile's live sessions. */
  adoption: AdoptionCountsDto;
}

/** server → client: the language status item's content. */
export const StatusNotification = new NotificationType<StatusParams>('hermes/status');

export interface SavedSourceParams {
  /** The file that was saved. */
  uri: string;
  profile: string;
  /** Sessions that this save made stale (they were fresh before it). */
  newlyStale: number;
  staleTotal: number;
  staleRefreshCostUsd: number;
}

/** server → client: a save made sessions stale (drives the one-click refresh notification). */
export const SavedSourceNotification = new NotificationType<SavedSourceParams>('hermes/savedSource');

/** client → server: what the client passes as `initializationOptions`. */
export interface HermesInitializationOptions {
  /** false in Restricted Mode: the server reads but refuses to write (refresh requests). */
  isTrusted: boolean;
  /** The client runs ClientCommands from `command:` links in hovers (VS Code does; other editors would show the link as text). */
  hoverCommandLinks?: boolean;
}

/** Commands the server executes through `workspace/executeCommand`. */
export const Commands = {
  /** args: [RefreshParams] */
  refresh: 'hermesLens.server.refresh',
} as const;

/** Client-side commands the server puts on code lenses (an editor without them ignores the click). */
export const ClientCommands = {
  /** Reveal the Sessions view. */
  showSessions: 'hermesLens.showSessions',
  /** Open the prompt anatomy view. args: [{ profile, sessionId?, path? }] (path: the file whose part to select). */
  showPromptAnatomy: 'hermesLens.showPromptAnatomy',
  /** Clear a session's stored prompt, the older way, after a confirmation naming its drawbacks. args: [{ profile, sessionId }] */
  clearSessionPrompt: 'hermesLens.clearSessionPrompt',
} as const;

/** client → server: workspace trust changed (the server starts with `initializationOptions.isTrusted`). */
export const TrustChangedNotification = new NotificationType<{ isTrusted: boolean }>('hermes/trustChanged');

/** client → server: what saving an open document would do (the status item while the active editor is dirty). */
export interface SavePreviewParams {
  uri: string;
}

/**
 * What saving a source file's unsaved text would do, judged on that text as the saved file would
 * be. The sessions counted are those stale because of this file once saved, as its lens would
 * count them after the save.
 */
export interface SavePreviewDto {
  uri: string;
  /** Whether the text puts anything into a session's prompt that the saved file does not. */
  changesPrompt: boolean;
  /** Live sessions carrying the file. */
  sessions: number;
  /** Sessions stale because of this file once saved. */
  stale: number;
  /** Of those, the ones already stale because of the saved file. */
  alreadyStale: number;
  /** Sessions stale now because of this file and current once saved. */
  currentAgain: number;
  /** What refreshing the `stale` sessions would cost right after saving. */
  costUsd: number;
  unknownCost: number;
  /** Of the `stale` sessions, those whose prompt cache is warm. */
  warm: number;
  /** `Saving makes 7 sessions stale (≈ $0.42 to refresh now; 3 warm)`, or `Saving changes no session's prompt`. */
  sentence: string;
  /** `saving makes 7 sessions stale · ≈ $0.42` (lens and status item). */
  short: string;
}

/** client → server: the save preview of an open document; null when it is no Hermes source or has no unsaved change. */
export const SavePreviewRequest = new RequestType<SavePreviewParams, SavePreviewDto | null, void>('hermes/savePreview');

/** A session's refresh request waiting for its prompt cache to expire (refresh when free). */
export interface ScheduledRefreshDto {
  profile: string;
  sessionId: string;
  /** When it is recorded: the cache's expiry, epoch seconds. */
  at: number;
}

export interface RefreshWhenFreeResultDto {
  profile: string;
  /** Requests waiting for their session's cache to expire, earliest first. */
  scheduled: ScheduledRefreshDto[];
  /** Sessions whose cache had expired already: their requests were recorded now (none in a dry run). */
  writtenNow: string[];
  /** What the requests cost once each cache has expired (the prompt change alone). */
  costUsd: number;
  unknownCost: number;
  dryRun: boolean;
  message: string;
}

/**
 * client → server: refresh the stale sessions of `sessionIds` (else of the profile) when free: each
 * session's request is recorded when its prompt cache expires (refused in untrusted workspaces;
 * `dryRun` only plans).
 */
export const RefreshWhenFreeRequest = new RequestType<RefreshParams, RefreshWhenFreeResultDto, void>('hermes/refreshWhenFree');

/** Which waiting requests to cancel: of these sessions of `profile`, of the whole profile without ids, of every profile without one. */
export interface CancelRefreshWhenFreeParams {
  profile?: string;
  sessionIds?: string[];
}

export interface CancelRefreshWhenFreeResultDto {
  /** The requests dropped, earliest first. */
  cancelled: ScheduledRefreshDto[];
  message: string;
}

/** client → server: drop requests waiting to be recorded when free (nothing is written to state.db). */
export const CancelRefreshWhenFreeRequest = new RequestType<CancelRefreshWhenFreeParams, CancelRefreshWhenFreeResultDto, void>('hermes/cancelRefreshWhenFree');

/** server → client: the requests waiting to be recorded when free, earliest first (after every change). */
export const RefreshScheduleChangedNotification = new NotificationType<{ entries: ScheduledRefreshDto[] }>('hermes/refreshScheduleChanged');
