// A stored prompt as a map of where each part comes from: every block of the anatomy (each project
// context file a part of its own) with the file it was rendered from and the line its text starts
// at, its size and share of the prompt, and the stale reasons that concern it. What the prompt
// anatomy view draws; it carries no prompt text, only labels, sizes and paths.
import path = require('node:path');
import type { PromptAnatomy, PromptBlock, SkillIndexLine } from '../anatomy/types';
import { countTokens } from '../cost/tokens';
import type { BlockKind, StaleReason, TierName } from '../model';
import { memoryEntries } from './staleness';
import { basenameOf, flavourOf, resolvedIn } from '../pathFlavour';
import { frontmatterValueSpan } from '../text/frontmatter';
import { positionsOf } from '../text/positions';
import { readText } from '../fs/readText';
import type { SourceFs } from '../fs/sourceFs';
import { DEFAULT_IDENTITY_OPENING } from '../literals/identity';
import type { RenderedSources, SkillEntry } from '../sources/types';

/** Where a part's text comes from: a file, a folder (the skills index), config.yaml, or Hermes itself. */
export type PartOrigin = 'file' | 'folder' | 'config' | 'hermes';

/** The words for a part of Hermes' own making. */
export const HERMES_TEXT = "Hermes' own text";

export interface PromptPart {
  readonly kind: BlockKind;
  readonly tier: TierName;
  /** The source's name: `SOUL.md`, a context file's label, `skills/`, `MEMORY.md`, or HERMES_TEXT. */
  readonly label: string;
  readonly origin: PartOrigin;
  /** Absolute path of the file or folder; undefined for Hermes' own text. */
  readonly path: string | undefined;
  /** 0-based line where the part's text starts in the file, when it can be found there. */
  readonly line: number | undefined;
  /** UTF-16 offsets into the stored prompt, [start, end). */
  readonly start: number;
  readonly end: number;
  readonly bytes: number;
  readonly tokens: number;
  /** Share of the prompt's tokens in tenths of a percent; the parts' shares add up to 1000. */
  readonly shareTenths: number;
  /** The reasons the session is stale that concern this part. */
  readonly stale: readonly StaleReason[];
  /** For the skills index: its lines, each with the SKILL.md it comes from. */
  readonly entries: readonly PromptPartEntry[];
}

export interface PromptPartEntry {
  readonly name: string;
  readonly category: string;
  /** The SKILL.md today's skills give for the line; undefined when none does. */
  readonly path: string | undefined;
  /** 0-based line of its `description:`. */
  readonly line: number | undefined;
  readonly stale: StaleReason | undefined;
}

export interface PromptMap {
  readonly bytes: number;
  readonly tokens: number;
  readonly tiers: ReadonlyArray<{ readonly name: TierName; readonly bytes: number; readonly tokens: number; readonly shareTenths: number }>;
  /** In the order of the prompt. */
  readonly parts: readonly PromptPart[];
  /** Stale reasons of files this prompt does not carry (a context file or memory added since). */
  readonly unplaced: readonly StaleReason[];
}

export interface PromptMapInput {
  readonly anatomy: PromptAnatomy;
  /** The session's stale reasons. */
  readonly reasons: readonly StaleReason[];
  /** The sources as they render today for the session's cwd. */
  readonly sources: RenderedSources;
  readonly profileDir: string;
  readonly cwd: string | undefined;
  /** What the files are read through for the lines parts start at (the analysis's fs). */
  readonly fs: SourceFs;
}

type EntryDraft = Omit<PromptPartEntry, 'stale'>;
type Draft = Omit<PromptPart, 'shareTenths' | 'stale' | 'entries'> & { entries?: readonly EntryDraft[] };

export function promptMap(input: PromptMapInput): PromptMap {
  const lines = new FileLines(input.fs);
  const drafts = input.anatomy.blocks.flatMap((block) => partsOf(block, input, lines));
  const shares = sharesInTenths(drafts.map((d) => d.tokens));
  const placed = new Set<StaleReason>();
  const parts = drafts.map((d, i): PromptPart => {
    const stale = input.reasons.filter((r) => concerns(d, r));
    for (const r of stale) placed.add(r);
    const entries = (d.entries ?? []).map((e) => ({ ...e, stale: input.reasons.find((r) => r.source === 'skill' && concernsSkill(e, r)) }));
    return { ...d, shareTenths: shares[i]!, stale, entries };
  });
  const tierShares = sharesInTenths(input.anatomy.tiers.map((t) => t.tokens));
  return {
    bytes: input.anatomy.bytes,
    tokens: input.anatomy.tokens,
    tiers: input.anatomy.tiers.map((t, i) => ({ name: t.name, bytes: t.bytes, tokens: t.tokens, shareTenths: tierShares[i]! })),
    parts,
    unplaced: input.reasons.filter((r) => !placed.has(r)),
  };
}

/**
 * Shares of a whole in tenths of a percent that add up to exactly 1000 (largest remainder), or all
 * 0 when the whole is 0.
 */
