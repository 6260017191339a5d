// Recording a refresh request (docs/HERMES-INSTALLS.md §4, §5): the only write the lens ever makes to a state.db, and only
// when the user asked for it. One short BEGIN IMMEDIATE transaction, then a PASSIVE checkpoint of
// the WAL (StateStore.writeTransaction); a dry run reads and reports.
import fs = require('node:fs');
import path = require('node:path');
import { HermesError } from '../errors';
import type { HermesBuild } from '../install/hermesBuild';
import type { SessionRecord } from '../model';
import { StateStore } from '../store/stateStore';
import type { ReadAheadNeeds, StateWriteTx } from '../store/writeTransaction';
import type { RetryPolicy } from '../store/transaction';
import { compactionTip } from './compactionTip';
import { DEFAULT_REFRESH_KEYS, nextEpoch, sessionEpochKey, stampKeysOf, type RefreshKeys } from './epochs';
import { CLEAR_PROMPT_DRAWBACKS, requestBlockedBy, requestRefused } from './refreshWording';

export type RefreshStrategy = 'epoch' | 'clear-prompt';

export interface RefreshRequest {
  /** The profile's state.db. */
  readonly dbFile: string;
  readonly profileName: string;
  /** Sessions (each one's compaction tip is the target), or the whole profile when absent. */
  readonly sessionIds?: readonly string[];
  readonly strategy?: RefreshStrategy;
  readonly dryRun?: boolean;
  readonly retry?: Partial<RetryPolicy>;
  /**
   * The profile directory the database belongs to (default: its folder). A write is refused when
   * state.db or a sidecar resolves outside it.
   */
  readonly profileDir?: string;
  /** The root home: a named profile's directory must resolve inside it for a write. */
  readonly homeRoot?: string;
  /**
   * The Hermes build that serves the home (install/detectBuild.ts): no epoch is written for a build
   * that cannot read it, or whose installation cannot be read. Unknown (not given, or nothing
   * found) writes the request.
   */
  readonly build?: HermesBuild;
  /** The protocol's names in use (refreshProtocol.ts); this project's reading when not given. */
  readonly keys?: RefreshKeys;
}

export interface RefreshResult {
  readonly profile: string;
  readonly scope: 'profile' | 'session';
  /** The sessions the request targets (the compaction tips of the ones asked for). */
  readonly sessionIds: readonly string[];
  /** Sessions the user named whose conversation continues elsewhere: named id → tip id. */
  readonly redirected: ReadonlyMap<string, string>;
  /** The epoch recorded (undefined for the clear-prompt strategy). */
  readonly epoch?: number;
  /** Sessions holding a stored prompt in the scope (what Hermes' command reports). */
  readonly storedPromptSessions: number;
  readonly strategy: RefreshStrategy;
  readonly dryRun: boolean;
  /** What Hermes' own command prints, line by line. */
  readonly lines: readonly string[];
}

export function requestRefresh(request: RefreshRequest): RefreshResult {
  const strategy = request.strategy ?? 'epoch';
  const dryRun = request.dryRun ?? false;
  const keys = request.keys ?? DEFAULT_REFRESH_KEYS;
  const blocked = strategy === 'epoch' ? requestBlockedBy(request.build) : undefined;
  if (blocked) throw new HermesError('hermes-build', requestRefused(blocked));
  if (!dryRun) guardWriteTarget(request.dbFile, request.profileDir ?? path.dirname(request.dbFile), request.homeRoot, request.profileName);
  const store = dryRun ? StateStore.openReadOnly(request.dbFile) : StateStore.openForWrite(request.dbFile);
  try {
    const named = request.sessionIds;
    const targets = named ? resolveTargets(store, named) : undefined;
    if (strategy === 'epoch' && !store.hasStateMeta) {
      throw new HermesError(
        'db-no-state-meta',
        `${request.dbFile} has no state_meta table, so this Hermes build cannot take a refresh request. Update Hermes, or use --strategy clear-prompt.`,
        request.dbFile,
      );
    }
    const ids = targets?.map((t) => t.id);
    const scope = ids ?? 'all';
    const stampKeys = stampKeysOf(keys);
    const apply = (tx: StateWriteTx) => {
      const stored = tx.countStoredPromptSessions(scope);
      if (strategy === 'clear-prompt') {
        if (!dryRun) tx.clearStoredPrompts(scope);
        return { stored, epoch: undefined };
      }
      const configs = tx.sessionModelConfigs(stampKeys).map((s) => s.modelConfig);
      // Stamps read before Hermes' last commit: one written since is an epoch state_meta requested
      // then or now, so both are counted (an epoch above every stamp is all a request needs).
      const earlier = tx.earlierStateMeta();
      const epoch = Math.max(nextEpoch(tx.stateMeta(), configs, keys), earlier ? nextEpoch(earlier, [], keys) : 0);
      if (!dryRun) {
        if (ids) for (const id of ids) tx.setStateMeta(sessionEpochKey(id, keys), String(epoch));
        else tx.setStateMeta(keys.requestKey, String(epoch));
      }
      return { stored, epoch };
    };
    // The count is of the targets (a few rows) or of the whole profile; only an epoch reads the
    // stamps. A dry run reads the same figures without taking the write lock.
    const needs: ReadAheadNeeds = { storedPromptsOf: scope, epochStamps: strategy === 'epoch' ? stampKeys : undefined };
    const { stored, epoch } = dryRun ? store.dryRunTransaction(apply) : store.writeTransaction(apply, request.retry, needs);
    const redirected = new Map<string, string>();
    named?.forEach((id, i) => targets![i]!.id !== id && redirected.set(id, targets![i]!.id));
    return {
      profile: request.profileName,
      scope: targets ? 'session' : 'profile',
      sessionIds: ids ?? [],
      redirected,
      epoch,
      storedPromptSessions: stored,
      strategy,
      dryRun,
      lines: hermesStyleLines(ids, stored, strategy, dryRun),
    };
  } finally {
    store.close();
  }
}

