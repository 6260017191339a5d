// Finds the blocks of a stored prompt by the markers Hermes writes (HERMES-FORMATS §1, §3–§6) and
// the tier boundaries they imply. Every character outside the blank-line separators belongs to
// exactly one block: text we cannot name becomes `guidance` (stable) or `other`. Pure string work,
// no token counting, so `rebuildPrompt` can use it cheaply.
import type { BlockKind, TierName } from '../model';
import {
  ACTIVE_PROFILE,
  CONVERSATION_STARTED,
  MEMORY_HEADER_LABEL,
  MEMORY_RULE,
  PLUGIN_END,
  PLUGIN_HEADING,
  PLUGIN_START,
  PROJECT_CONTEXT_PREFIX,
  RUNTIME_END,
  RUNTIME_HEADING,
  SKILLS_CLOSE,
  SKILLS_OPEN,
  TRAILER_LABELS,
  USER_HEADER_LABEL,
  WORKSPACE_SNAPSHOT,
} from '../literals/containers';
import { codePointLength, formatThousands, pyStrip, unitOffset } from '../text/pyText';
import { DEFAULT_GUIDANCE_HEADINGS } from '../literals/guidance';
import { DEFAULT_IDENTITY_OPENING } from '../literals/identity';

export interface LocatedBlock {
  readonly kind: BlockKind;
  readonly start: number;
  readonly end: number;
  readonly tier: TierName;
  readonly label?: string;
}

export interface Located {
  readonly blocks: readonly LocatedBlock[];
  /** Where the context and volatile tiers start (equal when the context tier is empty). */
  readonly contextStart: number;
  readonly volatileStart: number;
  readonly skillsTier: TierName | undefined;
  /** Start of the runtime block, or the text's length. */
  readonly runtimeStart: number;
  /** Where the first block after the identity was found (identities end before it; markers inside SOUL.md count). */
  readonly firstMarker: number;
  /** Whether any block besides the identity was found. */
  readonly anyMarker: boolean;
}

export interface LocateOptions {
  /** The SOUL.md text the prompt is expected to open with. */
  readonly identityHint?: string;
  /** The caller's system message (`agent.system_prompt`), to find it in the context tier. */
  readonly callerSystemMessage?: string;
}

/**
 * Opening words of Hermes' platform hints (`PLATFORM_HINTS`), enough to tell one from prose. A
 * paragraph of a context file that happened to start like this would end the project block early.
 */
const PLATFORM_HINT =
  /^You are (?:on (?:WhatsApp|Telegram|Signal|Discord|Slack|LINE|QQ|WeChat|Weixin|WeCom|DingTalk|Feishu|Lark|Teams|Microsoft Teams|Matrix|Mattermost|iMessage|Instagram|Messenger|X|Twitter|SMS|Home Assistant|Zulip|Rocket\.Chat|IRC|Nostr|Bluesky|Mastodon)\b|in (?:a (?:Discord|Slack|Mattermost|Matrix|Feishu|Lark|Microsoft Teams|Teams|Zulip|DingTalk|WeCom|Rocket\.Chat)\b|a plain terminal|the Hermes )|communicating via (?:email|SMS)|chatting (?:inside the Hermes|via iMessage|on )|running as a scheduled cron job)/;
const H1 = /^# \S/;
const PROJECT_CONTEXT_HEADING = '# Project Context\n\n';
const HERMES_HELP_OPENING = 'You run on Hermes Agent';

type Found = { kind: BlockKind; start: number; end: number; label?: string };

