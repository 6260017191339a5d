// Memoised work for re-evaluation. Stored prompts are kept by their content (`hash:<sha>`), so their
// anatomy never goes stale. An inline (pre-v25) prompt's key names its session (`inline:<id>`), and
// Hermes may rewrite the text under it: its text is read again after a commit, and it is kept under
// the identity Hermes would give the same text out of line, so the sessions sharing a text share one
// parse and one judgement in either layout (knownIdentity).
// Sources are kept per part: the profile's own files (config.yaml, SOUL.md, skills, MEMORY.md,
// USER.md) once per profile, project context once per session cwd. A change drops only the parts
// its paths can affect (a save of SOUL.md re-reads SOUL.md, not a thousand skills), and the
// staleness judged from them.
import path = require('node:path');
import type { PromptAnatomy } from '../anatomy/types';
import type { ProfileConfig } from '../profile/config';
import type { SessionRecord, StaleReason, TranscriptSize } from '../model';
import { promptHash } from '../store/promptHash';
import { INLINE_PROMPT_KEY } from '../store/promptLayout';
import type { StateStore } from '../store/stateStore';
import { canonicalPath } from '../canonicalPath';
import { flavourOf, isAtOrInside, relativeInside, samePath } from '../pathFlavour';
import type { Judgement } from './judgement';
import { memo } from '../memo';
import type { ReportWorld, ReusableReport } from './sessionReport';
import type { PriceOverrides } from '../cost/prices';
import { isRequestKey, requestedEpochs, type RefreshKeys } from '../refresh/epochs';
import { externalFolderOf } from '../sources/skills';
import type { MemorySource, ProjectContext, RenderedSources, SkillsIndex, SoulSource } from '../sources/types';

export interface CachedTranscript {
  /** The row the size was read for: the same record object is the same row, unchanged. */
  readonly record: SessionRecord;
  /** Hermes bumps these on every turn; equal values mean the transcript is unchanged. */
  readonly fingerprint: string;
  readonly size: TranscriptSize;
}

/** Where `AnalysisCache.anatomy` gets a stored prompt's text, and how it parses it. */
export interface PromptReader {
  text(key: string): string;
  /** An inline key's text as UTF-8 bytes, where the database can give them (else `text`). */
  inlineBytes(key: string): Uint8Array | undefined;
  /** Parses the text of the prompt whose identity (knownIdentity) is `identity`. */
  parse(text: string, identity: string): PromptAnatomy;
}

/** A stored prompt as read: its text, or its UTF-8 bytes, decoded only if it must be parsed. */
export type ReadPrompt = string | Uint8Array;

/** The profile's own sources, each read on first use after a change. */
export interface ProfileParts {
  config?: ProfileConfig;
  soul?: SoulSource;
  skills?: SkillsIndex;
  memory?: MemorySource;
  user?: MemorySource;
}

