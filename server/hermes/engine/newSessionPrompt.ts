// The system prompt a new session of a profile would get now, as far as the lens can render it:
// a stored prompt of the profile (the newest on the same platform, in the same folder where there
// is one) rebuilt from today's files, as a refresh would build it (rebuildPrompt), with today's
// date in its trailer. Hermes' own text (guidance, the coding brief, the workspace lines) comes from
// that stored prompt: the lens never writes it itself, so a profile without any stored prompt has
// no answer here.
import { parsePrompt } from '../anatomy/parsePrompt';
import type { PromptAnatomy } from '../anatomy/types';
import { CONVERSATION_STARTED } from '../literals/containers';
import { rebuildPrompt } from '../sources/promptBuilder';
import type { ProfileAnalysis } from './analyzeProfile';
import type { SessionReport } from './types';

export interface NewSessionPrompt {
  readonly anatomy: PromptAnatomy;
  /** The stored prompt it was rendered from, and how close that session is to the one asked for. */
  readonly template: { readonly session: SessionReport; readonly samePlatform: boolean; readonly sameFolder: boolean };
}

export interface NewSessionOptions {
  /** The session's platform (`cli`, `telegram`, …): its skills index and the template's surface. */
  readonly platform: string;
  /** The folder the session would start in (its project context); the template's when undefined. */
  readonly cwd: string | undefined;
  /** Epoch seconds: the trailer's date. */
  readonly now: number;
}

export function newSessionPrompt(analysis: ProfileAnalysis, options: NewSessionOptions): NewSessionPrompt | undefined {
  const template = templateFor(analysis, options);
  if (!template) return undefined;
  const stored = analysis.anatomyOf(template.session.id)!;
  const cwd = options.cwd ?? template.session.cwd;
  const sources = analysis.sourcesFor(cwd, options.platform);
  const text = withConversationDate(rebuildPrompt(stored.text, sources), options.now);
  return { anatomy: parsePrompt(text, { identityHint: sources.soul.exists ? sources.soul.block : undefined }), template };
}

/** The newest stored prompt of the same platform and folder, else of the same platform, else the newest. */
function templateFor(analysis: ProfileAnalysis, options: NewSessionOptions): NewSessionPrompt['template'] | undefined {
  let best: { session: SessionReport; rank: number; at: number } | undefined;
  for (const session of analysis.report.sessions) {
    if (!analysis.anatomyOf(session.id)) continue;
    const samePlatform = (session.source ?? 'cli') === options.platform;
    const sameFolder = options.cwd === undefined || session.cwd === options.cwd;
    const rank = (samePlatform ? 2 : 0) + (samePlatform && sameFolder ? 1 : 0);
    const at = session.startedAt ?? 0;
    if (!best || rank > best.rank || (rank === best.rank && at > best.at)) best = { session, rank, at };
  }
  return best && { session: best.session, samePlatform: best.rank >= 2, sameFolder: best.rank === 3 };
}

/**
 * The trailer's `Conversation started:` date made the day of `now` (SP._timestamp_line: `%A, %B %d,
 * %Y`, in the zone its suffix names, else this machine's), and the `Today's date` line a rebuild
 * adds dropped: a new session starts today. The zone's abbreviation and offset are those of `now`.
 */
export function withConversationDate(text: string, now: number): string {
  const at = lastParagraphStart(text, CONVERSATION_STARTED);
  if (at < 0) return text;
  const lineEnd = indexOrEnd(text, '\n', at);
  const line = text.slice(at + CONVERSATION_STARTED.length, lineEnd);
  const open = line.indexOf(' (');
  const suffix = open < 0 ? '' : line.slice(open);
  const bits = suffix ? suffix.slice(2, -1).split(', ') : [];
  const zone = bits.find((b) => b.includes('/'));
  const date = new Date(now * 1000);
  const day = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: '2-digit', year: 'numeric', timeZone: zone }).format(date);
  const newSuffix = suffix ? ` (${bits.map((b) => zoneBitNow(b, date, zone)).join(', ')})` : '';
  let end = lineEnd;
  if (text.startsWith("\nToday's date", lineEnd)) end = indexOrEnd(text, '\n', lineEnd + 1);
  return `${text.slice(0, at)}${CONVERSATION_STARTED}${day}${newSuffix}${text.slice(end)}`;
}

/** One bit of the zone suffix for `date`: the IANA key as it is, the abbreviation and `UTC±HH:MM` of that day. */
function zoneBitNow(bit: string, date: Date, zone: string | undefined): string {
  const part = (locale: string, name: 'short' | 'longOffset') =>
    new Intl.DateTimeFormat(locale, { timeZoneName: name, timeZone: zone }).formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
  if (/^UTC[+-]\d\d:\d\d$/.test(bit)) {
    const offset = part('en-US', 'longOffset').replace(/^GMT$/, 'GMT+00:00');
    return /^GMT[+-]\d\d:\d\d$/.test(offset) ? `UTC${offset.slice(3)}` : bit;
  }
  if (/^[A-Z]{2,5}$/.test(bit)) {
    const abbreviation = part('en-GB', 'short');
    return /^[A-Z]{2,5}$/.test(abbreviation) ? abbreviation : bit;
  }
  return bit;
}

function lastParagraphStart(text: string, needle: string): number {
  for (let at = text.lastIndexOf(needle); at >= 0; at = at === 0 ? -1 : text.lastIndexOf(needle, at - 1)) {
    if (at === 0 || text.startsWith('\n\n', at - 2)) return at;
  }
  return -1;
}

function indexOrEnd(text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from);
  return at < 0 ? text.length : at;
}