export function locateBlocks(text: string, options: LocateOptions = {}): Located {
  const found: Found[] = [];
  const isParaStart = (i: number) => i === 0 || (text[i - 1] === '\n' && text[i - 2] === '\n');
  const paraStarts = (needle: string, from = 0, to = text.length): number[] => {
    const out: number[] = [];
    for (let i = text.indexOf(needle, from); i >= 0 && i < to; i = text.indexOf(needle, i + 1)) if (isParaStart(i)) out.push(i);
    return out;
  };
  const paraEnd = (from: number, limit: number) => {
    const at = text.indexOf('\n\n', from);
    return at < 0 || at > limit ? limit : at;
  };

  // Runtime block: the new format only when the prompt ends with its end marker (SW.split_runtime_boundary).
  let limit = text.length;
  if (text.endsWith(RUNTIME_END)) {
    const sep = text.lastIndexOf(`\n\n${RUNTIME_HEADING}\n\n`);
    const start = sep >= 0 ? sep + 2 : text.startsWith(`${RUNTIME_HEADING}\n\n`) ? 0 : -1;
    if (start >= 0) {
      found.push({ kind: 'runtime-environment', start, end: text.length });
      limit = start;
    }
  }
  const runtimeStart = limit;

  // Plugin sections container (after memory, before the trailer).
  const pluginStart = paraStarts(PLUGIN_START, 0, limit).pop();
  let pluginEnd: number | undefined;
  if (pluginStart !== undefined) {
    const endAt = text.indexOf(`\n${PLUGIN_END}`, pluginStart);
    if (endAt >= 0 && endAt < limit) {
      pluginEnd = endAt + 1 + PLUGIN_END.length;
      found.push(...pluginBlocks(text, pluginStart, pluginEnd));
    }
  }

  // Trailer: the last "Conversation started:" paragraph, else a paragraph of label lines.
  const trailerFrom = pluginEnd ?? 0;
  let trailerStart = paraStarts(CONVERSATION_STARTED, trailerFrom, limit).pop();
  if (trailerStart === undefined) {
    trailerStart = paragraphStarts(text, trailerFrom, limit)
      .filter((p) => allLabelLines(text.slice(p, paraEnd(p, limit)), true))
      .pop();
  }
  if (trailerStart !== undefined) {
    found.push(...trailerBlocks(text, trailerStart, limit));
    // Builds since 2026-09-28 write the profile line last, after the trailer (HERMES-FORMATS §1).
    for (const p of paraStarts(ACTIVE_PROFILE, trailerStart, limit)) found.push({ kind: 'active-profile', start: p, end: paraEnd(p, limit) });
  }
  const volatileTailStart = Math.min(pluginEnd !== undefined ? pluginStart! : limit, trailerStart ?? limit, limit);

  // MEMORY and USER blocks.
  const memory = memoryBlock(text, 'memory', MEMORY_HEADER_LABEL, 0, volatileTailStart, paraStarts);
  if (memory) found.push(memory);
  const user = memoryBlock(text, 'user-profile', USER_HEADER_LABEL, memory?.end ?? 0, volatileTailStart, paraStarts);
  if (user) found.push(user);

  // Skills index: found by its tags, which every build writes, never by its heading, which changes.
  const skillsLimit = Math.min(memory?.start ?? volatileTailStart, user?.start ?? volatileTailStart, volatileTailStart);
  const skills = skillsBlock(text, skillsLimit, paraStarts, isParaStart);
  if (skills) found.push(skills);

  // Context-tier markers.
  const volatileFound = () => found.filter((f) => f.kind !== 'skills-index').map((f) => f.start);
  const firstVolatile = Math.min(limit, ...volatileFound());
  const projectStart = paraStarts(PROJECT_CONTEXT_PREFIX, 0, firstVolatile)[0] ?? paraStarts(PROJECT_CONTEXT_HEADING, 0, firstVolatile)[0];
  const notInProject = (p: number, projectEnd: number) => projectStart === undefined || p < projectStart || p >= projectEnd;
  const caller = options.callerSystemMessage ? pyStrip(options.callerSystemMessage) : '';
  // The caller's message sits in the context tier: never inside a SOUL identity the hint matches.
  const hint = options.identityHint;
  const identityFloor = hint && hintOpens(text, hint) ? hint.length : 0;
  const callerAt = caller
    ? paraStarts(caller, identityFloor, firstVolatile).find((p) => p + caller.length === text.length || text.startsWith('\n\n', p + caller.length))
    : undefined;
  const contextCandidates: Found[] = [];
  for (const p of paraStarts(ACTIVE_PROFILE, 0, firstVolatile)) contextCandidates.push({ kind: 'active-profile', start: p, end: paraEnd(p, firstVolatile) });
  for (const p of paraStarts(WORKSPACE_SNAPSHOT, 0, firstVolatile)) contextCandidates.push({ kind: 'git-snapshot', start: p, end: paraEnd(p, firstVolatile) });
  for (const p of paragraphStarts(text, 0, firstVolatile)) {
    if (PLATFORM_HINT.test(text.slice(p, Math.min(p + 120, firstVolatile)))) contextCandidates.push({ kind: 'platform-hints', start: p, end: paraEnd(p, firstVolatile) });
  }
  if (callerAt !== undefined) contextCandidates.push({ kind: 'caller-system', start: callerAt, end: callerAt + caller.length });
  if (projectStart !== undefined) {
    // The project block runs to the next marker of any kind (its files may hold blank lines).
    const skills = found.find((f) => f.kind === 'skills-index');
    const stops = [...contextCandidates.map((c) => c.start), ...(skills ? [skills.start] : []), firstVolatile].filter((p) => p > projectStart);
    const projectEnd = trimNewlines(text, projectStart, Math.min(...stops));
    found.push({ kind: 'project-context', start: projectStart, end: projectEnd });
    found.push(...contextCandidates.filter((c) => notInProject(c.start, projectEnd)));
  } else {
    found.push(...contextCandidates);
  }

  // Identity: the SOUL text (when the hint matches) or the opening paragraph(s).
  const markers = found.map((f) => f.start);
  const firstMarker = Math.min(text.length, ...markers);
  const identityEnd = identityLength(text, options.identityHint, firstMarker, markers.length > 0);
  if (identityEnd > 0) found.push({ kind: 'identity', start: 0, end: identityEnd });

  return withTiers(text, dedupe(found), runtimeStart, firstMarker, markers.length > 0);
}