export class AnalysisCache {
  /**
   * Parsed stored prompts per prompt identity (see `knownIdentity`), the most recently used last:
   * beyond `anatomiesKept` the oldest goes, with its judgements (which hold it).
   */
  private readonly anatomies = new Map<string, PromptAnatomy>();
  /** The text of each inline prompt's identity as last read: what recheckInline compares the rows with. */
  private readonly inlineTexts = new Map<string, string>();
  /** Where a prompt whose anatomy went is read again when a view asks (set by analyzeProfile; none: not read). */
  promptsLater: PromptReader | undefined;
  /** The identity of each inline prompt key's text when it was last read. */
  private readonly inlineIdentities = new Map<string, string>();
  /** Inline prompts Hermes may have rewritten since they were read (their key does not change). */
  private readonly uncheckedInline = new Set<string>();
  /** Rendered sources per session cwd ('' = none), assembled from `parts` and `projectContexts`. */
  readonly sources = new Map<string, RenderedSources>();
  readonly parts: ProfileParts = {};
  readonly projectContexts = new Map<string, ProjectContext>();
  /**
   * Staleness and ΔS by prompt identity, then session cwd ('' = none), kept across changes of the
   * sources: each is judged again from the last for the parts that changed (engine/judgement.ts).
   * Two levels, so a lookup hashes the record's own strings instead of a key made per session.
   */
  readonly staleness = new Map<string, Map<string, Judgement>>();
  /** Skill reasons per stored skills-index text (thousands of sessions share a few indexes). */
  readonly skillReasons = new Map<string, StaleReason[]>();
  readonly transcripts = new Map<string, CachedTranscript>();
  /** The live sessions' cwds of the last evaluation, and the sources' problems in the world they were found in (analyzeProfile). */
  lastCwds: { readonly world: ReportWorld; readonly cwds: readonly string[]; readonly problems: readonly string[] } | undefined;
  /** Each live session's last report and what it was computed from (see sessionReport.ts). */
  readonly reports = new Map<string, ReusableReport>();
  /**
   * The sessions' reports of the last evaluation in the order of its list of sessions (the same
   * array while no row changed, keptConnection.ts): the next evaluation finds each session's report near
   * its position there (NearPosition), and for the same list its transcript sizes are all still read.
   */
  lastReports: { readonly listed: readonly SessionRecord[]; readonly reports: readonly ReusableReport[] } | undefined;
  /** Bumped by every change of the sources (see ReportWorld). */
  private sourcesGeneration = 0;
  private lastWorld: ReportWorld | undefined;
  /** The profile directory this cache belongs to (set by analyzeProfile). */
  profileDir: string | undefined;

  /**
   * `anatomiesKept`: how many parsed prompts stay in memory (all by default). The language server
   * keeps a few: its verdicts are judged again without the prompts (keptVerdicts.ts), and a view
   * reads its prompt again.
   */
  constructor(private readonly anatomiesKept = Infinity) {}

  /**
   * Whether the bound on parsed prompts holds: not for a profile whose verdicts keep nothing to be
   * judged again without the prompt (a caller's system message), whose every save judges each prompt itself.
   */
  bounded = true;

  /** The world of this evaluation: the last one's object when nothing in it changed. */
  world(config: ProfileConfig, meta: ReadonlyMap<string, string>, priceOverrides: PriceOverrides | undefined, adoptsRequests: boolean, keys: RefreshKeys, installedVersion: string | undefined): ReportWorld {
    let epochs = '';
    for (const [key, value] of meta) if (isRequestKey(key, keys)) epochs += `${key}=${value}\n`;
    const last = this.lastWorld;
    if (
      last &&
      last.config === config &&
      last.sourcesGeneration === this.sourcesGeneration &&
      last.priceOverrides === priceOverrides &&
      last.epochs === epochs &&
      last.adoptsRequests === adoptsRequests &&
      sameKeys(last.keys, keys) &&
      last.installedVersion === installedVersion
    ) {
      return last;
    }
    return (this.lastWorld = { config, sourcesGeneration: this.sourcesGeneration, priceOverrides, epochs, requestedEpoch: requestedEpochs(meta, keys), adoptsRequests, keys, installedVersion });
  }

  /**
   * The anatomy of a session's prompt key: kept, or parsed again from what `promptsLater` reads
   * (an inline text from the copy kept of it). Undefined when neither can answer.
   */
  anatomyOfKey(promptKey: string | undefined): PromptAnatomy | undefined {
    if (promptKey === undefined) return undefined;
    const identity = this.inlineIdentities.get(promptKey) ?? promptKey;
    const kept = this.keptAnatomy(identity);
    if (kept || !this.promptsLater || identity.startsWith(INLINE_PROMPT_KEY)) return kept;
    try {
      let text = this.inlineTexts.get(identity);
      if (text === undefined && promptKey.startsWith(INLINE_PROMPT_KEY)) {
        // The session's own copy, read now: it holds its identity's text unless Hermes rewrote it since.
        text = this.promptsLater.text(promptKey);
        if (contentIdentity(text) !== identity) return undefined;
      }
      return this.anatomy(identity, this.promptsLater, promptKey, text);
    } catch {
      // The connection it read through was closed since (the file replaced): the next evaluation reads it.
      return undefined;
    }
  }

