// The Sessions tree (Hermes, in the activity bar): profiles, then their sessions with a state icon. It redraws whenever
// the server pushes a new session list (SessionListChangedNotification → ctx.onDidChangeSessions).
// A session whose refresh waits for its cache to expire shows a countdown, redrawn every second
// while anything is scheduled.
import * as vscode from 'vscode';
import type { ProfileDto, SessionDto } from '../shared/protocol';
import { otherBuildLine } from '../shared/otherBuild';
import type { Ctx } from './ctx';
import { formatCost, formatInt, formatTimestamp, formatUsd, plural } from './format';
import { COMMANDS, SESSIONS_VIEW_ID } from './ids';
import { stateIcon } from './icons';
import type { RefreshSchedule } from './refreshSchedule';
import { refreshCountdown } from './whenFreeWords';
import {
  endedChildren,
  endedLabel,
  profileChildren,
  profileContextValue,
  profileDescription,
  rootNodes,
  sessionContextValue,
  sessionDescription,
  sessionLabel,
  STATE_ICONS,
  staleTotal,
  UNADOPTABLE_REQUEST,
  adoptionEstimate,
  CLEAR_INSTEAD,
  treeItemId,
  type SessionsTreeNode,
} from './sessionsModel';
import type { PrefixSharing } from './prefixSharing';
import { prefixSection, type PrefixTreeNode } from './prefixSharingModel';
import { prefixChildren, prefixTreeItem } from './prefixSharingTree';

const PREFIX_KINDS: ReadonlySet<string> = new Set(['prefixSection', 'family', 'familyMember', 'partings', 'parting']);

function isPrefixNode(node: TreeNode): node is PrefixTreeNode {
  return PREFIX_KINDS.has(node.kind);
}

/** The profiles and their sessions, then the "Prefix sharing" section (prefixSharingModel.ts). */
type TreeNode = SessionsTreeNode | PrefixTreeNode;

export class SessionsTreeProvider implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The shown nodes of sessions with a scheduled refresh: the countdown redraws these alone. */
  private readonly scheduledNodes = new Map<string, TreeNode>();
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly schedule: RefreshSchedule,
    private readonly prefixes?: PrefixSharing,
  ) {}

  refresh(): void {
    this.scheduledNodes.clear();
    this.changed.fire(undefined);
    // A countdown only while something is scheduled.
    if (this.schedule.size > 0 && !this.ticker) {
      this.ticker = setInterval(() => this.changed.fire([...this.scheduledNodes.values()]), 1000);
    } else if (this.schedule.size === 0 && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      const section = prefixSection(this.prefixes?.families);
      return [...rootNodes(this.ctx.sessions), ...(section ? [section] : [])];
    }
    if (isPrefixNode(node)) return prefixChildren(node, this.ctx.sessions);
    const children = node.kind === 'profile' ? profileChildren(node.profile) : node.kind === 'ended' ? endedChildren(node) : [];
    for (const c of children) if (c.kind === 'session' && this.schedule.dueAt(c.profile, c.session.id) !== undefined) this.scheduledNodes.set(treeItemId(c), c);
    return children;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (isPrefixNode(node)) return prefixTreeItem(node);
    switch (node.kind) {
      case 'profile':
        return profileItem(node.profile);
      case 'session':
        return sessionItem(node.profile, node.session, this.schedule.dueAt(node.profile, node.session.id));
      case 'ended': {
        const item = new vscode.TreeItem(endedLabel(node), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = treeItemId(node);
        item.iconPath = new vscode.ThemeIcon('archive');
        item.contextValue = 'endedGroup';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = treeItemId(node);
        item.tooltip = node.text;
        const icon = node.severity === 'error' ? 'error' : node.severity === 'warning' ? 'warning' : 'info';
        item.iconPath = new vscode.ThemeIcon(icon, node.severity === 'error' ? new vscode.ThemeColor('list.errorForeground') : undefined);
        item.contextValue = 'message';
        return item;
      }
    }
  }

  dispose(): void {
    clearInterval(this.ticker);
    this.changed.dispose();
  }
}