/** The hint is the text's first block: the text starts with it, followed by a blank line or the end. */
export function hintOpens(text: string, hint: string): boolean {
  // The separator first: it rules most texts out without comparing the whole hint.
  return (text.length === hint.length || text.startsWith('\n\n', hint.length)) && text.startsWith(hint);
}

/**
 * The hint is the text's whole identity: it opens the text, and no paragraph follows it before the
 * one that follows the identity in Hermes' prompts (hintedIdentityEnd). `firstMarker`: where the
 * first block after the identity starts.
 */
export function hintIsIdentity(text: string, hint: string, firstMarker: number): boolean {
  return hintOpens(text, hint) && hintedIdentityEnd(text, hint, firstMarker) === hint.length;
}

// The identity hint is used only when it opens the text (hintOpens, the two uses above): otherwise
// the blocks are those found without a hint. rebuildPrompt locates every stored prompt again with
// today's SOUL.md as the hint, which after an edit opens none of them: their hint-less blocks are
// kept here (bounded), so a save of SOUL.md does not parse hundreds of prompts again.
const hintless = new Map<string, Located>();
const HINTLESS_KEPT = 1024;

/** `locateBlocks(text, { identityHint })`, the hint-less result reused when the hint does not open the text. */
export function locateBlocksWithHint(text: string, identityHint: string | undefined): Located {
  if (identityHint && hintOpens(text, identityHint)) return locateBlocks(text, { identityHint });
  const kept = hintless.get(text);
  if (kept) return kept;
  const located = locateBlocks(text);
  if (hintless.size >= HINTLESS_KEPT) hintless.delete(hintless.keys().next().value!);
  hintless.set(text, located);
  return located;
}

/**
 * Where the identity ends: the hint, the default identity's paragraph, or paragraphs up to guidance.
 * Exported for identityOpenings.ts: with the text's own firstMarker and anyMarker (Located), this is
 * where locateBlocks ends the identity for any hint, which is all a hint changes of its blocks.
 */