  /** Whether any prompt would be read again (mustRecheck: an evaluation asks once, not per session). */
  mustRecheckAny(): boolean {
    return this.uncheckedInline.size > 0;
  }

  /** Whether `anatomy` would read this prompt's text again (an inline prompt after a commit). */
  mustRecheck(promptKey: string | undefined): boolean {
    return promptKey !== undefined && this.uncheckedInline.has(promptKey);
  }

  /**
   * Instruction files changed. With `paths`, only the sources those files can feed are dropped (and
   * read again on next use); without, everything derived from the sources goes.
   */
  sourcesChanged(paths?: readonly string[]): void {
    this.sourcesGeneration++;
    if (!paths || !this.profileDir) return this.dropAllSources();
    // Compared as real paths: an editor may name SOUL.md through a link to the profile.
    const dir = canonicalPath(this.profileDir);
    const cwds = new Set<string>();
    let profileLevel = false;
    for (const changed of paths) {
      const file = canonicalPath(changed);
      // A file of a skills.external_dirs folder feeds the index as one of skills/ does.
      const kinds: Array<keyof ProfileParts> = this.parts.skills && externalFolderOf(this.parts.skills, file) !== undefined ? ['skills'] : profileParts(dir, file);
      if (kinds.includes('config')) return this.dropAllSources();
      if (kinds.length > 0) {
        for (const kind of kinds) delete this.parts[kind];
        if (kinds.includes('skills')) this.skillReasons.clear();
        profileLevel = true;
        continue;
      }
      // A project file feeds the cwds at or below its folder (discovery walks up from cwd to the git
      // root; `.cursor/rules/*.mdc` is read in cwd only). Compared in the paths' own flavour: a
      // Windows session's cwd matches whatever the case of its letters (pathFlavour.ts).
      const p = flavourOf(file);
      const folder = p.dirname(file);
      const rulesOf = p.basename(folder) === 'rules' && p.basename(p.dirname(folder)) === '.cursor' ? p.dirname(p.dirname(folder)) : undefined;
      for (const key of this.projectContexts.keys()) {
        const cwd = key && canonicalPath(key);
        if (cwd && (isAtOrInside(folder, cwd) || (rulesOf !== undefined && samePath(cwd, rulesOf)))) cwds.add(key);
      }
    }
    for (const cwd of cwds) {
      this.projectContexts.delete(cwd);
      this.sources.delete(cwd);
    }
    // The judgements stay: each is judged again for the parts that are new objects now.
    if (profileLevel) this.sources.clear();
  }

  /**
   * What a session's stored prompt is kept under, its identity: a key `hash:<sha>` as it is (its
   * text never changes under it), an inline key as `hash:` and the sha256 of its text, as Hermes
   * would store that text out of line. An inline text is read on first use and again after a
   * database change may have rewritten it (promptsMayHaveChanged). The same text gives the same
   * identity, so the parse and the staleness judged from it are kept, and the session's report too
   * (sessionReport.ts), as for any session Hermes did not touch.
   *
   * `knownIdentity` answers without reading (undefined: the text must be read first, by
   * `readIdentity`), so the evaluation's pass over every session allocates nothing for it.
   */
  knownIdentity(promptKey: string): string | undefined {
    if (!promptKey.startsWith(INLINE_PROMPT_KEY)) return promptKey;
    return this.uncheckedInline.has(promptKey) ? undefined : this.inlineIdentities.get(promptKey);
  }

  /**
   * An inline prompt's identity, from its text read now (see knownIdentity): the sha256 of its
   * UTF-8 bytes, as Hermes hashes a text it stores out of line.
   */
  readIdentity(promptKey: string, prompts: PromptReader): { readonly identity: string; readonly read: ReadPrompt } {
    const known = this.inlineIdentities.get(promptKey);
    this.uncheckedInline.delete(promptKey);
    const read = prompts.inlineBytes(promptKey) ?? prompts.text(promptKey);
    const identity = contentIdentity(read);
    if (identity !== known) {
      this.inlineIdentities.set(promptKey, identity);
      if (known !== undefined) this.forgetUnreferenced([known]);
    }
    return { identity, read };
  }

