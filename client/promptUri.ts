// The read-only prompt documents live at `hermes-prompt:/<profile>/<session id>.hermes-prompt?<view>`.
// Pure string work (no vscode import) so it is unit-tested; promptDocuments.ts wraps it in vscode.Uri.
import { PROMPT_EXTENSION } from './ids';

/** stored = the session's stored prompt; before/after = the two sides of the refresh diff. */
export type PromptView = 'stored' | 'before' | 'after';

export interface PromptDocRef {
  readonly profile: string;
  readonly sessionId: string;
  readonly view: PromptView;
}

/** The path and query of a prompt document's URI. */
export function promptUriParts(ref: PromptDocRef): { path: string; query: string } {
  return {
    path: `/${encodeURIComponent(ref.profile)}/${encodeURIComponent(ref.sessionId)}${PROMPT_EXTENSION}`,
    query: ref.view === 'stored' ? '' : ref.view,
  };
}

/** Reads a prompt document's URI back; undefined when it is not one of ours. */
export function parsePromptUri(parts: { path: string; query: string }): PromptDocRef | undefined {
  const m = /^\/([^/]+)\/([^/]+)$/.exec(parts.path);
  if (!m || !m[2]!.endsWith(PROMPT_EXTENSION)) return undefined;
  const view: PromptView = parts.query === 'before' || parts.query === 'after' ? parts.query : 'stored';
  try {
    return {
      profile: decodeURIComponent(m[1]!),
      sessionId: decodeURIComponent(m[2]!.slice(0, -PROMPT_EXTENSION.length)),
      view,
    };
  } catch {
    return undefined;
  }
}

/** One key per session, for caches. */
export const sessionKey = (ref: { profile: string; sessionId: string }): string => `${ref.profile}\u0000${ref.sessionId}`;