export function identityLength(text: string, hint: string | undefined, firstMarker: number, anyMarker: boolean): number {
  if (!text) return 0;
  // A matching hint wins even over marker-like text inside SOUL.md (dedupe drops those).
  if (hint && hintOpens(text, hint)) return hintedIdentityEnd(text, hint, firstMarker);
  const firstPara = Math.min(firstMarker, endOfParagraph(text, 0));
  if (text.startsWith(DEFAULT_IDENTITY_OPENING)) return firstPara;
  if (!anyMarker || firstMarker === 0) return 0;
  // The paragraph that follows the identity in Hermes' prompts (and in our demo prompts) is the
  // most reliable end; without it, the first top-level heading after the opening paragraph.
  const anchor = paragraphStarts(text, firstPara, firstMarker).find((p) => p > 0 && opensGuidance(text, p));
  if (anchor !== undefined) return trimNewlines(text, 0, anchor);
  let end = firstPara;
  for (let p = end + 2; p < firstMarker; ) {
    if (H1.test(text.slice(p, p + 60))) break;
    end = Math.min(firstMarker, endOfParagraph(text, p));
    p = end + 2;
  }
  return trimNewlines(text, 0, end);
}

/**
 * Where the identity ends when the hint opens the text: at the hint, unless paragraphs follow it
 * before the one that follows the identity in Hermes' prompts (opensGuidance). Those are the
 * stored SOUL.md's too: a SOUL.md whose last paragraphs were deleted since the prompt was stored
 * still opens it, followed by a blank line, and must not pass for the whole of it. Without such
 * an anchor the hint is all that is known.
 */
function hintedIdentityEnd(text: string, hint: string, firstMarker: number): number {
  return hintedIdentityEnds(text, [hint.length], firstMarker)[0]!;
}

/**
 * hintedIdentityEnd for hints of each of `lengths` (ascending) that open the text, in one pass over
 * its paragraphs: what any SOUL.md would make of a stored prompt (identityOpenings.ts).
 */
export function hintedIdentityEnds(text: string, lengths: readonly number[], firstMarker: number): number[] {
  const anchors: Array<number | undefined> = lengths.map(() => undefined);
  // The paragraph starts paragraphStarts(text, length, firstMarker) finds, each after the blank line
  // at `at`: the first that opens guidance is the anchor of every length up to `at` still without one.
  let assigned = 0;
  let pending = 0;
  for (let at = text.indexOf('\n\n', lengths[0] ?? 0); at >= 0 && at < firstMarker && assigned < lengths.length; at = text.indexOf('\n\n', at + 1)) {
    while (pending < lengths.length && lengths[pending]! <= at) pending++;
    if (pending === assigned) continue;
    let p = at + 2;
    while (p < firstMarker && text[p] === '\n') p++;
    if (p < firstMarker && opensGuidance(text, p)) for (; assigned < pending; assigned++) anchors[assigned] = p;
  }
  if (lengths[0] === 0 && text[0] !== '\n' && firstMarker > 0 && opensGuidance(text, 0)) anchors[0] = 0;
  return lengths.map((length, k) => (anchors[k] === undefined ? length : Math.max(length, trimNewlines(text, 0, anchors[k]!))));
}

/** Where the paragraph after `end` starts when it opens Hermes' guidance (the identity's usual end), else -1. */
export function guidanceAfter(text: string, end: number): number {
  let p = end;
  while (text.charCodeAt(p) === 0x0a) p++;
  return p > end && p < text.length && opensGuidance(text, p) ? p : -1;
}

function opensGuidance(text: string, at: number): boolean {
  return text.startsWith(HERMES_HELP_OPENING, at) || DEFAULT_GUIDANCE_HEADINGS.some((h) => text.startsWith(`${h}\n`, at));
}

/**
 * The skills index block: the last `<available_skills>` list opening a paragraph before `limit`,
 * with the paragraphs of Hermes' own prose around it that speak of skills (the heading and its
 * instructions before, the closing sentence after). Headings and instructions differ between
 * builds, so they are taken by what they are about, not by their words.
 */
