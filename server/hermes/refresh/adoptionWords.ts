// How a watched refresh request stands, in the words and the JSON every view uses (the tree, the
// hover, the status item, `hermes-lens status` and its `--json`).
import { recordedByHermes, type AdoptionWatch } from './adoption';
import type { AdoptionCounts } from './adoptionLedger';
import { CLEAR_INSTEAD, NOT_ADOPTED } from '../../../shared/adoptionWords';

export { CLEAR_INSTEAD, NOT_ADOPTED };

/** One phrase on how the request stands for the session. */
export function adoptionPhrase(w: AdoptionWatch): string {
  switch (w.state) {
    case 'pending':
      return 'refresh requested, waiting for its next turn';
    case 'adopted':
      return 'adopted the refresh';
    case 'adopted-stamp-unread':
      return w.stampKey
        ? `adopted the refresh, stamping model_config.${w.stampKey} (a key the lens did not read; learned now)`
        : `rebuilt its prompt for the refresh, but ${w.note ?? 'no stamp the lens reads moved'}`;
    case 'not-adopted':
      return NOT_ADOPTED;
  }
}

/** `3 adopted · 1 waiting for a turn · 1 not adopted` (the parts that are not 0; '' when none). */
export function adoptionCountsText(c: AdoptionCounts): string {
  const parts: string[] = [];
  const adopted = c.adopted + c.adoptedStampUnread;
  if (adopted) parts.push(`${adopted} adopted${c.adoptedStampUnread ? ` (${c.adoptedStampUnread} with a stamp the lens did not read)` : ''}`);
  if (c.waiting) parts.push(`${c.waiting} waiting for a turn`);
  if (c.notAdopted) parts.push(`${c.notAdopted} not adopted`);
  return parts.join(' · ');
}

/** The watch as `status --json` and the session list give it. */
export function adoptionJson(w: AdoptionWatch | undefined) {
  if (!w) return null;
  const recorded = recordedByHermes(w);
  return {
    state: w.state,
    epoch: w.epoch,
    requestedAt: w.requestedAt,
    by: w.by,
    /** The turn that decided it: the session's messages at the read before and the read after, and when Hermes last wrote it. */
    turn: w.after && w.state !== 'pending' ? { messagesBefore: w.before.messages, messagesAfter: w.after.messages, lastActivityAt: w.after.lastActivityAt } : null,
    decidedAt: w.decidedAt,
    stampKey: w.stampKey,
    note: w.note,
    predicted: w.predicted && { costUsd: w.predicted.costUsd === null ? null : Math.round(w.predicted.costUsd * 1e8) / 1e8, prefixTokens: w.predicted.prefixTokens, cacheWarm: w.predicted.cacheWarm },
    recorded: recorded && { cacheWriteTokens: recorded.cacheWriteTokens, cacheReadTokens: recorded.cacheReadTokens, inputTokens: recorded.inputTokens },
    summary: adoptionPhrase(w),
  };
}

export type AdoptionJson = NonNullable<ReturnType<typeof adoptionJson>>;
