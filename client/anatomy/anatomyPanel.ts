// The prompt anatomy view: one webview panel, showing one session's prompt map (PromptMapRequest)
// beside its cache timeline. It loads the map again when the session's row changes, switches
// session when the view asks, and opens what a block names: the file at its line, a skill's
// SKILL.md at its description, the skills folder in the Explorer, Hermes' own text in the stored
// prompt. The webview gets sizes, labels and paths, never prompt text.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { PromptMapRequest, type PromptMapDto, type SessionDto, type SessionRef } from '../../shared/protocol';
import { errorMessage, type Ctx } from '../ctx';
import { formatAgo } from '../format';
import { ANATOMY_VIEW_TYPE } from '../ids';
import type { PromptDocuments } from '../promptDocuments';
import { findProfile, findSession, liveWithPrompt, sessionLabel } from '../sessionsModel';
import { anatomyHtml, makeNonce } from './anatomyHtml';
import { partOf } from './partOf';
import { parseViewMessage, type HostMessage, type SessionChoice } from './messages';
import type { PrefixSharing } from '../prefixSharing';
import { sharedPrefixOf } from './sharedPrefix';

export interface AnatomyRequest {
  readonly ref: SessionRef;
  /** `newest`: the session was chosen as its profile's newest live one (the view says so). */
  readonly chosen: 'asked' | 'newest';
  /** A file whose part to select first (from a hover). */
  readonly path?: string;
}

interface Shown extends AnatomyRequest {
  map?: PromptMapDto;
  /** The session's row when the map was read (the map is read again when it changes). */
  session: SessionDto | null;
}

export class AnatomyPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: Shown | undefined;
  /** The last message sent: sent again when the webview (re)loads. */
  private last: HostMessage | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly ctx: Ctx,
    private readonly prompts: PromptDocuments,
    private readonly prefixes?: PrefixSharing,
  ) {
    this.disposables.push(ctx.onDidChangeSessions(() => void this.followSessions()));
    if (prefixes) this.disposables.push(prefixes.onDidChange(() => this.followFamilies()));
  }

  async show(request: AnatomyRequest): Promise<void> {
    const panel = this.ensurePanel();
    this.shown = { ...request, session: this.sessionRow(request.ref) };
    panel.title = `Prompt Anatomy: ${this.label(request.ref)}`;
    panel.reveal();
    await this.load();
  }

  private ensurePanel(): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const extensionUri = this.ctx.extensionContext.extensionUri;
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(ANATOMY_VIEW_TYPE, 'Prompt Anatomy', vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [root],
    });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'hermes.svg');
    const webview = panel.webview;
    webview.html = anatomyHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce((n) => randomBytes(n)),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'anatomy.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'anatomy.css')).toString(),
    });
    const subscription = webview.onDidReceiveMessage((raw) => void this.receive(raw));
    panel.onDidDispose(() => {
      subscription.dispose();
      this.panel = undefined;
      this.shown = undefined;
      this.last = undefined;
    });
    return (this.panel = panel);
  }

  private async load(): Promise<void> {
    const shown = this.shown;
    if (!shown) return;
    try {
      const map = await this.ctx.request(PromptMapRequest, { profile: shown.ref.profile, sessionId: shown.ref.sessionId });
      if (this.shown !== shown) return; // another session was asked for meanwhile
      shown.map = map;
      this.post(this.showMessage(shown, map));
    } catch (e) {
      if (this.shown === shown) this.post({ type: 'error', message: `The prompt of "${this.label(shown.ref)}" cannot be shown: ${errorMessage(e)}` });
    }
  }

  private showMessage(shown: Shown, map: PromptMapDto): HostMessage {
    const profile = findProfile(this.ctx.sessions, shown.ref.profile);
    const choices: SessionChoice[] = (profile ? liveWithPrompt(profile) : []).map((s) => ({ id: s.id, label: sessionLabel(s), description: `${s.state} · ${formatAgo(s.lastActivityAt)}` }));
    const shared = sharedPrefixOf(this.prefixes?.families, shown.ref.profile, shown.ref.sessionId);
    return { type: 'show', map, session: shown.session, chosen: shown.chosen, choices, select: shown.path ? partOf(map, shown.path) : null, shared, sharingKnown: this.prefixes?.families !== undefined };
  }

  private post(message: HostMessage): void {
    this.last = message;
    void this.panel?.webview.postMessage(message);
  }

  private async receive(raw: unknown): Promise<void> {
    // Anything else is dropped unread (and never logged: a message could carry text).
    const message = parseViewMessage(raw);
    if (!message) return;
    switch (message.type) {
      case 'ready':
        if (this.last) void this.panel?.webview.postMessage(this.last);
        return;
      case 'pick': {
        const profile = this.shown?.ref.profile;
        const found = profile ? findSession(this.ctx.sessions, profile, message.sessionId) : undefined;
        if (profile && found) await this.show({ ref: { profile, sessionId: found.id }, chosen: 'asked' });
        return;
      }
      case 'open':
        await this.open(message.part, message.entry).catch((e) => vscode.window.showErrorMessage(`Hermes: ${errorMessage(e)}`));
        return;
    }
  }

  /** Opens what the part (or one of its entries) names; indexes into the map this panel holds. */
  private async open(partIndex: number, entryIndex: number | null): Promise<void> {
    const shown = this.shown;
    const part = shown?.map?.parts[partIndex];
    if (!shown || !part) return;
    if (entryIndex !== null) {
      const entry = part.entries[entryIndex];
      if (!entry) return;
      if (!entry.path) {
        void vscode.window.showInformationMessage(`Skill "${entry.name}" is no longer among the profile's skills: no SKILL.md to open.`);
        return;
      }
      return openAt(entry.path, entry.line);
    }
    if (part.origin === 'hermes') {
      await this.prompts.show(shown.ref, { start: part.start, end: part.end }, vscode.ViewColumn.Beside);
    } else if (part.origin === 'folder' && part.path) {
      const folder = vscode.Uri.file(part.path);
      if (vscode.workspace.getWorkspaceFolder(folder)) await vscode.commands.executeCommand('revealInExplorer', folder);
      else void vscode.window.showInformationMessage(`${part.path} is outside the workspace: pick a skill under the bar to open its SKILL.md.`);
    } else if (part.path) {
      await openAt(part.path, part.line);
    }
  }

  /** The prefix families changed: the shared part is drawn again (the map stays as read). */
  private followFamilies(): void {
    const shown = this.shown;
    if (shown?.map && this.panel) this.post(this.showMessage(shown, shown.map));
  }

  /** The shown session's row changed (a save, a refresh, a Hermes turn): read its map again. */
  private async followSessions(): Promise<void> {
    const shown = this.shown;
    if (!shown?.map || !this.panel) return;
    const row = this.sessionRow(shown.ref);
    if (JSON.stringify(row) === JSON.stringify(shown.session)) return;
    shown.session = row;
    await this.load();
  }

  private sessionRow(ref: SessionRef): SessionDto | null {
    return findSession(this.ctx.sessions, ref.profile, ref.sessionId) ?? null;
  }

  private label(ref: SessionRef): string {
    const s = findSession(this.ctx.sessions, ref.profile, ref.sessionId);
    return s ? sessionLabel(s) : ref.sessionId;
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

async function openAt(file: string, line: number | null): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const at = new vscode.Position(Math.min(line ?? 0, Math.max(0, document.lineCount - 1)), 0);
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, selection: new vscode.Range(at, at), preview: true });
}
