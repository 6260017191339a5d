// TreeItems of the Sessions view's "Prefix sharing" section (prefixSharingModel.ts computes them).
import * as vscode from 'vscode';
import { COMMANDS } from './ids';
import { stateIcon } from './icons';
import {
  familyChildren,
  familyDescription,
  familyLabel,
  familyTooltip,
  memberLabel,
  partingChildren,
  partingDescription,
  partingLabel,
  partingsLabel,
  partingTooltip,
  prefixNodeId,
  sectionChildren,
  sectionDescription,
  sectionTooltip,
  type PrefixTreeNode,
} from './prefixSharingModel';
import { sessionContextValue, sessionDescription } from './sessionsModel';
import type { SessionListResult } from '../shared/protocol';

export function prefixChildren(node: PrefixTreeNode, list: SessionListResult | undefined): PrefixTreeNode[] {
  switch (node.kind) {
    case 'prefixSection':
      return sectionChildren(node);
    case 'family':
      return familyChildren(node, list);
    case 'partings':
      return partingChildren(node);
    default:
      return [];
  }
}

export function prefixTreeItem(node: PrefixTreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem('', vscode.TreeItemCollapsibleState.None);
  item.id = prefixNodeId(node);
  switch (node.kind) {
    case 'prefixSection':
      item.label = 'Prefix sharing';
      item.description = sectionDescription(node.families);
      item.tooltip = sectionTooltip(node.families);
      item.iconPath = new vscode.ThemeIcon('layers');
      item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
      item.contextValue = 'prefixSection';
      break;
    case 'family':
      item.label = familyLabel(node.family, node.families);
      item.description = familyDescription(node.family);
      item.tooltip = familyTooltip(node.family, node.families);
      item.iconPath = new vscode.ThemeIcon(node.family.warm ? 'flame' : 'database');
      item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
      item.contextValue = 'prefixFamily';
      break;
    case 'familyMember':
      item.label = memberLabel(node);
      if (node.session) {
        item.description = sessionDescription(node.session);
        item.iconPath = stateIcon(node.session.state);
        // The session's own menu (refresh, show prompt, anatomy), as under its profile.
        item.contextValue = sessionContextValue(node.session);
        item.command = { title: 'Show Stored Prompt', command: COMMANDS.showPrompt, arguments: [{ profile: node.profile, sessionId: node.sessionId }] };
      } else {
        item.iconPath = new vscode.ThemeIcon('circle-outline');
        item.contextValue = 'prefixMember';
      }
      break;
    case 'partings':
      item.label = partingsLabel(node.families);
      item.iconPath = new vscode.ThemeIcon('git-compare');
      item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
      item.contextValue = 'prefixPartings';
      break;
    case 'parting':
      item.label = partingLabel(node);
      item.description = partingDescription(node.parting);
      item.tooltip = partingTooltip(node.parting, node.days);
      item.iconPath = new vscode.ThemeIcon(node.parting.choice ? 'info' : 'split-horizontal');
      item.contextValue = 'prefixParting';
      break;
  }
  item.accessibilityInformation = { label: [typeof item.label === 'string' ? item.label : '', item.description].filter(Boolean).join(', ') };
  return item;
}
