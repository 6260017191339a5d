// ThemeIcons for session states (shared by the tree and the quick picks).
import * as vscode from 'vscode';
import type { SessionStateName } from '../shared/protocol';
import { STATE_ICONS } from './sessionsModel';

export function stateIcon(state: SessionStateName): vscode.ThemeIcon {
  const { icon, color } = STATE_ICONS[state];
  return new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
}
