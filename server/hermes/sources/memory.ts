// MEMORY.md and USER.md as the memory tool snapshots them into the prompt (HERMES-FORMATS §5,
// `MemoryStore.load_from_disk` / `_render_block`). The header's numbers are counted after the
// injection scan replaced any poisoned entry, exactly as Hermes counts them.
import { locateFindings, scanForInjection } from './injectionScan';
import { MEMORY_HEADER_LABEL, MEMORY_RULE, USER_HEADER_LABEL } from './literals';
import { positionsOf, lineRange } from './positions';
import { codePointLength, formatThousands, pyStrip, sliceCodePoints } from './pyText';
import { readText } from './readText';
import type { MemorySource, SourceProblem } from './types';

export const ENTRY_DELIMITER = '\n§\n';
export const DEFAULT_MEMORY_LIMIT = 2200;
export const DEFAULT_USER_LIMIT = 1375;
const MAX_SCAN_CHARS = 65_536;

export function readMemory(file: string, kind: 'memory' | 'user', limit?: number): MemorySource {
  const chars = limit ?? (kind === 'memory' ? DEFAULT_MEMORY_LIMIT : DEFAULT_USER_LIMIT);
  const fileName = kind === 'memory' ? 'MEMORY.md' : 'USER.md';
  // The memory tool reads plain `utf-8`: a BOM stays in the first entry (and the scan flags it).
  const read = readText(file, { dropBom: false });
  if (!read.ok) return { kind, path: file, entries: [], limit: chars, block: '', problems: read.missing ? [] : [read.problem] };

  const entries = splitEntries(read.text);
  const problems: SourceProblem[] = [];
  const where = positionsOf(read.text);
  const sanitized = entries.map((entry) => sanitize(entry, fileName, read.text, where, file, problems));
  const block = renderMemoryBlock(kind, sanitized, chars);
  const current = codePointLength(sanitized.join(ENTRY_DELIMITER));
  if (sanitized.length > 0 && current > chars) {
    problems.push({
      file,
      code: 'memory-over-limit',
      message:
        `${fileName} holds ${formatThousands(current)} characters, over its ${formatThousands(chars)}-character budget: ` +
        'the prompt header says OVER BUDGET' +
        (current > renderCap(chars) ? ` and only the first and last parts are shown (render cap ${formatThousands(renderCap(chars))}).` : '.'),
      range: lineRange(0),
    });
  }
  return { kind, path: file, entries, limit: chars, block, problems };
}

/** `_read_file` + dedupe: split on the exact delimiter, strip, drop empties, keep first copies. */
function splitEntries(raw: string): string[] {
  if (!pyStrip(raw)) return [];
  const entries = raw.split(ENTRY_DELIMITER).map((e) => pyStrip(e)).filter(Boolean);
  return [...new Set(entries)];
}

/** `_sanitize_entries_for_snapshot`: a poisoned or oversized entry becomes a BLOCKED line. */
function sanitize(
  entry: string,
  fileName: string,
  raw: string,
  where: ReturnType<typeof positionsOf>,
  file: string,
  problems: SourceProblem[],
): string {
  if (entry.startsWith('[BLOCKED:')) return entry;
  const size = codePointLength(entry);
  const at = raw.indexOf(entry);
  if (size > MAX_SCAN_CHARS) {
    problems.push({ file, code: 'blocked', message: `An entry of ${fileName} is too large to scan (${formatThousands(size)} characters); Hermes leaves it out of the prompt.`, ...(at >= 0 ? { range: where.range(at, at + entry.length) } : {}) });
    return `[BLOCKED: ${fileName} entry too large to scan (${formatThousands(size)} chars). Removed from system prompt; use memory(action=remove) to delete the original.]`;
  }
  const findings = scanForInjection(entry, 'strict');
  if (findings.length === 0) return entry;
  const message = `An entry of ${fileName} is replaced by a [BLOCKED: …] line in the prompt: it matches Hermes' threat patterns (${findings.join(', ')}).`;
  const located = at >= 0 ? locateFindings(entry, findings, 'strict') : [];
  if (located.length === 0) problems.push({ file, code: 'blocked', message, ...(at >= 0 ? { range: where.range(at, at + entry.length) } : {}) });
  for (const hit of located) problems.push({ file, code: 'blocked', message, range: where.range(at + hit.start, at + hit.end) });
  return `[BLOCKED: ${fileName} entry contained threat pattern(s): ${findings.join(', ')}. Removed from system prompt; use memory(action=remove) to delete the original.]`;
}

function renderCap(limit: number): number {
  return Math.max(limit * 2, 4000);
}

/** `_render_block`: the ═-framed block with its usage header; '' without entries. */
export function renderMemoryBlock(kind: 'memory' | 'user', entries: readonly string[], limit: number): string {
  if (entries.length === 0) return '';
  let content = entries.join(ENTRY_DELIMITER);
  const current = codePointLength(content);
  // Python: min(100, int((current / limit) * 100)) in floating point.
  const pct = limit > 0 ? Math.min(100, Math.trunc((current / limit) * 100)) : 0;
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
