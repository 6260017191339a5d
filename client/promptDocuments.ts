// Read-only documents on the `hermes-prompt:` scheme: a session's stored prompt, and the two sides
// of the refresh diff. Tier boundaries show as whole-line decorations (`── context tier · … ──`)
// and as folding ranges, from PromptAnatomyRequest's offsets (UTF-16, so positionAt() fits).
import * as vscode from 'vscode';
import { PromptAnatomyRequest, PromptDiffRequest, type PromptAnatomyDto, type PromptDiffDto, type SessionRef } from '../shared/protocol';
import type { Ctx } from './ctx';
import { formatBytes, formatTokens } from './format';
import { PROMPT_LANGUAGE_ID, PROMPT_SCHEME } from './ids';
import { parsePromptUri, promptUriParts, sessionKey, type PromptDocRef, type PromptView } from './promptUri';

export function promptUri(ref: SessionRef, view: PromptView = 'stored'): vscode.Uri {
  const { path, query } = promptUriParts({ ...ref, view });
  return vscode.Uri.from({ scheme: PROMPT_SCHEME, path, query });
}

export function promptRefOf(uri: vscode.Uri): PromptDocRef | undefined {
  return uri.scheme === PROMPT_SCHEME ? parsePromptUri({ path: uri.path, query: uri.query }) : undefined;
}