  /**
   * Settles the inline prompts a database change may have rewritten (promptsMayHaveChanged) that
   * still hold the text they were parsed from: SQLite compares them with it, one query per text,
   * where reading them would copy every session's prompt into JavaScript and hash it (60 MB for
   * 2,000 sessions before v25, after every burst of Hermes writes). Those that differ stay
   * unchecked, and readIdentity reads them. Only `listed` sessions: one no longer listed stays
   * unchecked, and the next change lets its prompt go (promptsMayHaveChanged).
   */
  recheckInline(store: StateStore, listed: readonly SessionRecord[]): void {
    const byIdentity = inlineSessionsByIdentity(listed, (_record, key) => {
      if (!this.uncheckedInline.has(key)) return undefined;
      const identity = this.inlineIdentities.get(key);
      return identity !== undefined && this.inlineTexts.has(identity) ? identity : undefined;
    });
    for (const [identity, ids] of byIdentity) {
      for (const id of store.sessionsHoldingPrompt(ids, this.inlineTexts.get(identity)!)) this.uncheckedInline.delete(INLINE_PROMPT_KEY + id);
    }
  }

  /**
   * A one-pass run (`hermes-lens status`), before its pass over the sessions: the identities an
   * earlier run found the listed inline prompts to hold (`kept`), checked without hashing every copy
   * (60 MB for 2,000 sessions): of each identity one copy is read and hashed, and SQLite compares
   * the others with it. Those holding it are known (knownIdentity); the rest are read (readIdentity).
   */
  settleKeptInline(store: StateStore, listed: readonly SessionRecord[], kept: (sessionId: string) => string | undefined): void {
    const byIdentity = inlineSessionsByIdentity(listed, (record, key) => (this.inlineIdentities.has(key) ? undefined : kept(record.id)));
    for (const [identity, ids] of byIdentity) {
      const bytes = store.inlinePromptBytes(INLINE_PROMPT_KEY + ids[0]);
      // A copy rewritten since (or a UTF-16 database): these sessions are read one by one.
      if (bytes === undefined || contentIdentity(bytes) !== identity) continue;
      for (const id of store.sessionsHoldingPrompt(ids, bytes)) this.inlineIdentities.set(INLINE_PROMPT_KEY + id, identity);
    }
  }

  /** The listed sessions' inline prompts by the identity known of them now (knownIdentity): what the next status settles. */
  knownInlineIdentities(listed: readonly SessionRecord[]): Map<string, string[]> {
    return inlineSessionsByIdentity(listed, (_record, key) => this.knownIdentity(key));
  }

  /**
   * The parsed prompt of an identity (knownIdentity), parsed on first use from `text`, else from
   * what `readKey` (the prompt key of a session holding it) reads: an identity of an inline text
   * has no row of its own to read it from.
   */
  anatomy(identity: string, prompts: PromptReader, readKey: string, read?: ReadPrompt): PromptAnatomy {
    const kept = this.keptAnatomy(identity);
    if (kept) return kept;
    const text = read === undefined ? prompts.text(readKey) : textOf(read);
    const anatomy = prompts.parse(text, identity);
    if (readKey.startsWith(INLINE_PROMPT_KEY)) this.inlineTexts.set(identity, text);
    this.anatomies.set(identity, anatomy);
    if (this.bounded && this.anatomies.size > this.anatomiesKept) {
      const oldest = this.anatomies.keys().next().value!;
      this.anatomies.delete(oldest);
      this.staleness.delete(oldest);
    }
    return anatomy;
  }

  /** A kept anatomy, made the most recently used (a bounded cache lets the least recently used go first). */
  private keptAnatomy(identity: string): PromptAnatomy | undefined {
    const anatomy = this.anatomies.get(identity);
    if (anatomy && this.bounded && this.anatomiesKept !== Infinity) {
      this.anatomies.delete(identity);
      this.anatomies.set(identity, anatomy);
    }
    return anatomy;
  }

