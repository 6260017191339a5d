// The words of refresh when free in the editor: the tree's countdown and the confirmation's line.
// No vscode import (unit-tested).
import type { RefreshWhenFreeResultDto } from '../shared/protocol';
import { formatWait } from '../shared/waitText';
import { formatCost } from './format';

/** The confirmation's third button. */
export const REFRESH_WHEN_FREE = 'Refresh When Free';

/** `refresh in 3m` for a request due at `dueAt` (epoch seconds). */
export function refreshCountdown(dueAt: number, nowMs = Date.now()): string {
  const wait = formatWait(dueAt - nowMs / 1000);
  return wait === 'now' ? 'refreshing now' : `refresh in ${wait}`;
}

/** What the third button does and costs, for the confirmation's detail (from a dry run). */
export function whenFreeDetail(plan: RefreshWhenFreeResultDto, nowMs = Date.now()): string {
  const last = plan.scheduled.at(-1);
  const until = last ? ` (the last in ${formatWait(last.at - nowMs / 1000)})` : '';
  const unknown = plan.unknownCost > 0 ? `, + ${plan.unknownCost} of unknown cost` : '';
  return `${REFRESH_WHEN_FREE}: each session's request waits until its prompt cache expires${until}, so it adds only the prompt change: ${formatCost(plan.costUsd)} in all${unknown}.`;
}
