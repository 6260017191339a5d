// What prefix families read of a profile beyond its analysis, only for the few families a report
// explains: a stored prompt's anatomy (where two prompts part) and the times of sessions' requests
// (what a split costs). The CLI reads them through a connection of its own, the language server
// through the one it keeps.
import type { ProfileAnalysis } from '../engine/analyzeProfile';
import type { PromptAnatomy } from '../anatomy/types';
import { parsePrompt } from '../anatomy/parsePrompt';
import { readSoul } from '../sources/soul';
import { StateStore } from '../store/stateStore';

export interface ProfileReading {
  /** The Hermes root home the profile belongs to. */
  readonly home: string;
  readonly analysis: ProfileAnalysis;
  /** A session's stored prompt, parsed; undefined when it cannot be read. */
  anatomyOf(sessionId: string): PromptAnatomy | undefined;
  /** Each session's request times (epoch seconds, ascending) since `since`: its assistant messages. */
  requestTimes(sessionIds: readonly string[], since: number): ReadonlyMap<string, readonly number[]>;
}

/**
 * A reading through a read-only connection opened when first needed (`close` closes it): for a
 * one-shot analysis, whose own connection is closed when it returns.
 */
export function storeReading(home: string, analysis: ProfileAnalysis): ProfileReading & { close(): void } {
  let store: StateStore | undefined;
  const open = () => (store ??= StateStore.openReadOnly(analysis.report.dbFile));
  const parsed = new Map<string, PromptAnatomy | undefined>();
  // SOUL.md alone, as a hint where the identity ends (a status kept the rest unread: the skills are not rendered for this).
  let hint: string | undefined;
  const identityHint = () => (hint ??= readSoul(analysis.fs, analysis.profile.dir, analysis.config).block);
  return {
    home,
    analysis,
    anatomyOf(sessionId) {
      const kept = analysis.anatomyOf(sessionId);
      if (kept) return kept;
      const key = analysis.inputsOf(sessionId)?.record.promptKey;
      if (key === undefined) return undefined;
      if (!parsed.has(key)) {
        const text = open().promptText(key);
        // Parsed as the analysis parses (analyzeProfile's PromptReader): the same blocks.
        parsed.set(key, text === undefined ? undefined : parsePrompt(text, { identityHint: identityHint() || undefined, callerSystemMessage: analysis.config.agentSystemPrompt }));
      }
      return parsed.get(key);
    },
    requestTimes: (sessionIds, since) => (sessionIds.length === 0 ? new Map() : open().requestTimes(sessionIds, since)),
    close() {
      store?.close();
      store = undefined;
    },
  };
}
