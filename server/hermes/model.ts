// The Hermes domain vocabulary shared by every part of the engine. Nothing here knows LSP, VS Code
// or SQLite: these are plain data shapes (docs/HERMES-HOMES.md and docs/HERMES-FORMATS.md describe them).

/** A prompt tier (§3). */
export type TierName = 'stable' | 'context' | 'volatile';

/** A Hermes profile directory (§1). */
export interface Profile {
  /** `default` for the root home, else the directory name under `profiles/`. */
  readonly name: string;
  /** Absolute path of the profile directory (the root home itself for `default`). */
  readonly dir: string;
  /** True for the profile `hermes` uses without `-p` (`active_profile`). */
  readonly isActive: boolean;
}

/** A Hermes root home and its profiles (§1). */
export interface HermesHome {
  /** Absolute path of the root home. */
  readonly root: string;
  /** Where the root came from, for messages. */
  readonly origin: 'argument' | 'HERMES_HOME' | 'default';
  readonly activeProfile: string;
  readonly profiles: readonly Profile[];
}

/**
 * One row of `sessions`, decoded: the columns the lens uses (every session read selects them, so
 * no more); columns Hermes lacks in a given schema are undefined (§2).
 */
export interface SessionRecord {
  readonly id: string;
  readonly source: string | undefined;
  readonly model: string | undefined;
  /** Parsed `model_config`; invalid JSON or NULL gives `{}`. */
  readonly modelConfig: Readonly<Record<string, unknown>>;
  /** Identifies the stored prompt text: `hash:<sha>` (v25+) or `inline:<session id>` (the text in the session's own row); undefined when none. */
  readonly promptKey: string | undefined;
  readonly parentSessionId: string | undefined;
  readonly startedAt: number | undefined;
  readonly endedAt: number | undefined;
  readonly endReason: string | undefined;
  readonly messageCount: number | undefined;
  readonly cwd: string | undefined;
  readonly billingProvider: string | undefined;
  readonly billingMode: string | undefined;
  readonly title: string | undefined;
  readonly lastActivityAt: number | undefined;
  /** Tool names pinned for the session (`tool_names`, JSON list or comma text). */
  readonly toolNames: readonly string[];
  /**
   * Hermes' token counters of the session (`input_tokens`, `cache_read_tokens`, `cache_write_tokens`):
   * what a turn that rebuilt its prompt recorded is their change (refresh/adoption.ts).
   */
  readonly inputTokens: number | undefined;
  readonly cacheReadTokens: number | undefined;
  readonly cacheWriteTokens: number | undefined;
}

/** A message of the live transcript (`active=1`), content decoded (§2). */
export interface TranscriptMessage {
  readonly id: number;
  readonly role: string;
  /** Text content; `\x00json:` payloads are decoded and re-serialised as JSON text. */
  readonly content: string;
  readonly toolCalls: string | undefined;
  readonly tokenCount: number | undefined;
}

/** Size figures of the live transcript of one session, computed in SQL without loading the text. */
export interface TranscriptSize {
  readonly messages: number;
  /** Characters of content + tool calls. */
  readonly chars: number;
  /** Sum of `token_count` where Hermes recorded it. */
  readonly recordedTokens: number;
  /** Characters of the messages whose `token_count` is missing (estimated by the cost layer). */
  readonly uncountedChars: number;
}

/** A block of a stored prompt or of a rendering of the sources (§3). */
export type BlockKind =
  | 'identity'
  | 'guidance'
  | 'caller-system'
  | 'project-context'
  | 'git-snapshot'
  | 'platform-hints'
  | 'active-profile'
  | 'skills-index'
  | 'memory'
  | 'user-profile'
  | 'plugin-context'
  | 'conversation-started'
  | 'session-id'
  | 'model-lines'
  | 'runtime-environment'
  | 'other';

/** The source files an instruction can come from (§4). */
export type SourceKind = 'soul' | 'skill' | 'skill-category' | 'project-context' | 'memory' | 'user';

/** A change between what a stored prompt holds and what the sources render today. */
export type ChangeKind = 'added' | 'removed' | 'changed';

/** Why a session is stale: one source that differs. */
export interface StaleReason {
  readonly source: SourceKind;
  /** Absolute path of the file (for a removed file, where it was). */
  readonly path: string;
  readonly change: ChangeKind;
  /** A short human detail, e.g. the skill's name or `description`. */
  readonly detail: string;
}

export type SessionState = 'fresh' | 'stale' | 'pending' | 'no-prompt' | 'ended';
