// Is a stored prompt still what the sources would build today? Judged by content — what the stored
// prompt actually holds against what each source renders now — never by modification times, so a
// skill body edit (not in the prompt) leaves sessions fresh and a description edit does not.
// Reasons come per source part, so a change of one part is judged again on its own
// (engine/judgement.ts).
import path = require('node:path');
import { mayReadSessionFolderOnly } from '../anatomy/hermesProse';
import { hintIsIdentity } from '../anatomy/locate';
import type { PromptAnatomy, SkillIndexLine } from '../anatomy/types';
import { memo } from '../memo';
import { basenameOf, resolvedIn } from '../pathFlavour';
import type { ChangeKind, StaleReason } from '../model';
import { MEMORY_RULE } from '../literals/containers';
import { isParentFolderLabel } from '../sources/projectContext';
import { contextAsReadBy, overrideReadingOf, storedReadingOf } from '../sources/contextAsRead';
import { DEFAULT_IDENTITY_OPENING } from '../literals/identity';
import type { FileContribution, MemorySource, ProjectContext, RenderedSources, SkillEntry, SoulSource } from '../sources/types';

/** The parts of the sources a prompt is judged against, in the order their reasons are listed. */
export const SOURCE_PARTS = ['soul', 'skills', 'projectContext', 'memory', 'user'] as const;
export type SourcePart = (typeof SOURCE_PARTS)[number];

/**
 * Whether two lists of reasons say the same, field by field (the very same array or reason at once).
 */
export function sameReasons(a: readonly StaleReason[], b: readonly StaleReason[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y && (x.source !== y.source || x.path !== y.path || x.change !== y.change || x.detail !== y.detail)) return false;
  }
  return true;
}

/**
 * Every source whose rendering today differs from what the stored prompt holds. `skillMemo` (the
 * reasons by stored skills-index text, for these sources) spares comparing the same index with
 * today's skills once per distinct prompt: most prompts of a profile share one or two indexes.
 */
export function staleReasons(
  stored: PromptAnatomy,
  sources: RenderedSources,
  cwd: string | undefined,
  skillMemo?: Map<string, StaleReason[]>,
): StaleReason[] {
  return SOURCE_PARTS.flatMap((part) => partReasons(part, stored, sources, cwd, skillMemo));
}

/** The reasons one part of the sources gives (see staleReasons). */
export function partReasons(
  part: SourcePart,
  stored: PromptAnatomy,
  sources: RenderedSources,
  cwd: string | undefined,
  skillMemo?: Map<string, StaleReason[]>,
): readonly StaleReason[] {
  switch (part) {
    case 'soul':
      return soulReasons(stored, sources);
    case 'skills': {
      let skills = skillMemo?.get(stored.skillsIndex.text);
      if (!skills) {
        skills = skillReasons(stored, sources);
        skillMemo?.set(stored.skillsIndex.text, skills);
      }
      return skills;
    }
    case 'projectContext':
      return projectContextReasons(stored, sources, cwd);
    case 'memory':
      return memoryReasons(stored.memoryBlock, sources.memory);
    case 'user':
      return memoryReasons(stored.userBlock, sources.user);
  }
}

function soulReasons(stored: PromptAnatomy, { soul }: RenderedSources): readonly StaleReason[] {
  const storedIsDefault = stored.identity.startsWith(DEFAULT_IDENTITY_OPENING);
  return soulReasonsOf(storedIsDefault, soul, () => hintIsIdentity(stored.text, soul.block, firstBlockAfterIdentity(stored)));
}

/**
 * The SOUL.md reason of a prompt whose identity is Hermes' default one or not, where `soulIsIdentity`
 * tells whether today's SOUL.md is the prompt's whole identity (asked only when SOUL.md exists).
 */
export function soulReasonsOf(storedIsDefault: boolean, soul: SoulSource, soulIsIdentity: () => boolean): readonly StaleReason[] {
  if (!soul.exists) return storedIsDefault ? NO_REASONS : soulReason(soul.path, 'removed');
  if (soulIsIdentity()) return NO_REASONS;
  return soulReason(soul.path, storedIsDefault ? 'added' : 'changed');
}

/**
 * Where the stored prompt's first block after the identity starts (its length when none), not
 * counting the guidance paragraphs: those are what ends an identity (hintIsIdentity looks for them).
 */
