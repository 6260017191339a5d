// The small fixed-format parts of a prompt that come from the session, not from files: the active
// profile line (HERMES-FORMATS §6.3), the trailer (§6.1), the runtime block (§6.2) and the plugin
// sections container (§6.4).
import {
  ACTIVE_PROFILE,
  CONVERSATION_STARTED,
  PLUGIN_END,
  PLUGIN_HEADING,
  PLUGIN_START,
  RUNTIME_END,
  RUNTIME_HEADING,
} from '../literals/containers';
import { codePointLength } from '../text/pyText';

export interface ActiveProfile {
  /** `default` or the profile's name. */
  readonly name: string;
  /** The root home. */
  readonly root: string;
  /** The profile's directory (`<root>/profiles/<name>`); defaults to that path. */
  readonly dir?: string;
}

/** `SP._active_profile_line`. */
export function activeProfileLine(profile: ActiveProfile): string {
  if (profile.name === 'default') {
    return (
      `${ACTIVE_PROFILE}default. Other profiles (if any) live under ${profile.root}/profiles/<name>/. Each profile has its own ` +
      "skills/, plugins/, cron/, and memories/ that affect a different session than this one. Do not modify another profile's " +
      'skills/plugins/cron/memories unless the user explicitly directs you to.'
    );
  }
  const home = profile.dir ?? `${profile.root}/profiles/${profile.name}`;
  const r = profile.root;
  return (
    `${ACTIVE_PROFILE}${profile.name}. This session reads and writes ${home}/. The default profile's data lives at ` +
    `${r}/skills/, ${r}/plugins/, ${r}/cron/, ${r}/memories/ — those belong to a different session run from a different shell. ` +
    "Do NOT modify another profile's skills/plugins/cron/memories unless the user explicitly directs you to."
  );
}

export interface TrailerInput {
  /** When the conversation started, epoch seconds. */
  readonly startedAt: number;
  /** A configured Hermes timezone (IANA); without one the date is shown in UTC. */
  readonly timeZone?: string;
  /** The rebuild time, epoch seconds: a second date line appears when its day differs. */
  readonly now?: number;
  readonly sessionId?: string;
  readonly model?: string;
  readonly provider?: string;
  readonly platform?: string;
}

/** `SP._timestamp_line` and the identity lines after it, as one part. */
export function trailer(input: TrailerInput): string {
  const zone = input.timeZone ?? 'UTC';
  const bits = zoneBits(input.startedAt, zone, input.timeZone !== undefined);
  let text = `${CONVERSATION_STARTED}${longDate(input.startedAt, zone)}${bits.length ? ` (${bits.join(', ')})` : ''}`;
  if (input.now !== undefined && longDate(input.now, zone) !== longDate(input.startedAt, zone)) {
    text += `\nToday's date (as of the last context rebuild): ${longDate(input.now, zone)} — trust this over the start date for what day it is now; query tools for exact time.`;
  }
  if (input.sessionId) text += `\nSession ID: ${input.sessionId}`;
  if (input.model) text += `\nModel: ${input.model}`;
  if (input.provider) text += `\nProvider: ${input.provider}`;
  if (input.platform) text += `\nPlatform: ${input.platform}`;
  return text;
}

/** `strftime('%A, %B %d, %Y')` in the C locale. */
function longDate(epochSeconds: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', month: 'long', day: '2-digit', year: 'numeric' }).formatToParts(
    new Date(epochSeconds * 1000),
  );
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')}, ${get('month')} ${get('day')}, ${get('year')}`;
}

/** The IANA key (when configured), the abbreviation (`%Z`) when it differs, and `UTC±HH:MM`. */
function zoneBits(epochSeconds: number, timeZone: string, configured: boolean): string[] {
  const date = new Date(epochSeconds * 1000);
  const offset = zoneName(date, timeZone, 'en-US', 'longOffset').replace(/^GMT$/, 'GMT+00:00').replace(/^GMT/, 'UTC');
  const abbreviation = abbreviationOf(date, timeZone, offset);
  const bits: string[] = [];
  if (configured) bits.push(timeZone);
  if (abbreviation && abbreviation !== (configured ? timeZone : undefined)) bits.push(abbreviation);
  bits.push(offset);
  return bits;
}

/**
 * Python's `%Z` comes from the tz database (EST, CET, JST, or "+04" when the zone has no letters).
 * Intl only knows some abbreviations per locale; failing those we write the tz database's numeric form.
 */
function abbreviationOf(date: Date, timeZone: string, offset: string): string {
  for (const locale of ['en-US', 'en-GB']) {
    const name = zoneName(date, timeZone, locale, 'short');
    if (name && !/^GMT[+-]/.test(name)) return name;
  }
  const m = /^UTC([+-])(\d\d):(\d\d)$/.exec(offset);
  return m ? `${m[1]}${m[2]}${m[3] === '00' ? '' : m[3]}` : '';
}

function zoneName(date: Date, timeZone: string, locale: string, style: 'short' | 'longOffset'): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: style }).formatToParts(date);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
}

export interface RuntimeInput {
  /** e.g. `Linux (6.8.0)`, `macOS (14.5)`. */
  readonly host: string;
  readonly home: string;
  readonly cwd: string;
  /** Further hint blocks (WSL, embedder). */
  readonly extraHints?: readonly string[];
}

/** The runtime environment block, always the prompt's last block. */
export function runtimeBlock(input: RuntimeInput): string {
  const host = `Host: ${input.host}\nUser home directory: ${input.home}\nCurrent working directory: ${input.cwd}`;
  const hints = [host, ...(input.extraHints ?? [])].filter(Boolean).join('\n\n').split(RUNTIME_HEADING).join(`> ${RUNTIME_HEADING}`);
  return `${RUNTIME_HEADING}\n\n${hints}\n\n${RUNTIME_END}`;
}

export interface PluginSection {
  /** Matches `^[a-z0-9][a-z0-9._-]{0,127}$`. */
  readonly id: string;
  readonly content: string;
}

/** `PL.format_system_prompt_sections`; '' without sections. */
export function pluginSectionsBlock(sections: readonly PluginSection[]): string {
  if (sections.length === 0) return '';
  const blocks = sections.map((s) => `${PLUGIN_HEADING}${s.id}\n<!-- hermes-plugin-section-chars:${codePointLength(s.content)} -->\n\n${s.content}`);
  return `${PLUGIN_START}\n${blocks.join('\n\n')}\n${PLUGIN_END}`;
}
