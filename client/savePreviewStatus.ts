// While the active editor holds unsaved changes to a file, what saving them would do
// (hermes/savePreview): asked again on each change of that document, one request at a time, and
// dropped the moment the document is saved, reverted or left. The status items show it.
import * as vscode from 'vscode';
import { SavePreviewRequest, type SavePreviewDto } from '../shared/protocol';
import type { Ctx } from './ctx';

export class SavePreviewTracker implements vscode.Disposable {
  private shown: SavePreviewDto | undefined;
  private asking = false;
  private askAgain = false;
  private readonly emitter = new vscode.EventEmitter<void>();
  /** The preview changed (or went). */
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly ctx: Ctx) {
    const ask = () => void this.ask();
    const ifActive = (document: vscode.TextDocument) => document === vscode.window.activeTextEditor?.document && this.ask();
    this.disposables = [
      this.emitter,
      vscode.window.onDidChangeActiveTextEditor(ask),
      vscode.workspace.onDidChangeTextDocument((e) => void ifActive(e.document)),
      vscode.workspace.onDidSaveTextDocument((document) => void ifActive(document)),
      // The server re-evaluated (a save elsewhere, a Hermes write): the figures may have moved.
      ctx.onDidChangeStatus(ask),
    ];
  }

  /** The active editor's save preview, when it has unsaved changes to a Hermes source. */
  get current(): SavePreviewDto | undefined {
    return this.shown;
  }

  private async ask(): Promise<void> {
    const uri = this.dirtyFileUri();
    if (!uri) return this.show(undefined);
    if (this.asking) {
      this.askAgain = true;
      return;
    }
    this.asking = true;
    try {
      const preview = await this.ctx.request(SavePreviewRequest, { uri });
      // Saved, reverted or left while the server answered: nothing to show.
      this.show(this.dirtyFileUri() === uri ? (preview ?? undefined) : undefined);
    } catch {
      this.show(undefined);
    } finally {
      this.asking = false;
      if (this.askAgain) {
        this.askAgain = false;
        void this.ask();
      }
    }
  }

  /** The active document's URI as the server knows it, when it is a file with unsaved changes. */
  private dirtyFileUri(): string | undefined {
    const document = vscode.window.activeTextEditor?.document;
    if (!document || !document.isDirty || document.uri.scheme !== 'file') return undefined;
    return this.ctx.client?.code2ProtocolConverter.asUri(document.uri) ?? document.uri.toString();
  }

  private show(preview: SavePreviewDto | undefined): void {
    if (preview === this.shown) return;
    this.shown = preview;
    this.emitter.fire();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