function skillsBlock(
  text: string,
  limit: number,
  paraStarts: (needle: string, from?: number, to?: number) => number[],
  isParaStart: (i: number) => boolean,
): Found | undefined {
  for (const open of paraStarts(SKILLS_OPEN, 0, limit).reverse()) {
    const close = text.indexOf(`\n${SKILLS_CLOSE}`, open);
    if (close < 0 || close >= limit) continue;
    let start = open;
    for (let steps = 0; steps < SKILLS_PROSE_PARAGRAPHS && start > 0; steps++) {
      const before = text.lastIndexOf('\n\n', start - 3);
      const paragraphStart = before < 0 ? 0 : before + 2;
      const paragraph = text.slice(paragraphStart, start - 2);
      if (!isParaStart(paragraphStart) || !SPEAKS_OF_SKILLS.test(paragraph) || isOtherBlock(paragraph)) break;
      start = paragraphStart;
      if (paragraph.startsWith('#')) break; // the heading opens the block
    }
    let end = close + 1 + SKILLS_CLOSE.length;
    if (text.startsWith('\n\n', end)) {
      const next = end + 2;
      const nextEnd = Math.min(limit, endOfParagraph(text, next));
      const paragraph = text.slice(next, nextEnd);
      if (SPEAKS_OF_SKILLS.test(paragraph) && !paragraph.startsWith('#') && !isOtherBlock(paragraph)) end = nextEnd;
    }
    return { kind: 'skills-index', start, end: trimNewlines(text, start, end) };
  }
  return undefined;
}

/** At most this many paragraphs of prose before the list belong to the skills block. */
const SKILLS_PROSE_PARAGRAPHS = 3;
const SPEAKS_OF_SKILLS = /skill/i;

/** A paragraph that opens a block of another kind, which the skills block never swallows. */
function isOtherBlock(paragraph: string): boolean {
  return (
    paragraph.startsWith(PROJECT_CONTEXT_HEADING) ||
    paragraph.startsWith(`${MEMORY_RULE}\n`) ||
    paragraph.startsWith(CONVERSATION_STARTED) ||
    paragraph.startsWith(PLUGIN_START) ||
    paragraph.startsWith(ACTIVE_PROFILE) ||
    paragraph.startsWith(WORKSPACE_SNAPSHOT) ||
    paragraph.startsWith(RUNTIME_HEADING)
  );
}

function endOfParagraph(text: string, from: number): number {
  const at = text.indexOf('\n\n', from);
  return at < 0 ? text.length : at;
}

/** Starts of the paragraphs in [from, to): after every blank line. */
function paragraphStarts(text: string, from: number, to: number): number[] {
  const out: number[] = [];
  if (from === 0 && to > 0 && text[0] !== '\n') out.push(0);
  for (let i = text.indexOf('\n\n', from); i >= 0 && i < to; i = text.indexOf('\n\n', i + 1)) {
    let p = i + 2;
    while (p < to && text[p] === '\n') p++;
    if (p < to && (out.length === 0 || out[out.length - 1] !== p) && p >= from) out.push(p);
  }
  return out;
}

function trimNewlines(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && text[e - 1] === '\n') e--;
  return e;
}

function allLabelLines(paragraph: string, needModel: boolean): boolean {
  const lines = paragraph.split('\n');
  return lines.length > 0 && lines.every((l) => TRAILER_LABELS.some((label) => l.startsWith(`${label}: `))) && (!needModel || lines.some((l) => !l.startsWith('Session ID: ')));
}

