// The inner structure of two blocks: the project context's `## <label>` sections and the skills
// index's lines. Only labels Hermes can write count as section headers, so a `## Setup` heading
// inside an AGENTS.md stays part of its section.
import { PROJECT_CONTEXT_PREFIX, SKILLS_CLOSE, SKILLS_OPEN } from '../literals/containers';
import type { ProjectSection, SkillIndexLine } from './types';

/** Labels of HERMES-FORMATS §3.2 (plus SOUL.md, which Hermes appends in a rare case). */
const CONTEXT_LABEL =
  /^(?:\.hermes\.md|HERMES\.md|(?:\.\.[\\/])*(?:AGENTS\.override\.md|AGENTS\.md|agents\.md)|CLAUDE\.md|claude\.md|\.cursorrules|\.cursor\/rules\/[^\n]+\.mdc|SOUL\.md)$/;

export function isContextLabel(label: string): boolean {
  return CONTEXT_LABEL.test(label);
}

/** Sections of the project context block at [start, end) of `text`; offsets are into `text`. */
export function projectSections(text: string, start: number, end: number): ProjectSection[] {
  const bodyStart = text.startsWith(PROJECT_CONTEXT_PREFIX, start) ? start + PROJECT_CONTEXT_PREFIX.length : afterFirstParagraphs(text, start, end);
  const headers: Array<{ label: string; at: number; bodyAt: number }> = [];
  for (let at = bodyStart; at < end; ) {
    const lineEnd = indexOrEnd(text, '\n', at, end);
    const line = text.slice(at, lineEnd);
    if (line.startsWith('## ') && text.startsWith('\n\n', lineEnd) && lineEnd + 2 <= end) {
      const label = line.slice(3);
      const afterBlank = at === bodyStart || (text[at - 1] === '\n' && text[at - 2] === '\n');
      if (isContextLabel(label) && (afterBlank || (label === 'SOUL.md' && text[at - 1] === '\n'))) {
        headers.push({ label, at, bodyAt: lineEnd + 2 });
      }
    }
    at = lineEnd + 1;
  }
  return headers.map((h, i) => {
    let bodyEnd = i + 1 < headers.length ? headers[i + 1]!.at : end;
    while (bodyEnd > h.bodyAt && text[bodyEnd - 1] === '\n') bodyEnd--;
    return { label: h.label, body: text.slice(h.bodyAt, bodyEnd), start: h.at, end: bodyEnd };
  });
}

/** Without the exact container text, sections start after the heading and its first paragraph. */
function afterFirstParagraphs(text: string, start: number, end: number): number {
  const heading = indexOrEnd(text, '\n\n', start, end);
  const intro = indexOrEnd(text, '\n\n', Math.min(end, heading + 2), end);
  return Math.min(end, intro + 2);
}

function indexOrEnd(text: string, needle: string, from: number, end: number): number {
  const at = text.indexOf(needle, from);
  return at < 0 || at > end ? end : at;
}

type IndexLines = { lines: SkillIndexLine[]; categories: Map<string, string> };

// Hundreds of stored prompts of a profile carry one of a few skills indexes: parse each once and share
// the (read-only) result, instead of holding a thousand line objects per prompt.
const recentIndexes = new Map<string, IndexLines>();
const RECENT_INDEXES = 16;

/**
 * The lines between `<available_skills>` and `</available_skills>`, and the category descriptions.
 * The result may be shared between calls with the same block: do not change it.
 */
export function skillIndexLines(block: string): IndexLines {
  const hit = recentIndexes.get(block);
  if (hit) return hit;
  const parsed = parseIndexLines(block);
  if (recentIndexes.size >= RECENT_INDEXES) recentIndexes.delete(recentIndexes.keys().next().value!);
  recentIndexes.set(block, parsed);
  return parsed;
}

function parseIndexLines(block: string): IndexLines {
  const lines: SkillIndexLine[] = [];
  const categories = new Map<string, string>();
  const open = block.indexOf(SKILLS_OPEN);
  if (open < 0) return { lines, categories };
  const close = block.indexOf(SKILLS_CLOSE, open);
  const body = block.slice(open + SKILLS_OPEN.length, close < 0 ? block.length : close);
  let category = '';
  for (const line of body.split('\n')) {
    if (line.startsWith('    - ')) {
      const [name, description] = splitOnce(line.slice(6));
      lines.push({ category, name, description });
    } else if (line.startsWith('  ') && !line.startsWith('   ')) {
      const namesOnly = /^ {2}(.+?) \[names only\]: (.*)$/.exec(line);
      if (namesOnly) {
        category = namesOnly[1]!;
        for (const name of namesOnly[2]!.split(', ').filter(Boolean)) lines.push({ category, name, description: '', namesOnly: true });
        continue;
      }
      const [cat, description] = splitOnce(line.slice(2));
      category = cat;
      categories.set(category, description);
    }
  }
  return { lines, categories };
}

/** `name: description` split at the first `": "`; no separator → no description. */
function splitOnce(text: string): [string, string] {
  const at = text.indexOf(': ');
  return at < 0 ? [text.endsWith(':') ? text.slice(0, -1) : text, ''] : [text.slice(0, at), text.slice(at + 2)];
}
