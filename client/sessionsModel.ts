// What the Sessions tree shows, computed from a SessionListResult. Pure (no vscode import):
// sessionsTree.ts turns these into TreeItems, and the unit tests check labels and context values.
import type { ProfileDto, SessionDto, SessionListResult, SessionStateName } from '../shared/protocol';
import { byRecentActivity } from '../shared/sessionOrder';
import { formatAgo, formatCost, plural } from './format';

export interface ProfileNode {
  readonly kind: 'profile';
  readonly profile: ProfileDto;
}
export interface SessionNode {
  readonly kind: 'session';
  readonly profile: string;
  readonly session: SessionDto;
}
/** The collapsed "Ended sessions (N)" folder of a profile. */
export interface EndedGroupNode {
  readonly kind: 'ended';
  readonly profile: string;
  readonly sessions: readonly SessionDto[];
}
/** A line of text (an unavailable profile, a problem). */
export interface MessageNode {
  readonly kind: 'message';
  readonly id: string;
  readonly text: string;
  readonly severity: 'info' | 'warning' | 'error';
}
export type SessionsTreeNode = ProfileNode | SessionNode | EndedGroupNode | MessageNode;

/** Codicon and theme color per state (ThemeIcon ids). */
export const STATE_ICONS: Record<SessionStateName, { icon: string; color?: string; label: string }> = {
  fresh: { icon: 'pass', color: 'testing.iconPassed', label: 'Fresh: the stored prompt matches its sources' },
  stale: { icon: 'warning', color: 'list.warningForeground', label: 'Stale: a source changed since the prompt was stored' },
  pending: { icon: 'sync', color: 'charts.blue', label: 'Pending: rebuilds its prompt at the start of its next turn' },
  'no-prompt': { icon: 'circle-slash', label: 'No stored prompt' },
  ended: { icon: 'archive', color: 'disabledForeground', label: 'Ended' },
};

export function rootNodes(list: SessionListResult | undefined): SessionsTreeNode[] {
  if (!list) return [];
  return list.profiles.map((profile) => ({ kind: 'profile', profile }));
}

/** Sessions by most recent activity (stable ids as a tie-break); ended ones go in a folder. */
export function profileChildren(profile: ProfileDto): SessionsTreeNode[] {
  const nodes: SessionsTreeNode[] = [];
  if (profile.unavailable) {
    nodes.push({ kind: 'message', id: `${profile.name}/unavailable`, text: profile.unavailable, severity: 'error' });
  }
  for (const [i, problem] of profile.problems.entries()) {
    nodes.push({ kind: 'message', id: `${profile.name}/problem/${i}`, text: problem, severity: 'warning' });
  }
  const sorted = sortSessions(profile.sessions);
  const ended = sorted.filter((s) => s.state === 'ended');
  for (const session of sorted) {
    if (session.state !== 'ended') nodes.push({ kind: 'session', profile: profile.name, session });
  }
  if (ended.length > 0) nodes.push({ kind: 'ended', profile: profile.name, sessions: ended });
  return nodes;
}

export function endedChildren(group: EndedGroupNode): SessionsTreeNode[] {
  return group.sessions.map((session) => ({ kind: 'session', profile: group.profile, session }));
}

/** A live session holding a stored prompt (fresh, stale or pending). */
export function isLiveWithPrompt(s: SessionDto): boolean {
  return s.state !== 'ended' && s.state !== 'no-prompt';
}

/** The profile's live sessions holding a prompt, the most recently active first. */
export function liveWithPrompt(profile: ProfileDto): SessionDto[] {
  return sortSessions(profile.sessions).filter(isLiveWithPrompt);
}

export function sortSessions(sessions: readonly SessionDto[]): SessionDto[] {
  return [...sessions].sort(byRecentActivity);
}

export function profileContextValue(p: ProfileDto): string {
  if (p.unavailable) return 'profile.unavailable';
  return p.stale > 0 ? 'profile.stale' : 'profile';
}

/**
 * `session.<state>`; an ended session whose conversation continues elsewhere is `session.ended.tip`;
 * one that took a turn without adopting its refresh request ends in `.notAdopted` (the menu offers clearing its prompt).
 */
export function sessionContextValue(s: SessionDto): string {
  const tip = s.state === 'ended' && s.tipSessionId && s.tipSessionId !== s.id ? '.tip' : '';
  return `session.${s.state}${tip}${s.adoption?.state === 'not-adopted' ? '.notAdopted' : ''}`;
}