/** The trailer's lines: conversation start (+ "Today's date"), Session ID, Model/Provider/Platform. */
function trailerBlocks(text: string, start: number, limit: number): Found[] {
  const blocks: Found[] = [];
  let at = start;
  const lineEnd = (p: number) => {
    const e = text.indexOf('\n', p);
    return e < 0 || e > limit ? limit : e;
  };
  if (text.startsWith(CONVERSATION_STARTED, at) || text.startsWith('Timezone: ', at)) {
    let end = lineEnd(at);
    if (text.startsWith("Today's date", end + 1) && end < limit) end = lineEnd(end + 1);
    blocks.push({ kind: 'conversation-started', start: at, end });
    at = end + 1;
  }
  if (at < limit && text.startsWith('Session ID: ', at)) {
    const end = lineEnd(at);
    blocks.push({ kind: 'session-id', start: at, end });
    at = end + 1;
  }
  let modelStart: number | undefined;
  let modelEnd = at;
  while (at < limit && ['Model: ', 'Provider: ', 'Platform: '].some((l) => text.startsWith(l, at))) {
    modelStart ??= at;
    modelEnd = lineEnd(at);
    at = modelEnd + 1;
  }
  if (modelStart !== undefined) blocks.push({ kind: 'model-lines', start: modelStart, end: modelEnd });
  return blocks;
}

/** `## Plugin Context: <id>` sections, sized by their char markers; one block if they do not parse. */
function pluginBlocks(text: string, start: number, end: number): Found[] {
  const frame = /^## Plugin Context: ([a-z0-9][a-z0-9._-]{0,127})\n<!-- hermes-plugin-section-chars:([0-9]{1,4}) -->\n\n/;
  const blocks: Found[] = [];
  let at = start + PLUGIN_START.length + 1;
  let blockStart = start;
  while (at < end) {
    const m = frame.exec(text.slice(at, Math.min(end, at + 300)));
    if (!m) return [{ kind: 'plugin-context', start, end }];
    const contentAt = at + m[0].length;
    const contentEnd = contentAt + unitOffset(text.slice(contentAt, end), Number(m[2]));
    if (text.startsWith(`\n${PLUGIN_END}`, contentEnd) && contentEnd + 1 + PLUGIN_END.length === end) {
      blocks.push({ kind: 'plugin-context', start: blockStart, end, label: m[1]! });
      return blocks;
    }
    if (!text.startsWith(`\n\n${PLUGIN_HEADING}`, contentEnd)) return [{ kind: 'plugin-context', start, end }];
    blocks.push({ kind: 'plugin-context', start: blockStart, end: contentEnd, label: m[1]! });
    at = contentEnd + 2;
    blockStart = at;
  }
  return [{ kind: 'plugin-context', start, end }];
}

/**
 * A ═-framed memory block. Its length is known from its header (`cur` characters of content, or the
 * render cap's head + marker + tail), so entries holding blank lines are measured exactly.
 */
function memoryBlock(
  text: string,
  kind: 'memory' | 'user-profile',
  label: string,
  from: number,
  limit: number,
  paraStarts: (needle: string, from?: number, to?: number) => number[],
): Found | undefined {
  const start = paraStarts(`${MEMORY_RULE}\n${label} [`, from, limit).pop();
  if (start === undefined) return undefined;
  const headerAt = start + MEMORY_RULE.length + 1;
  const headerEnd = text.indexOf('\n', headerAt);
  const header = headerEnd < 0 ? '' : text.slice(headerAt, headerEnd);
  const contentAt = headerEnd + 1 + MEMORY_RULE.length + 1;
  const m = /\[(\d+)% — ([\d,]+)\/([\d,]+) chars(?: ⚠ OVER BUDGET)?\]$/.exec(header);
  if (m && text.startsWith(`${MEMORY_RULE}\n`, headerEnd + 1)) {
    const cur = Number(m[2]!.replace(/,/g, ''));
    const max = Number(m[3]!.replace(/,/g, ''));
    const cap = Math.max(max * 2, 4000);
    let length = cur;
    if (cur > cap) {
      const head = Math.trunc(cap * 0.7);
      const tail = Math.trunc(cap * 0.2);
      const marker = `\n\n[... ${formatThousands(cur - head - tail)} chars truncated — memory over budget (${formatThousands(cur)}/${formatThousands(max)}); consolidate via memory(action=remove/replace) ...]\n\n`;
      length = head + codePointLength(marker) + tail;
    }
    const end = contentAt + unitOffset(text.slice(contentAt, Math.min(text.length, contentAt + length * 2 + 2)), length);
    if (end <= limit && (end === text.length || text.startsWith('\n\n', end))) return { kind, start, end };
  }
  // Unexpected header: up to the next ═-framed block, else the limit.
  const next = paraStarts(`${MEMORY_RULE}\n`, Math.max(contentAt, start + 1), limit)[0] ?? limit;
  return { kind, start, end: trimNewlines(text, start, next) };
}