/**
 * Writes go only to a state.db that really lives in its profile: links are resolved (fs.realpathSync)
 * and a database, sidecar or named profile folder that leads outside the profile (or the home) is
 * refused before anything is opened for writing. Reads may follow such links; writes never do.
 */
export function guardWriteTarget(dbFile: string, profileDir: string, homeRoot: string | undefined, profileName: string): void {
  const instead = `Nothing was written. Run "hermes sessions refresh-prompts -p ${profileName}" where that file belongs, or replace the link with the real file or folder.`;
  const realDir = realpathOrUndefined(profileDir);
  if (realDir === undefined) return; // a missing profile is reported when the database is opened
  if (homeRoot !== undefined && path.resolve(profileDir) !== path.resolve(homeRoot)) {
    const realRoot = realpathOrUndefined(homeRoot);
    if (realRoot !== undefined && !isInside(realDir, realRoot)) {
      throw new HermesError(
        'db-outside-profile',
        `The profile folder ${profileDir} leads to ${realDir}, outside the Hermes home ${homeRoot}; the lens does not write through links that leave the home. ${instead}`,
        dbFile,
      );
    }
  }
  for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]) {
    let link: fs.Stats;
    try {
      link = fs.lstatSync(file);
    } catch {
      continue; // absent: SQLite creates sidecars next to the real database
    }
    const real = link.isSymbolicLink() ? realpathOrUndefined(file) : path.join(realDir, path.relative(profileDir, file));
    // A database link that resolves nowhere fails to open (it must exist); a sidecar's would be created.
    if (real === undefined && file === dbFile) continue;
    if (real === undefined || !isInside(real, realDir)) {
      const where = real === undefined ? 'a link that does not resolve' : `a link to ${real}`;
      throw new HermesError(
        'db-outside-profile',
        `${file} is ${where}, outside the profile folder ${profileDir}; the lens does not write through links that leave the profile. ${instead}`,
        dbFile,
      );
    }
  }
}

function realpathOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel);
}

/** Each named session's compaction tip, once each, in the order named. */
function resolveTargets(store: StateStore, sessionIds: readonly string[]): SessionRecord[] {
  // Each named session alone; every session only when one was ended by compaction (a tip is looked
  // for among its children). A profile holds tens of thousands of sessions.
  let all: SessionRecord[] | undefined;
  return sessionIds.map((id) => {
    const start = store.session(id);
    if (!start) {
      throw new HermesError('session-missing', `No session ${id} in ${store.file}. "hermes-lens status --all" lists the sessions.`, store.file);
    }
    if (start.endReason !== 'compression') return start; // compactionTip stops at once
    all ??= store.listSessions({ includeEnded: true });
    return compactionTip(start, all);
  });
}

/** The wording of `hermes sessions refresh-prompts`, so users see what they know. */
export function hermesStyleLines(sessionIds: readonly string[] | undefined, stored: number, strategy: RefreshStrategy, dryRun: boolean): string[] {
  const would = dryRun ? 'Would request' : 'Requested';
  const scope = !sessionIds ? 'every session in this profile' : sessionIds.length === 1 ? `session ${sessionIds[0]}` : `${sessionIds.length} sessions`;
  const first = `${would} a system prompt refresh for ${scope} (${stored} session(s) with a stored prompt).`;
  const second =
    strategy === 'clear-prompt'
      ? `Stored prompts cleared: each session rebuilds on its next turn; ${CLEAR_PROMPT_DRAWBACKS}.`
      : 'Each session rebuilds its system prompt at the start of its next turn (one prompt-cache miss per session); history and session ids are kept.';
  return [first, second];
}
