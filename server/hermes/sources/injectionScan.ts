// Hermes' prompt-injection scan (HERMES-FORMATS §3.5, `tools/threat_patterns.py`): a file or memory
// entry that matches is replaced whole by a `[BLOCKED: …]` line in the prompt. The patterns are data
// (injection-patterns.json); this module ports and runs them exactly as Hermes does.
import patternsJson from './injection-patterns.json';
import { pythonPatternToJs } from '../text/pyRegex';
import { sliceCodePoints } from '../text/pyText';
import { mayMatch, requiredLiterals, type RequiredLiterals } from '../text/requiredLiterals';

export type ScanScope = 'context' | 'strict';

interface ScanPattern {
  readonly id: string;
  /** Words every match contains: text without them skips the regex. */
  readonly required: RequiredLiterals;
  /** The regex, compiled on first use (V8 compiles a case-insensitive Unicode pattern slowly). */
  regex(): RegExp;
}

const MAX_SCAN_CHARS: number = patternsJson.maxScanChars;
const INVISIBLE = new Set(patternsJson.invisibleChars.map((hex) => String.fromCodePoint(parseInt(hex, 16))));
let patterns: Record<ScanScope, ScanPattern[]> | undefined;

/** The patterns of each scope, in list order; built on the first scan, not when the module loads. */
function scopePatterns(scope: ScanScope): ScanPattern[] {
  patterns ??= readPatterns();
  return patterns[scope];
}

function readPatterns(): Record<ScanScope, ScanPattern[]> {
  const scopes: Record<ScanScope, ScanPattern[]> = { context: [], strict: [] };
  const usedBy = patternsJson.scopesUsingPatternScope as Record<string, string[]>;
  for (const pattern of patternsJson.patterns) {
    const source = pattern.regex.replace(/\{([A-Z_]+)\}/g, (whole, name: string) => (patternsJson.macros as Record<string, string>)[name] ?? whole);
    let regex: RegExp | undefined;
    const entry: ScanPattern = { id: pattern.id, required: requiredLiterals(source), regex: () => (regex ??= new RegExp(pythonPatternToJs(source), 'iu')) };
    for (const scope of usedBy[pattern.scope] ?? []) {
      if (scope === 'context' || scope === 'strict') scopes[scope].push(entry);
    }
  }
  return scopes;
}

/**
 * Python's IGNORECASE also matches `İ` and `ı` against `i`; JS case folding does not. Mapping them
 * to `i` keeps every match and every offset the same (each is one UTF-16 unit).
 */
function foldTurkishI(text: string): string {
  return text.replace(/[\u0130\u0131]/g, 'i');
}

/**
 * `scan_for_threats(content, scope)`: invisible characters first, then pattern ids in list order.
 * Python reports the invisible ones in set order (random per process); we use code-point order.
 */
export function scanForInjection(text: string, scope: ScanScope): string[] {
  if (!text) return [];
  const content = sliceCodePoints(text, 0, MAX_SCAN_CHARS);
  const normalized = foldTurkishI(content.normalize('NFKC'));
  const lower = normalized.toLowerCase();
  const matched = scopePatterns(scope).filter((p) => mayMatch(p.required, lower) && p.regex().test(normalized));
  return [...invisibleFindings(content), ...matched.map((p) => p.id)];
}

// Any of the invisible characters: most texts hold none, and one regex test walks a text far faster than a loop per character.
const ANY_INVISIBLE = new RegExp(`[${[...INVISIBLE].map((ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`).join('')}]`, 'u');

function invisibleFindings(content: string): string[] {
  if (!ANY_INVISIBLE.test(content)) return [];
  const found = new Set<string>();
  for (const ch of content) if (INVISIBLE.has(ch)) found.add(ch);
  return [...found]
    .map((ch) => ch.codePointAt(0)!)
    .sort((a, b) => a - b)
    .map((cp) => `invisible_unicode_U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
}

/** Where a finding sits in the raw text (UTF-16 offsets), to point the user at it. */
export interface FindingLocation {
  readonly id: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Best-effort locations of the findings in the text as written. Hermes matches the NFKC form; a
 * match that only exists after normalisation (full-width letters, …) has no location here.
 */
export function locateFindings(text: string, findings: readonly string[], scope: ScanScope): FindingLocation[] {
  const scanned = foldTurkishI(sliceCodePoints(text, 0, MAX_SCAN_CHARS));
  const located: FindingLocation[] = [];
  for (const id of findings) {
    const invisible = /^invisible_unicode_U\+([0-9A-F]+)$/.exec(id);
    if (invisible) {
      const at = scanned.indexOf(String.fromCodePoint(parseInt(invisible[1]!, 16)));
      if (at >= 0) located.push({ id, start: at, end: at + 1 });
      continue;
    }
    const pattern = scopePatterns(scope).find((p) => p.id === id);
    const match = pattern ? pattern.regex().exec(scanned) : null;
    if (match) located.push({ id, start: match.index, end: match.index + match[0].length });
  }
  return located;
}

/** The problem message for a context file (or SOUL.md) that a scan blocks: what Hermes does and the fix. */
export function blockedMessage(label: string, findings: readonly string[]): string {
  return (
    `Hermes replaces the whole of ${label} with a "[BLOCKED: …]" line in the prompt: this text matches its prompt-injection ` +
    `patterns (${findings.join(', ')}). Reword or remove it so the file loads.`
  );
}

/** The text a context file (or SOUL.md) becomes when blocked (`PB._scan_context_content`). */
export function blockedContextText(label: string, findings: readonly string[]): string {
  return `[BLOCKED: ${label} contained potential prompt injection (${findings.join(', ')}). Content not loaded.]`;
}

/**
 * `PB._scan_context_content`: drops one leading BOM, then either the text itself or its BLOCKED
 * line. `findings` is empty when the text loads.
 */
export function scanContextContent(content: string, label: string): { text: string; findings: string[] } {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const findings = scanForInjection(text, 'context');
  return findings.length > 0 ? { text: blockedContextText(label, findings), findings } : { text, findings };
}