function dedupe(found: Found[]): Found[] {
  const sorted = [...found].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Found[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) continue; // nested in (or overlapping) an earlier block
    if (f.end > f.start) out.push(f);
  }
  return out;
}

/** Blocks that open the context tier wherever they sit. */
const CONTEXT_KINDS = new Set<BlockKind>(['caller-system', 'project-context', 'git-snapshot']);
/**
 * Blocks whose tier is where they sit: the profile line and the platform hint close the stable tier
 * when the session has no workspace snapshot, follow the snapshot in the context tier when it has
 * one, and the profile line rides last in the volatile tier in builds since 2026-09-28
 * (docs/HERMES-FORMATS.md §1).
 */
const POSITIONAL_KINDS = new Set<BlockKind>(['active-profile', 'platform-hints', 'identity', 'skills-index']);

/** Tier boundaries from the markers, then filler blocks for the text between them. */
function withTiers(text: string, found: Found[], runtimeStart: number, firstMarker: number, anyMarker: boolean): Located {
  const context = found.filter((f) => CONTEXT_KINDS.has(f.kind));
  const firstContext = context[0]?.start;
  const lastContext = context[context.length - 1]?.start ?? -1;
  const skills = found.find((f) => f.kind === 'skills-index');
  const volatileMarkers = found.filter((f) => !CONTEXT_KINDS.has(f.kind) && !POSITIONAL_KINDS.has(f.kind) && f.start > lastContext);
  const nextVolatile = (from: number) => volatileMarkers.find((f) => f.start >= from)?.start ?? text.length;

  let skillsTier: TierName | undefined;
  if (skills) {
    if (firstContext !== undefined) skillsTier = skills.start < firstContext ? 'stable' : 'volatile';
    else skillsTier = pyStrip(text.slice(skills.end, nextVolatile(skills.end))) === '' ? 'volatile' : 'stable';
  }
  const volatileStarts = volatileMarkers.map((f) => f.start);
  if (skills && skillsTier === 'volatile') volatileStarts.push(skills.start);
  const volatileStart = Math.min(text.length, ...volatileStarts);
  const contextStart = firstContext !== undefined && firstContext < volatileStart ? firstContext : volatileStart;
  const tierAt = (p: number): TierName => (p < contextStart ? 'stable' : p < volatileStart ? 'context' : 'volatile');

  const blocks: LocatedBlock[] = [];
  const filler = (from: number, to: number) => {
    let a = from;
    let b = to;
    while (a < b && text[a] === '\n') a++;
    while (b > a && text[b - 1] === '\n') b--;
    if (a >= b) return;
    // A filler run crossing a tier boundary is split there, so every block sits in one tier.
    for (const cut of [contextStart, volatileStart]) {
      if (cut > a && cut < b) {
        filler(a, cut);
        filler(cut, b);
        return;
      }
    }
    const tier = tierAt(a);
    blocks.push({ kind: tier === 'stable' ? 'guidance' : 'other', start: a, end: b, tier });
  };
  let at = 0;
  for (const f of found) {
    filler(at, f.start);
    const tier = f.kind === 'skills-index' && skillsTier ? skillsTier : tierAt(f.start);
    blocks.push({ kind: f.kind, start: f.start, end: f.end, tier, ...(f.label !== undefined ? { label: f.label } : {}) });
    at = f.end;
  }
  filler(at, text.length);
  if (found.length === 0 && blocks.length === 1) blocks[0] = { ...blocks[0]!, kind: 'other' };
  return { blocks, contextStart, volatileStart, skillsTier, runtimeStart, firstMarker, anyMarker };
}
