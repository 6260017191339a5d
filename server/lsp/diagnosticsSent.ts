// What the server last published as each open document's diagnostics, so that a re-evaluation
// (a save elsewhere, a Hermes write) that leaves a document's diagnostics as they were sends
// nothing. Every publish is a marker change in the editor, and VS Code answers a marker change of
// the document under the cursor by asking for its code actions again, which supersedes a pending
// Ctrl+. (it then shows "No code actions available"): with Hermes writing every turn, an open
// AGENTS.md was re-sent its unchanged diagnostics each turn. A new version of the document's
// text is always published, so a client that waits for the diagnostics of the version it sent
// gets them.
import type { Diagnostic } from 'vscode-languageserver/node';

export class DiagnosticsSent {
  private readonly last = new Map<string, { readonly version: number; readonly json: string }>();

  /** Whether `diagnostics` for this version of `uri` say something other than the last published; if so they count as published now. */
  takeChanged(uri: string, version: number, diagnostics: readonly Diagnostic[]): boolean {
    const json = JSON.stringify(diagnostics);
    const was = this.last.get(uri);
    if (was && was.version === version && was.json === json) return false;
    this.last.set(uri, { version, json });
    return true;
  }

  /** The document closed: its diagnostics are cleared, and a reopened one is published afresh. */
  forget(uri: string): void {
    this.last.delete(uri);
  }
}
