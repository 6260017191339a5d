// MEMORY.md and USER.md as the memory tool snapshots them into the prompt (HERMES-FORMATS §5,
// `MemoryStore.load_from_disk` / `_render_block`). The header's numbers are counted after the
// injection scan replaced any poisoned entry, exactly as Hermes counts them.
import { locateFindings, scanForInjection } from './injectionScan';
import { MEMORY_HEADER_LABEL, MEMORY_RULE, USER_HEADER_LABEL } from '../literals/containers';
import { positionsOf } from '../text/positions';
import { codePointLength, formatThousands, pyLstrip, pyStrip, sliceCodePoints, unitOffset } from '../text/pyText';
import { readText } from '../fs/readText';
import type { SourceFs } from '../fs/sourceFs';
import type { MemorySource, SourceProblem } from './types';

export const ENTRY_DELIMITER = '\n§\n';
export const DEFAULT_MEMORY_LIMIT = 2200;
export const DEFAULT_USER_LIMIT = 1375;
const MAX_SCAN_CHARS = 65_536;

export function readMemory(fs: SourceFs, file: string, kind: 'memory' | 'user', limit?: number): MemorySource {
  // The memory tool reads plain `utf-8`: a BOM stays in the first entry (and the scan flags it).
  const read = readText(fs, file, { dropBom: false });
  if (!read.ok) return { kind, path: file, entries: [], limit: limitOf(kind, limit), block: '', problems: read.missing ? [] : [read.problem] };
  return analyzeMemoryText(file, read.text, kind, limit);
}

function limitOf(kind: 'memory' | 'user', limit: number | undefined): number {
  return limit ?? (kind === 'memory' ? DEFAULT_MEMORY_LIMIT : DEFAULT_USER_LIMIT);
}

/**
 * MEMORY.md or USER.md from its text (e.g. an unsaved buffer): its entries, the block it puts into
 * the prompt and the problems of that text, with ranges in `text`.
 */
export function analyzeMemoryText(file: string, text: string, kind: 'memory' | 'user', limit?: number): MemorySource {
  const chars = limitOf(kind, limit);
  const fileName = kind === 'memory' ? 'MEMORY.md' : 'USER.md';
  const located = splitEntries(text);
  const problems: SourceProblem[] = [];
  const where = positionsOf(text);
  const sanitized = located.map((entry) => sanitize(entry, fileName, where, file, problems));
  const block = renderMemoryBlock(kind, sanitized, chars);
  const current = codePointLength(sanitized.join(ENTRY_DELIMITER));
  if (sanitized.length > 0 && current > chars) {
    const over = overLimitSpan(located, sanitized, chars);
    const header = `${kind === 'user' ? USER_HEADER_LABEL : MEMORY_HEADER_LABEL} [${pctOf(current, chars)}% — ${formatThousands(current)}/${formatThousands(chars)} chars ⚠ OVER BUDGET]`;
    problems.push({
      file,
      code: 'memory-over-limit',
      message:
        `${fileName} holds ${formatThousands(current)} characters as Hermes counts them (entries joined by "\\n§\\n"), over its ` +
        `${formatThousands(chars)}-character limit; the marked entries are past the limit. The prompt header reads "${header}"` +
        (current > renderCap(chars)
          ? `, and past the render cap of ${formatThousands(renderCap(chars))} characters Hermes shows only the first and last parts of the entries.`
          : '.') +
        ` Remove or shorten entries (memory(action=remove/replace)) to get under ${formatThousands(chars)} characters.`,
      range: where.range(over.start, over.end),
    });
  }
  return { kind, path: file, entries: located.map((e) => e.text), limit: chars, block, problems };
}

interface LocatedEntry {
  readonly text: string;
  /** UTF-16 offset of the stripped entry in the file's text. */
  readonly at: number;
}

/** `_read_file` + dedupe: split on the exact delimiter, strip, drop empties, keep first copies. */
function splitEntries(raw: string): LocatedEntry[] {
  if (!pyStrip(raw)) return [];
  const seen = new Set<string>();
  const entries: LocatedEntry[] = [];
  let from = 0;
  for (const piece of raw.split(ENTRY_DELIMITER)) {
    const text = pyStrip(piece);
    if (text && !seen.has(text)) {
      seen.add(text);
      entries.push({ text, at: from + (piece.length - pyLstrip(piece).length) });
    }
    from += piece.length + ENTRY_DELIMITER.length;
  }
  return entries;
}