export class PromptDocuments implements vscode.TextDocumentContentProvider, vscode.FoldingRangeProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** Stored prompts and their anatomy, by session. */
  private readonly anatomies = new Map<string, PromptAnatomyDto>();
  /** The refresh diff, by session (both sides of the diff view read it). */
  private readonly diffs = new Map<string, PromptDiffDto>();
  private readonly tierDecoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderWidth: '1px 0 0 0',
    borderStyle: 'solid',
    borderColor: new vscode.ThemeColor('editorRuler.foreground'),
    before: {
      color: new vscode.ThemeColor('editorCodeLens.foreground'),
      fontStyle: 'italic',
      margin: '0 1ch 0 0',
    },
  });
  private readonly disposables: vscode.Disposable[] = [];
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ctx: Ctx) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, this),
      vscode.languages.registerFoldingRangeProvider({ scheme: PROMPT_SCHEME }, this),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.decorate(e))),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === PROMPT_SCHEME) this.decorateDocument(e.document);
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => void this.ensureLanguage(doc)),
      // A refresh or a new turn may have rebuilt a stored prompt: reload the open ones (debounced).
      ctx.onDidChangeSessions(() => this.scheduleReload()),
      this.changed,
      this.tierDecoration,
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const ref = promptRefOf(uri);
    if (!ref) return '';
    try {
      if (ref.view === 'stored') return (await this.fetchAnatomy(ref)).text;
      const diff = this.diffs.get(sessionKey(ref)) ?? (await this.fetchDiff(ref));
      if (ref.view === 'before' && !token.isCancellationRequested) void this.fetchAnatomy(ref).then(() => this.decorateAll(), () => undefined);
      return ref.view === 'before' ? diff.before : diff.after;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.ctx.output.warn(`Prompt of ${ref.profile}/${ref.sessionId}: ${message}`);
      return `[Hermes Prompt Lens could not load this prompt: ${message}]`;
    }
  }

  async fetchAnatomy(ref: SessionRef): Promise<PromptAnatomyDto> {
    const anatomy = await this.ctx.request(PromptAnatomyRequest, { profile: ref.profile, sessionId: ref.sessionId });
    this.anatomies.set(sessionKey(ref), anatomy);
    return anatomy;
  }

  async fetchDiff(ref: SessionRef): Promise<PromptDiffDto> {
    const diff = await this.ctx.request(PromptDiffRequest, { profile: ref.profile, sessionId: ref.sessionId });
    this.diffs.set(sessionKey(ref), diff);
    return diff;
  }

  /** Opens (or reloads) a session's stored prompt in a read-only editor (in the active column unless told). */
  async show(ref: SessionRef, selection?: { start: number; end: number }, viewColumn?: vscode.ViewColumn): Promise<vscode.TextEditor> {
    const uri = promptUri(ref);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await this.ensureLanguage(doc);
    const editor = await vscode.window.showTextDocument(doc, { preview: true, viewColumn });
    if (selection) {
      const range = new vscode.Range(doc.positionAt(selection.start), doc.positionAt(selection.end));
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.AtTop);
    }
    this.decorate(editor);
    return editor;
  }

  /** Opens vscode.diff between the stored prompt and what a refresh would build. */
  async showDiff(ref: SessionRef, title: string, diff: PromptDiffDto): Promise<void> {
    this.diffs.set(sessionKey(ref), diff);
    const before = promptUri(ref, 'before');
    const after = promptUri(ref, 'after');
    for (const uri of [before, after]) {
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) this.changed.fire(uri);
    }
    await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true });
  }

  provideFoldingRanges(document: vscode.TextDocument): vscode.FoldingRange[] {
    const anatomy = this.anatomyFor(document);
    if (!anatomy) return [];
    const ranges: vscode.FoldingRange[] = [];
    const add = (start: number, end: number, kind?: vscode.FoldingRangeKind) => {
      const first = document.positionAt(start).line;
      const endPos = document.positionAt(Math.max(start, end));
      const last = endPos.character === 0 && endPos.line > first ? endPos.line - 1 : endPos.line;
      if (last > first) ranges.push(new vscode.FoldingRange(first, last, kind));
    };
    for (const tier of anatomy.tiers) add(tier.start, tier.end, vscode.FoldingRangeKind.Region);
    for (const block of anatomy.blocks) add(block.start, block.end);
    return ranges;
  }

  /** The anatomy that matches this document's text (the stored view and the diff's left side). */
  private anatomyFor(document: vscode.TextDocument): PromptAnatomyDto | undefined {
    const ref = promptRefOf(document.uri);
    if (!ref || ref.view === 'after') return undefined;
    const anatomy = this.anatomies.get(sessionKey(ref));
    return anatomy && anatomy.text === document.getText() ? anatomy : undefined;
  }

  private decorateAll(): void {
    for (const editor of vscode.window.visibleTextEditors) this.decorate(editor);
  }

  private decorateDocument(document: vscode.TextDocument): void {
    for (const editor of vscode.window.visibleTextEditors) if (editor.document === document) this.decorate(editor);
  }

  private decorate(editor: vscode.TextEditor): void {
    if (editor.document.uri.scheme !== PROMPT_SCHEME) return;
    const anatomy = this.anatomyFor(editor.document);
    if (!anatomy) {
      editor.setDecorations(this.tierDecoration, []);
      return;
    }
    const doc = editor.document;
    const options: vscode.DecorationOptions[] = anatomy.tiers
      .filter((t) => t.end > t.start)
      .map((t) => {
        const line = doc.positionAt(t.start).line;
        const size = `${formatBytes(t.bytes)} · ${formatTokens(t.tokens, anatomy.tokensExact)}`;
        return {
          range: new vscode.Range(line, 0, line, 0),
          hoverMessage: new vscode.MarkdownString(`**${t.name} tier**: ${size}`),
          renderOptions: { before: { contentText: `── ${t.name} tier · ${size} ──` } },
        };
      });
    editor.setDecorations(this.tierDecoration, options);
  }

  /** Documents restored from an earlier window may come up as plain text: make them hermes-prompt. */
  private async ensureLanguage(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.scheme === PROMPT_SCHEME && doc.languageId !== PROMPT_LANGUAGE_ID) {
      await vscode.languages.setTextDocumentLanguage(doc, PROMPT_LANGUAGE_ID);
    }
  }

  private scheduleReload(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      for (const doc of vscode.workspace.textDocuments) {
        const ref = promptRefOf(doc.uri);
        // The diff sides keep what the user asked to compare; the stored view follows the database.
        if (ref?.view === 'stored') this.changed.fire(doc.uri);
      }
    }, 500);
  }

  dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
