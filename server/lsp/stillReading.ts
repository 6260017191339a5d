// What an answer says when the first analysis of the home is still running after the wait
// (firstAnalysis.ts): what is known, and a word that more is coming, in each feature's own form.
import { CodeActionKind, MarkupKind, type CodeAction, type CodeLens, type Hover } from 'vscode-languageserver/node';
import { ClientCommands } from '../../shared/protocol';

export const STILL_READING = 'Hermes Prompt Lens is still reading the sessions of the Hermes home; ask again in a moment.';

const TOP = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The hover known so far, with the word after it (or the word alone). */
export function hoverStillReading(hover: Hover | null): Hover {
  const known = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? `${hover.contents.value}\n\n` : '';
  return { contents: { kind: MarkupKind.Markdown, value: `${known}_${STILL_READING}_` } };
}

/** The lenses known so far, and one that says the sessions are still being read. */
export function lensesStillReading(lenses: CodeLens[]): CodeLens[] {
  return [...lenses, { range: TOP, command: { title: 'Hermes: still reading the sessions…', command: ClientCommands.showSessions } }];
}

/** The actions known so far, and a disabled one that says why there is no refresh yet. */
export function actionsStillReading(actions: CodeAction[]): CodeAction[] {
  return [...actions, { title: 'Refresh Hermes sessions', kind: CodeActionKind.QuickFix, disabled: { reason: STILL_READING } }];
}