export function firstBlockAfterIdentity(stored: PromptAnatomy): number {
  let at = firstBlockAfter.get(stored);
  if (at === undefined) {
    // Blocks are in the order of the text.
    at = stored.blocks.find((b) => b.kind !== 'identity' && b.kind !== 'guidance')?.start ?? stored.text.length;
    firstBlockAfter.set(stored, at);
  }
  return at;
}

// Once per anatomy: every save of SOUL.md asks it of each of a thousand prompts again, and the
// blocks' several shapes made the search a slow one.
const firstBlockAfter = new WeakMap<PromptAnatomy, number>();

const NO_REASONS: readonly StaleReason[] = [];
const SOUL_DETAIL: Readonly<Record<ChangeKind, string>> = {
  removed: 'SOUL.md is gone: the default identity will be used',
  added: 'SOUL.md now replaces the default identity',
  changed: 'persona text edited',
};
// The reason of a SOUL.md change, one array per file and kind: every prompt of a profile gives
// the same one after an edit (hundreds of them per save), and the same array is no change to send.
const soulReasonArrays = new Map<string, readonly StaleReason[]>();

function soulReason(file: string, change: ChangeKind): readonly StaleReason[] {
  return memo(soulReasonArrays, `${change}\u0000${file}`, () => [{ source: 'soul', path: file, change, detail: SOUL_DETAIL[change] }]);
}

function skillReasons(stored: PromptAnatomy, { skills, soul }: RenderedSources): StaleReason[] {
  const reasons: StaleReason[] = [];
  // `<profile>/skills`; SOUL.md's path names the profile even when no skill is left to derive it from.
  const skillsDir = path.join(path.dirname(soul.path), 'skills');
  const storedLines = new Map(stored.skillsIndex.lines.map((l) => [l.name, l]));
  const today = new Map<string, SkillEntry>();
  for (const entry of skills.entries) if (entry.visible && !today.has(entry.name)) today.set(entry.name, entry);

  for (const [name, entry] of today) {
    const line = storedLines.get(name);
    if (!line) reasons.push({ source: 'skill', path: entry.file, change: 'added', detail: name });
    // A line by name only (focus mode) carries no description to compare.
    else if ((!line.namesOnly && line.description !== entry.promptDescription) || line.category !== entry.category) {
      reasons.push({ source: 'skill', path: entry.file, change: 'changed', detail: `${name}: ${line.category !== entry.category ? 'category' : 'description'}` });
    }
  }
  for (const [name, line] of storedLines) {
    if (!today.has(name)) {
      const where = path.join(skillsDir, ...formerSkillFolder(line), 'SKILL.md');
      reasons.push({ source: 'skill', path: where, change: 'removed', detail: name });
    }
  }
  for (const [category, info] of skills.categories) {
    const was = stored.skillsIndex.categories.get(category);
    if (was !== undefined && was !== info.description && today.size > 0) {
      reasons.push({ source: 'skill-category', path: info.file, change: 'changed', detail: category });
    }
  }
  return reasons;
}

/**
 * Where a skill the index no longer lists lived, best guess from its line: a skill directly under
 * skills/ is filed under its own folder's name (so category and name match), one at the root of
 * skills/ under `general`, any other under its category's folders.
 */
function formerSkillFolder(line: SkillIndexLine): string[] {
  if (line.category === 'general') return [];
  if (line.category === line.name) return [line.name];
  return [...line.category.split('/'), line.name];
}

function projectContextReasons(stored: PromptAnatomy, { projectContext }: RenderedSources, cwd: string | undefined): StaleReason[] {
  const reasons: StaleReason[] = [];
  const storedSections = new Map(stored.projectSections.map((s) => [s.label, s.body]));
  const todayByLabel = new Map<string, FileContribution>();
  for (const file of contextAsReadBy(projectContext, stored).files) todayByLabel.set(file.label ?? basenameOf(file.path), file);
  const parentFolders = loadsParentFolders(stored);

  for (const [label, file] of todayByLabel) {
    const body = storedSections.get(label);
    if (body === undefined) {
      // Not carried because the prompt's build does not read parent folders: not the file's doing.
      if (isParentFolderLabel(label) && !parentFolders) continue;
      reasons.push({ source: 'project-context', path: file.path, change: 'added', detail: label });
    } else if (sectionBody(file) !== body.trim()) reasons.push({ source: 'project-context', path: file.path, change: 'changed', detail: label });
  }
  for (const label of storedSections.keys()) {
    if (!todayByLabel.has(label)) {
      reasons.push({ source: 'project-context', path: cwd ? resolvedIn(cwd, label) : label, change: 'removed', detail: label });
    }
  }
  return reasons;
}