/** Where the joined entries pass `limit`: from that character to the end of the last entry. */
function overLimitSpan(located: readonly LocatedEntry[], sanitized: readonly string[], limit: number): { start: number; end: number } {
  const last = located[located.length - 1]!;
  const end = last.at + last.text.length;
  let count = 0;
  for (let i = 0; i < sanitized.length; i++) {
    if (i > 0) count += ENTRY_DELIMITER.length;
    const entry = located[i]!;
    const size = codePointLength(sanitized[i]!);
    if (count + size > limit) {
      // Inside an entry that loads as written, the exact character; a BLOCKED one counts as a whole.
      const inside = count < limit && sanitized[i] === entry.text ? unitOffset(entry.text, limit - count) : 0;
      return { start: entry.at + inside, end };
    }
    count += size;
  }
  return { start: last.at, end };
}

/** `_sanitize_entries_for_snapshot`: a poisoned or oversized entry becomes a BLOCKED line. */
function sanitize(entry: LocatedEntry, fileName: string, where: ReturnType<typeof positionsOf>, file: string, problems: SourceProblem[]): string {
  const { text, at } = entry;
  if (text.startsWith('[BLOCKED:')) return text;
  const size = codePointLength(text);
  const whole = where.range(at, at + text.length);
  if (size > MAX_SCAN_CHARS) {
    problems.push({
      file,
      code: 'blocked',
      message: `Hermes leaves this entry of ${fileName} out of the prompt: it is too large to scan (${formatThousands(size)} characters, at most ${formatThousands(MAX_SCAN_CHARS)}). Split or shorten it.`,
      range: whole,
    });
    return `[BLOCKED: ${fileName} entry too large to scan (${formatThousands(size)} chars). Removed from system prompt; use memory(action=remove) to delete the original.]`;
  }
  const findings = scanForInjection(text, 'strict');
  if (findings.length === 0) return text;
  const message =
    `Hermes replaces this entry of ${fileName} with a "[BLOCKED: …]" line in the prompt: it matches its threat patterns ` +
    `(${findings.join(', ')}). Reword or remove the entry (memory(action=remove)).`;
  const hits = locateFindings(text, findings, 'strict');
  if (hits.length === 0) problems.push({ file, code: 'blocked', message, range: whole });
  for (const hit of hits) problems.push({ file, code: 'blocked', message, range: where.range(at + hit.start, at + hit.end) });
  return `[BLOCKED: ${fileName} entry contained threat pattern(s): ${findings.join(', ')}. Removed from system prompt; use memory(action=remove) to delete the original.]`;
}

/** Python: min(100, int((current / limit) * 100)) in floating point. */
function pctOf(current: number, limit: number): number {
  return limit > 0 ? Math.min(100, Math.trunc((current / limit) * 100)) : 0;
}

function renderCap(limit: number): number {
  return Math.max(limit * 2, 4000);
}

/** `_render_block`: the ═-framed block with its usage header; '' without entries. */
export function renderMemoryBlock(kind: 'memory' | 'user', entries: readonly string[], limit: number): string {
  if (entries.length === 0) return '';
  let content = entries.join(ENTRY_DELIMITER);
  const current = codePointLength(content);
  const pct = pctOf(current, limit);
  const cap = renderCap(limit);
  if (current > cap) {
    const head = Math.trunc(cap * 0.7);
    const tail = Math.trunc(cap * 0.2);
    const omitted = current - head - tail;
    content =
      sliceCodePoints(content, 0, head) +
      `\n\n[... ${formatThousands(omitted)} chars truncated — memory over budget ` +
      `(${formatThousands(current)}/${formatThousands(limit)}); consolidate via memory(action=remove/replace) ...]\n\n` +
      sliceCodePoints(content, -tail);
  }
  const over = current > limit ? ' ⚠ OVER BUDGET' : '';
  const label = kind === 'user' ? USER_HEADER_LABEL : MEMORY_HEADER_LABEL;
  const header = `${label} [${pct}% — ${formatThousands(current)}/${formatThousands(limit)} chars${over}]`;
  return `${MEMORY_RULE}\n${header}\n${MEMORY_RULE}\n${content}`;
}