function profileItem(p: ProfileDto): vscode.TreeItem {
  const expanded = p.active || p.stale > 0 || !!p.unavailable;
  const item = new vscode.TreeItem(p.name, expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = treeItemId({ kind: 'profile', profile: p });
  item.description = profileDescription(p);
  item.contextValue = profileContextValue(p);
  item.iconPath = new vscode.ThemeIcon(
    p.unavailable ? 'error' : 'account',
    p.unavailable ? new vscode.ThemeColor('list.errorForeground') : p.stale > 0 ? new vscode.ThemeColor('list.warningForeground') : undefined,
  );
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**Profile ${escapeMd(p.name)}**${p.active ? ' (active)' : ''}\n\n`);
  md.appendMarkdown(`- Home: \`${p.home}\`\n- Database: \`${p.dbFile}\`\n`);
  if (p.unavailable) md.appendMarkdown(`- $(error) ${escapeMd(p.unavailable)}\n`);
  md.appendMarkdown(`- ${plural(p.sessions.length, 'session')}, ${p.stale} stale, ${p.pending} pending\n`);
  md.appendMarkdown(`- Sessions holding a stored prompt: ${p.storedPromptSessions}\n- Requested refresh epoch: ${p.requestedEpoch}\n`);
  if (p.stale > 0) {
    md.appendMarkdown(`- Refreshing the stale sessions now: ${formatCost(p.staleRefreshCostUsd)}`);
    if (p.unknownCost > 0) md.appendMarkdown(` (+ ${plural(p.unknownCost, 'session')} without known prices)`);
    md.appendMarkdown('\n');
  }
  for (const problem of p.problems) md.appendMarkdown(`- $(warning) ${escapeMd(problem)}\n`);
  item.tooltip = md;
  return item;
}

/** `refreshAt`: when its refresh when free is due (epoch seconds), if one is scheduled. */
function sessionItem(profile: string, s: SessionDto, refreshAt?: number): vscode.TreeItem {
  const item = new vscode.TreeItem(sessionLabel(s), vscode.TreeItemCollapsibleState.None);
  item.id = treeItemId({ kind: 'session', profile, session: s });
  item.description = [sessionDescription(s), ...(refreshAt === undefined ? [] : [refreshCountdown(refreshAt)])].join(' · ');
  item.iconPath = stateIcon(s.state);
  // `.whenFree`: its refresh waits for the cache to expire (the menu offers to cancel it).
  item.contextValue = `${sessionContextValue(s)}${refreshAt === undefined ? '' : '.whenFree'}`;
  item.tooltip = sessionTooltip(s);
  if (refreshAt !== undefined) item.tooltip.appendMarkdown(`\n$(clock) Refresh when free at ${formatTimestamp(refreshAt)}, when its prompt cache expires.\n`);
  item.accessibilityInformation = { label: `${sessionLabel(s)}, ${s.state}, ${item.description}` };
  if (s.state !== 'no-prompt') {
    item.command = { title: 'Show Stored Prompt', command: COMMANDS.showPrompt, arguments: [{ profile, sessionId: s.id }] };
  }
  return item;
}