/** The session a refresh of `s` must target: the tip of a compacted conversation, else itself. */
export function refreshTarget(s: SessionDto | undefined, sessionId: string): string {
  return s && s.state === 'ended' && s.tipSessionId ? s.tipSessionId : sessionId;
}

export function profileDescription(p: ProfileDto): string {
  if (p.unavailable) return 'unavailable';
  const parts: string[] = [];
  if (p.active) parts.push('active');
  if (p.stale > 0) {
    const cost = p.unknownCost > 0 && p.staleRefreshCostUsd === 0 ? 'cost unknown' : formatCost(p.staleRefreshCostUsd);
    parts.push(`${p.stale} stale · ${cost}`);
  } else if (p.sessions.length > 0) {
    parts.push('no stale sessions');
  } else {
    parts.push('no sessions');
  }
  if (p.pending > 0) parts.push(`${p.pending} pending`);
  return parts.join(' · ');
}

export function sessionLabel(s: SessionDto): string {
  return s.title && s.title.trim().length > 0 ? s.title.trim() : s.id;
}

/** What a session carrying a request its Hermes build cannot adopt shows (it is never "pending"). */
export const UNADOPTABLE_REQUEST = 'requested, but this Hermes build cannot adopt it';

/** What the tree's description says of a watched refresh request once its turn decided it. */
export const ADOPTION_WORDS: Record<NonNullable<SessionDto['adoption']>['state'], string | undefined> = {
  pending: undefined, // the state says it
  adopted: 'adopted',
  'adopted-stamp-unread': 'adopted (stamp unread)',
  'not-adopted': 'not adopted',
};

export { CLEAR_INSTEAD } from '../shared/adoptionWords';

/** The lens's prediction for the rebuild beside what Hermes recorded for the turn that decided it. */
export function adoptionEstimate(a: NonNullable<SessionDto['adoption']>): string | undefined {
  const predicted = a.predicted ? `Predicted: ${formatCost(a.predicted.costUsd)} (≈ ${a.predicted.prefixTokens.toLocaleString('en-US')} tokens written to the cache).` : undefined;
  const r = a.recorded;
  const recorded = r
    ? `Hermes recorded for that turn: ${signed(r.cacheWriteTokens)} cache-write, ${signed(r.cacheReadTokens)} cache-read, ${signed(r.inputTokens)} input tokens.`
    : undefined;
  return predicted || recorded ? [predicted, recorded].filter(Boolean).join(' ') : undefined;
}

function signed(n: number): string {
  return `${n < 0 ? '−' : '+'}${Math.abs(n).toLocaleString('en-US')}`;
}

/**
 * `claude-sonnet-4 · 2h ago · ≈ $0.12` (the cost only for stale sessions), a request the build cannot
 * adopt, how its last refresh request was taken up (`adopted`, `not adopted`), and `other build`
 * when another Hermes build wrote the prompt.
 */
export function sessionDescription(s: SessionDto, nowMs = Date.now()): string {
  const parts: string[] = [];
  if (s.model) parts.push(s.model);
  parts.push(formatAgo(s.lastActivityAt, nowMs));
  if (s.state === 'stale') parts.push(formatCost(s.refreshCostUsd));
  if (s.unadoptableRequest) parts.push(UNADOPTABLE_REQUEST);
  const adoption = s.adoption && ADOPTION_WORDS[s.adoption.state];
  if (adoption) parts.push(adoption);
  if (s.otherBuild) parts.push('other build');
  return parts.join(' · ');
}

export function treeItemId(node: SessionsTreeNode): string {
  switch (node.kind) {
    case 'profile':
      return `profile:${node.profile.name}`;
    case 'session':
      return `session:${node.profile}/${node.session.id}`;
    case 'ended':
      return `ended:${node.profile}`;
    case 'message':
      return `message:${node.id}`;
  }
}

export function endedLabel(group: EndedGroupNode): string {
  return `Ended (${group.sessions.length})`;
}

export function staleTotal(list: SessionListResult | undefined): number {
  return list ? list.profiles.reduce((n, p) => n + p.stale, 0) : 0;
}

export function badgeTooltip(list: SessionListResult | undefined): string {
  return `${plural(staleTotal(list), 'stale session')}`;
}

export function findSession(list: SessionListResult | undefined, profile: string, sessionId: string): SessionDto | undefined {
  return list?.profiles.find((p) => p.name === profile)?.sessions.find((s) => s.id === sessionId);
}

export function findProfile(list: SessionListResult | undefined, profile: string): ProfileDto | undefined {
  return list?.profiles.find((p) => p.name === profile);
}
