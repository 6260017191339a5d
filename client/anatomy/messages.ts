// The messages between the prompt anatomy webview and the extension, and their validation on
// arrival: each side accepts only the shapes below. The webview names what to open by its place in
// the map it was sent, never by a path; the extension looks the path up in its own copy. Pure (no
// vscode, no DOM): both sides and the unit tests import it.
import type { PromptMapDto, SessionDto } from '../../shared/protocol';
import type { SharedPrefix } from './sharedPrefix';

/** A session the view can switch to. */
export interface SessionChoice {
  readonly id: string;
  readonly label: string;
  readonly description: string;
}

/** extension → webview */
export type HostMessage =
  | {
      readonly type: 'show';
      readonly map: PromptMapDto;
      /** The session's row of the session list (its cache timeline), when the list has it. */
      readonly session: SessionDto | null;
      /** What the view says of how the session was chosen: `newest` = the profile's newest live session. */
      readonly chosen: 'asked' | 'newest';
      readonly choices: readonly SessionChoice[];
      /** The part to select first (the file a hover asked for), by its index. */
      readonly select: number | null;
      /** What of the session's cached prefix other sessions share (sharedPrefix.ts); null: none. */
      readonly shared: SharedPrefix | null;
      /** Whether the prefix families are known yet (until then nothing is said of sharing). */
      readonly sharingKnown: boolean;
    }
  | { readonly type: 'error'; readonly message: string };

/** webview → extension */
export type ViewMessage =
  | { readonly type: 'ready' }
  /** Open the part's file at its line (an entry: that skill's SKILL.md); Hermes' own text opens in the stored prompt. */
  | { readonly type: 'open'; readonly part: number; readonly entry: number | null }
  | { readonly type: 'pick'; readonly sessionId: string };

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 100_000;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A message from the webview, or undefined when it is not one of ours. */
export function parseViewMessage(raw: unknown): ViewMessage | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'open':
      if (!isIndex(raw.part) || !(raw.entry === null || raw.entry === undefined || isIndex(raw.entry))) return undefined;
      return { type: 'open', part: raw.part, entry: raw.entry ?? null };
    case 'pick':
      return typeof raw.sessionId === 'string' && raw.sessionId.length > 0 && raw.sessionId.length <= 200 ? { type: 'pick', sessionId: raw.sessionId } : undefined;
    default:
      return undefined;
  }
}

/** A message from the extension, or undefined when it does not have the shape of one. */
export function parseHostMessage(raw: unknown): HostMessage | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.type === 'error') return typeof raw.message === 'string' ? { type: 'error', message: raw.message } : undefined;
  if (raw.type !== 'show' || !isRecord(raw.map) || !Array.isArray(raw.map.parts) || !Array.isArray(raw.map.tiers) || !Array.isArray(raw.choices)) return undefined;
  if (!(raw.select === null || isIndex(raw.select)) || (raw.chosen !== 'asked' && raw.chosen !== 'newest')) return undefined;
  return raw as unknown as HostMessage;
}