function sessionTooltip(s: SessionDto): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escapeMd(sessionLabel(s))}**\n\n`);
  md.appendMarkdown(`$(${STATE_ICONS[s.state].icon}) ${STATE_ICONS[s.state].label}\n\n`);
  if (s.unadoptableRequest) md.appendMarkdown(`$(circle-slash) Refresh ${UNADOPTABLE_REQUEST}: it keeps its stored prompt. Clear the stored prompt instead (the refresh offers it).\n\n`);
  if (s.adoption) appendAdoption(md, s);
  if (s.reasons.length > 0) {
    for (const r of s.reasons) md.appendMarkdown(`- ${escapeMd(r.source)} ${r.change}: \`${r.path}\`${r.detail ? ` — ${escapeMd(r.detail)}` : ''}\n`);
    md.appendMarkdown('\n');
  }
  const otherBuild = otherBuildLine(s.otherBuild);
  if (otherBuild) md.appendMarkdown(`$(versions) ${escapeMd(otherBuild)}\n\n`);
  md.appendMarkdown(`- Id: \`${s.id}\`${s.source ? ` (${escapeMd(s.source)})` : ''}\n`);
  md.appendMarkdown(`- Model: ${s.model ? `\`${s.model}\`` : 'unknown'}\n`);
  md.appendMarkdown(`- Last activity: ${formatTimestamp(s.lastActivityAt)}\n`);
  md.appendMarkdown(`- Cached prefix: ${s.tokensExact ? '' : '≈ '}${formatInt(s.prefixTokens)} tokens (tool schemas ${formatInt(s.toolTokens)}, system prompt ${formatInt(s.systemPromptTokens)}, the rest the conversation)\n`);
  md.appendMarkdown(
    `- Cache: ${s.ttlSeconds === 0 ? 'none (prompt caching is off in config.yaml)' : s.cacheWarm ? `warm${s.cacheExpiresAt ? ` until ${formatTimestamp(s.cacheExpiresAt)}` : ''}` : 'expired'}\n`,
  );
  if (s.state === 'stale' || s.state === 'fresh') {
    md.appendMarkdown(`- Refresh now: ${formatUsd(s.refreshCostUsd)}; once the cache expired: ${formatUsd(s.refreshCostColdUsd)}`);
    md.appendMarkdown(s.apiEquivalent ? ' (API-equivalent: billed under a subscription)\n' : '\n');
  }
  if (s.tipSessionId && s.tipSessionId !== s.id) md.appendMarkdown(`- Continues in \`${s.tipSessionId}\` (a refresh targets it)\n`);
  return md;
}

/** How the session's last refresh request was taken up: the phrase, the lens's estimate beside what Hermes recorded, and for one not adopted the older way. */
function appendAdoption(md: vscode.MarkdownString, s: SessionDto): void {
  const a = s.adoption!;
  const icon = a.state === 'not-adopted' ? 'error' : a.state === 'pending' ? 'sync' : 'check';
  const requested = a.requestedAt === null ? '' : `, requested ${formatTimestamp(a.requestedAt)}`;
  md.appendMarkdown(`$(${icon}) Refresh (epoch ${a.epoch}${requested}): ${escapeMd(a.summary)}${a.turn ? ` at its turn of ${formatTimestamp(a.turn.lastActivityAt)}` : ''}.\n\n`);
  const estimate = adoptionEstimate(a);
  if (estimate) md.appendMarkdown(`${escapeMd(estimate)}\n\n`);
  if (a.state === 'not-adopted') md.appendMarkdown(`${escapeMd(CLEAR_INSTEAD)} (Clear Stored Prompt in the menu.)\n\n`);
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, '\\$&');
}

/** Creates the view, keeps it in sync with the session list, and badges it with the stale count. */
export function registerSessionsView(ctx: Ctx, schedule: RefreshSchedule, prefixes?: PrefixSharing): vscode.Disposable[] {
  const provider = new SessionsTreeProvider(ctx, schedule, prefixes);
  const view = vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  const update = () => {
    provider.refresh();
    const list = ctx.sessions;
    view.message = list?.problem ?? undefined;
    const stale = staleTotal(list);
    view.badge = stale > 0 ? { value: stale, tooltip: plural(stale, 'stale session') } : undefined;
  };
  update();
  return [provider, view, ctx.onDidChangeSessions(update), schedule.onDidChange(update), ...(prefixes ? [prefixes.onDidChange(update)] : [])];
}
