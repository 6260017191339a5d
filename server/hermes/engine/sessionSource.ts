// How an analysis reads a profile's sessions: once, opening and closing the database (the CLI), or
// through a connection kept open between evaluations that reads again only what Hermes changed (the
// language server: keptConnection.ts). analyzeProfile asks the source it is given, never a flag.
import type { SessionRecord } from '../model';
import { StateStore } from '../store/stateStore';
import type { AnalysisCache } from './analysisCache';
import type { VerdictStore } from './verdictStore';

/** The sessions as of now, and what the report needs of the whole database. */
export interface SessionsRead {
  readonly listed: readonly SessionRecord[];
  /** Sessions holding a stored prompt, ended ones too. */
  readonly storedPromptSessions: number;
  readonly meta: ReadonlyMap<string, string>;
  /** Only the rows a turn touched were read again (KeptConnection's touched scan); every row otherwise. */
  readonly partial?: boolean;
  /** The session read with this id, when the source keeps them by id. */
  readonly recordOf?: (sessionId: string) => SessionRecord | undefined;
}

export interface SessionSource {
  /**
   * Whether an inline (pre-v25) prompt is hashed as its UTF-8 bytes rather than its text: a one-pass
   * run hashes bytes (faster: no UTF-16 copy to encode back); a long-running server reads text, as
   * bytes are memory outside V8's heap until a collection finds their wrapper, which raised the
   * server's peak at start (docs/BENCHMARKS.md).
   */
  readonly inlineAsBytes: boolean;
  /** Whether the store stays open after the evaluation (a view may read a prompt through it later). */
  readonly keepsStore: boolean;
  /** The store this evaluation reads; throws the store's own explanation when it cannot be opened. */
  open(dbFile: string): StateStore;
  /** The listed sessions (ended ones too with `includeEnded`), the stored-prompt count and state_meta. */
  read(store: StateStore, includeEnded: boolean, cache: AnalysisCache, verdicts: VerdictStore): SessionsRead;
  /** The evaluation is over: a store opened for it is closed. */
  done(store: StateStore): void;
  /** The evaluation failed: whatever is kept is let go, to be opened afresh next time. */
  failed(): void;
}

/** Opens the database for one evaluation and closes it after: `hermes-lens` and tests. */
export const oneShot: SessionSource = {
  inlineAsBytes: true,
  keepsStore: false,
  open: (dbFile) => StateStore.openReadOnly(dbFile),
  read(store, includeEnded, _cache, verdicts) {
    // Ended sessions are read only when reported; the count over all sessions is then one aggregate query.
    const listed = store.listSessions({ includeEnded });
    return { listed, storedPromptSessions: includeEnded ? countStoredPrompts(listed) : verdicts.storedPromptCount(store), meta: store.stateMeta() };
  },
  done: (store) => store.close(),
  failed: () => undefined,
};

/** The stored-prompt count of a list that holds every session. */
export function countStoredPrompts(listed: readonly SessionRecord[]): number {
  return listed.filter((s) => s.promptKey).length;
}
