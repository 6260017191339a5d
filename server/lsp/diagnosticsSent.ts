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
  private readonly last = new Map<string, { readonly version: number; readonly diagnostics: readonly Diagnostic[] }>();

  /** Whether `diagnostics` for this version of `uri` say something other than the last published; if so they count as published now. */
  takeChanged(uri: string, version: number, diagnostics: readonly Diagnostic[]): boolean {
    const was = this.last.get(uri);
    // Compared only at the same version (a re-evaluation): a keystroke always publishes, uncompared.
    if (was && was.version === version && JSON.stringify(was.diagnostics) === JSON.stringify(diagnostics)) return false;
    this.last.set(uri, { version, diagnostics });
    return true;
  }

  /** The document closed: its diagnostics are cleared, and a reopened one is published afresh. */
  forget(uri: string): void {
    this.last.delete(uri);
  }
}