export function sharesInTenths(sizes: readonly number[]): number[] {
  const total = sizes.reduce((n, s) => n + Math.max(0, s), 0);
  if (total <= 0) return sizes.map(() => 0);
  const exact = sizes.map((s) => (Math.max(0, s) * 1000) / total);
  const shares = exact.map(Math.floor);
  let left = 1000 - shares.reduce((n, s) => n + s, 0);
  const byRemainder = exact.map((x, i) => ({ i, rest: x - shares[i]! })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

function partsOf(block: PromptBlock, input: PromptMapInput, lines: FileLines): Draft[] {
  const { anatomy, sources, profileDir } = input;
  const base = { kind: block.kind, tier: block.tier, start: block.start, end: block.end, bytes: block.bytes, tokens: block.tokens };
  const hermes: Draft = { ...base, label: HERMES_TEXT, origin: 'hermes', path: undefined, line: undefined };
  switch (block.kind) {
    case 'identity': {
      if (block.text.startsWith(DEFAULT_IDENTITY_OPENING)) return [hermes];
      const file = sources.soul.path;
      return [{ ...base, label: 'SOUL.md', origin: 'file', path: file, line: lines.lineOf(file, block.text) }];
    }
    case 'project-context':
      return projectParts(block, input, lines);
    case 'skills-index': {
      const entries = anatomy.skillsIndex.lines.map((l) => skillEntry(l, sources.skills.entries, lines));
      return [{ ...base, label: 'skills/', origin: 'folder', path: path.join(profileDir, 'skills'), line: undefined, entries }];
    }
    case 'memory':
    case 'user-profile': {
      const source = block.kind === 'memory' ? sources.memory : sources.user;
      return [{ ...base, label: path.basename(source.path), origin: 'file', path: source.path, line: lines.lineOf(source.path, memoryEntries(block.text)) }];
    }
    case 'caller-system': {
      const file = path.join(profileDir, 'config.yaml');
      return [{ ...base, label: 'config.yaml', origin: 'config', path: file, line: lines.lineMatching(file, /^\s*system_prompt\s*:/) }];
    }
    default:
      return [hermes];
  }
}

/** The project context block: Hermes' heading, then one part per `## <label>` file section. */
function projectParts(block: PromptBlock, { anatomy, sources, cwd }: PromptMapInput, lines: FileLines): Draft[] {
  const sections = anatomy.projectSections.filter((s) => s.start >= block.start && s.end <= block.end);
  const whole: Draft = { kind: block.kind, tier: block.tier, start: block.start, end: block.end, bytes: block.bytes, tokens: block.tokens, label: HERMES_TEXT, origin: 'hermes', path: undefined, line: undefined };
  if (sections.length === 0) return [whole];
  const parts: Draft[] = [];
  const headingEnd = trimNewlines(anatomy.text, block.start, sections[0]!.start);
  if (headingEnd > block.start) parts.push(sized({ ...whole, end: headingEnd }, anatomy.text));
  const today = new Map(sources.projectContext.files.map((f) => [f.label ?? basenameOf(f.path), f.path]));
  for (const s of sections) {
    const file = today.get(s.label) ?? (cwd ? resolvedIn(cwd, s.label) : undefined);
    parts.push(sized({ ...whole, start: s.start, end: s.end, label: s.label, origin: 'file', path: file, line: file ? lines.lineOf(file, s.body) : undefined }, anatomy.text));
  }
  return parts;
}

/** A part's bytes and tokens from its span of the prompt. */
function sized(d: Draft, text: string): Draft {
  const slice = text.slice(d.start, d.end);
  return { ...d, bytes: Buffer.byteLength(slice, 'utf8'), tokens: countTokens(slice).tokens };
}

function trimNewlines(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && text[e - 1] === '\n') e--;
  return e;
}

function skillEntry(line: SkillIndexLine, today: readonly SkillEntry[], lines: FileLines): EntryDraft {
  const entry = today.find((e) => e.visible && e.name === line.name && e.category === line.category) ?? today.find((e) => e.visible && e.name === line.name);
  const file = entry?.file;
  return { name: line.name, category: line.category, path: file, line: file ? lines.descriptionLine(file) : undefined };
}

function concerns(part: Draft, r: StaleReason): boolean {
  switch (r.source) {
    case 'soul':
      return part.kind === 'identity';
    case 'skill':
    case 'skill-category':
      return part.kind === 'skills-index';
    case 'memory':
      return part.kind === 'memory';
    case 'user':
      return part.kind === 'user-profile';
    case 'project-context':
      // The section of the reason's file; without a session cwd, a removed file is named by its label.
      return part.kind === 'project-context' && part.origin === 'file' && (part.path === r.path || (part.path === undefined && part.label === r.detail));
  }
}

/** A skill reason names its skill by path (changed) or by name (`name`, `name: description`). */
function concernsSkill(entry: EntryDraft, r: StaleReason): boolean {
  return (entry.path !== undefined && r.path === entry.path) || r.detail === entry.name || r.detail.startsWith(`${entry.name}: `);
}

/** Files read once per map, for the lines parts start at. */
class FileLines {
  private readonly texts = new Map<string, string | undefined>();

  constructor(private readonly fs: SourceFs) {}

  private text(file: string): string | undefined {
    if (!this.texts.has(file)) {
      const read = flavourOf(file).isAbsolute(file) ? readText(this.fs, file, { dropBom: true }) : undefined;
      this.texts.set(file, read?.ok ? read.text : undefined);
    }
    return this.texts.get(file);
  }

  /** The line of `file` that holds the first non-blank line of `stored` (as the prompt carries it). */
  lineOf(file: string, stored: string): number | undefined {
    const first = stored.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
    return first === undefined ? undefined : this.lineMatching(file, (l) => l.trim() === first);
  }

  lineMatching(file: string, test: RegExp | ((line: string) => boolean)): number | undefined {
    const text = this.text(file);
    if (text === undefined) return undefined;
    const ok = typeof test === 'function' ? test : (l: string) => test.test(l);
    const at = text.split(/\r\n|\n|\r/).findIndex(ok);
    return at < 0 ? undefined : at;
  }

  /** The line of a SKILL.md's `description:`. */
  descriptionLine(file: string): number | undefined {
    const text = this.text(file);
    const span = text === undefined ? undefined : frontmatterValueSpan(text, 'description');
    return span ? positionsOf(text!).range(span.start, span.end).startLine : undefined;
  }
}