/**
 * What the prompt's build does differently with the user's files, when that shows: a build that
 * reads AGENTS.md in the session's folder only (up to Hermes 0.20.0) leaves out the parent
 * folders' files that today's Hermes reads; one that reads AGENTS.override.md otherwise loads
 * other files. Undefined when nothing shows.
 */
export function buildNoteOf(stored: PromptAnatomy, sources: RenderedSources): string | undefined {
  const override = overrideNoteOf(stored, sources.projectContext);
  const parentFolders = parentFoldersNoteOf(stored, contextAsReadBy(sources.projectContext, stored));
  return override && parentFolders ? `${override}; ${parentFolders}` : (override ?? parentFolders);
}

function overrideNoteOf(stored: PromptAnatomy, today: ProjectContext): string | undefined {
  if (!today.otherReadings) return undefined;
  const overrides = today.files.filter((f) => basenameOf(f.path) === 'AGENTS.override.md').map((f) => f.label ?? f.path);
  switch (overrideReadingOf(storedReadingOf(stored))) {
    case 'ignored':
      return `it reads no AGENTS.override.md (Hermes up to 0.20.2 does not), so ${overrides.join(', ')} ${overrides.length === 1 ? 'is' : 'are'} not in its prompt`;
    case 'appended':
      return `it loads ${overrides.join(', ')} after the AGENTS chain, not instead of ${overrides.length === 1 ? "its folder's AGENTS.md" : "their folders' AGENTS.md"}`;
    case 'instead':
      return undefined;
  }
}

function parentFoldersNoteOf(stored: PromptAnatomy, projectContext: ProjectContext): string | undefined {
  if (loadsParentFolders(stored)) return undefined;
  const left = projectContext.files.map((f) => f.label ?? '').filter((label) => isParentFolderLabel(label) && !stored.projectSections.some((s) => s.label === label));
  if (left.length === 0) return undefined;
  // Without project context only the prose tells, and 0.20.1 writes the same prose yet reads parent folders.
  if (stored.projectSections.length === 0) return `its build may read AGENTS.md from the session's folder only (Hermes up to 0.20.0 does), not ${left.join(', ')}`;
  return `it reads AGENTS.md from the session's folder only, not ${left.join(', ')}`;
}

/**
 * Whether the prompt's build reads context files of parent folders, as far as the prompt shows: it
 * carries one (`../AGENTS.md`), or it carries no project context at all and its prose is not that
 * of a build reading the session's folder only (then whatever is there today is new to it).
 */
function loadsParentFolders(stored: PromptAnatomy): boolean {
  if (stored.projectSections.length === 0) return !mayReadSessionFolderOnly(stored.blocks);
  return stored.projectSections.some((s) => isParentFolderLabel(s.label));
}

/** A contribution's text without its `## label` header, as the anatomy stores section bodies. */
function sectionBody(file: FileContribution): string {
  const header = `## ${file.label}\n\n`;
  const text = file.rendered.startsWith(header) ? file.rendered.slice(header.length) : file.rendered;
  return text.trim();
}

function memoryReasons(storedBlock: string, source: MemorySource): readonly StaleReason[] {
  // The entries are the input; the header's wording and figures are Hermes' rendering of them.
  return memoryReasonsOf(memoryEntries(storedBlock) === memoryEntries(source.block), storedBlock === '', source);
}

/** The reasons of a memory file, given whether the prompt holds its entries of today and whether it holds no block of it. */
export function memoryReasonsOf(sameEntries: boolean, storedEmpty: boolean, source: MemorySource): readonly StaleReason[] {
  if (sameEntries) return NO_REASONS;
  const change = storedEmpty ? 'added' : source.block === '' ? 'removed' : 'changed';
  const what = source.kind === 'memory' ? 'MEMORY.md entries' : 'USER.md entries';
  return [{ source: source.kind, path: source.path, change, detail: what }];
}

/** A ═-framed block's content: what follows its header and second rule ('' for no block). */
export function memoryEntries(block: string): string {
  const trimmed = block.trim();
  const second = trimmed.indexOf(`\n${MEMORY_RULE}\n`);
  return second < 0 ? trimmed : trimmed.slice(second + MEMORY_RULE.length + 2);
}