  /**
   * Another connection committed: the inline prompts of these sessions (of every session when none
   * are named) may have been rewritten in place, so `readIdentity` reads them again.
   */
  promptsMayHaveChanged(sessionIds?: Iterable<string>): void {
    // Inline prompts left unchecked since the last change belong to sessions no longer listed.
    if (this.uncheckedInline.size > 0) {
      const identities: string[] = [];
      for (const key of this.uncheckedInline) {
        const identity = this.inlineIdentities.get(key);
        if (identity !== undefined) identities.push(identity);
        this.inlineIdentities.delete(key);
      }
      this.uncheckedInline.clear();
      this.forgetUnreferenced(identities);
    }
    if (!sessionIds) {
      for (const key of this.inlineIdentities.keys()) this.uncheckedInline.add(key);
      return;
    }
    for (const id of sessionIds) if (this.inlineIdentities.has(INLINE_PROMPT_KEY + id)) this.uncheckedInline.add(INLINE_PROMPT_KEY + id);
  }

  /**
   * Drops the anatomies and staleness of these identities of inline texts that no inline key holds
   * any more. (One a session stored by hash still uses is parsed again on its next use.)
   */
  private forgetUnreferenced(identities: readonly string[]): void {
    if (identities.length === 0) return;
    const held = new Set(this.inlineIdentities.values());
    for (const identity of identities) {
      if (held.has(identity)) continue;
      this.anatomies.delete(identity);
      this.inlineTexts.delete(identity);
      this.staleness.delete(identity);
    }
  }

  private dropAllSources(): void {
    for (const key of Object.keys(this.parts) as Array<keyof ProfileParts>) delete this.parts[key];
    this.projectContexts.clear();
    this.sources.clear();
    this.staleness.clear();
    this.skillReasons.clear();
  }
}

function newList(): string[] {
  return [];
}

/** The ids of the listed sessions with an inline prompt, by the identity `identityOf` gives it (undefined: left out). */
function inlineSessionsByIdentity(listed: readonly SessionRecord[], identityOf: (record: SessionRecord, key: string) => string | undefined): Map<string, string[]> {
  const byIdentity = new Map<string, string[]>();
  for (const record of listed) {
    const key = record.promptKey;
    if (key === undefined || !key.startsWith(INLINE_PROMPT_KEY)) continue;
    const identity = identityOf(record, key);
    if (identity !== undefined) memo(byIdentity, identity, newList).push(record.id);
  }
  return byIdentity;
}

/** Which of the profile's own sources `file` feeds, if any (compared as pathFlavour.ts does: a Windows profile whatever the case). */
function profileParts(profileDir: string, file: string): Array<keyof ProfileParts> {
  const rel = relativeInside(profileDir, file);
  if (rel === undefined || rel === '') return [];
  const [first, second, ...more] = rel.split(flavourOf(profileDir).sep);
  const named = (name: string, wanted: string) => name === wanted || (flavourOf(profileDir) === path.win32 && name.toLowerCase() === wanted.toLowerCase());
  if (second === undefined && named(first!, 'config.yaml')) return ['config'];
  if (second === undefined && named(first!, 'SOUL.md')) return ['soul'];
  if (named(first!, 'skills')) return ['skills'];
  if (!named(first!, 'memories')) return [];
  if (more.length === 0 && second !== undefined && named(second, 'MEMORY.md')) return ['memory'];
  if (more.length === 0 && second !== undefined && named(second, 'USER.md')) return ['user'];
  // Anything else in the memories folder (a rename, an editor's temporary file): both memory files.
  return ['memory', 'user'];
}

/** The key Hermes stores a text under from v25 on (`hash:` and the sha256 of its UTF-8 bytes). */
function contentIdentity(read: ReadPrompt): string {
  return `hash:${promptHash(read)}`;
}

function textOf(read: ReadPrompt): string {
  return typeof read === 'string' ? read : Buffer.from(read.buffer, read.byteOffset, read.byteLength).toString('utf8');
}

function sameKeys(a: RefreshKeys, b: RefreshKeys): boolean {
  return a === b || (a.requestKey === b.requestKey && a.sessionKeyPrefix === b.sessionKeyPrefix && a.stampKey === b.stampKey);
}
