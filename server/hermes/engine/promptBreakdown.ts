// What `hermes prompt-size` (Hermes' hermes_cli/prompt_size.py, compute_prompt_breakdown) reports
// of a prompt, worked out by the lens from a prompt's text, the profile's files and the measured
// tool-schema sizes (cost/toolSchemas.ts): the system prompt, the `<available_skills>` index,
// memory and user profile, the three tiers, the tool schemas and their toolsets by size, and each
// skill's index-line bytes beside its SKILL.md bytes. Its fields keep Hermes' names where they mean
// the same; tokens (o200k, as everywhere in the lens) and shares are ours.
import { SKILLS_CLOSE } from '../literals/containers';
import type { PromptAnatomy } from '../anatomy/types';
import type { ToolTableChoice } from '../anatomy/buildOfPrompt';
import { countTokens } from '../cost/tokens';
import { toolBlockSize, toolsetsBySize, type BuildKind } from '../cost/toolSchemas';
import type { SourceFs } from '../fs/sourceFs';
import type { SkillsIndex } from '../sources/types';
import { codePointLength } from '../text/pyText';
import path = require('node:path');

export interface Measure {
  readonly chars: number;
  readonly bytes: number;
  readonly tokens: number;
}

export interface SkillCost {
  readonly name: string;
  /** The bytes of the index that list the skill (a names-only line's shared bytes split evenly, as Hermes splits them). */
  readonly index_line_bytes: number;
  readonly index_line_total_bytes: number;
  readonly index_line_shared_bytes: number;
  readonly index_line_skill_count: number;
  /** The size of its SKILL.md on disk (what loading it costs once); null when no file of that name is found. */
  readonly skill_md_bytes: number | null;
  readonly path: string;
}

export interface ToolsetCost {
  readonly toolset: string;
  readonly tool_count: number;
  readonly json_bytes: number;
  readonly tokens: number;
}

export interface PromptBreakdown {
  readonly platform: string;
  readonly model: string;
  readonly system_prompt: Measure;
  /** Hermes' `<available_skills>` … `</available_skills>` span (the index alone, without its heading and instructions). */
  readonly skills_index: Measure;
  readonly memory: Measure;
  readonly user_profile: Measure;
  readonly tools: { readonly count: number; readonly json_bytes: number; readonly tokens: number; readonly estimated: readonly string[] };
  /** The three tiers as Hermes builds them (without the blank lines that join them), with Hermes' labels. */
  readonly sections: ReadonlyArray<Measure & { readonly label: string }>;
  readonly skills_breakdown: readonly SkillCost[];
  readonly toolsets_breakdown: readonly ToolsetCost[];
  /** Whose tool sizes (and why: cost/toolSchemas.ts) and whether state.db named the tools. */
  readonly tool_sizes: { readonly build: string; readonly kind: BuildKind; readonly by: ToolTableChoice['by']; readonly recorded: boolean };
  /** Tool schemas plus system prompt: what every request sends before the conversation, in tokens. */
  readonly prefix_tokens: number;
}

export interface BreakdownInput {
  readonly anatomy: PromptAnatomy;
  /** The platform Hermes' report names (`cli`, `telegram`, …). */
  readonly platform: string;
  readonly tools: { readonly choice: ToolTableChoice; readonly names: readonly string[]; readonly recorded: boolean; readonly source: string | undefined };
  /** Today's skills of the profile (their SKILL.md files), and what they are read through. */
  readonly skills: SkillsIndex;
  readonly fs: SourceFs;
}

const SECTION_LABELS = { stable: 'stable (identity/guidance/skills)', context: 'context (AGENTS.md/cwd files)', volatile: 'volatile (memory/profile/timestamp)' } as const;

export function promptBreakdown(input: BreakdownInput): PromptBreakdown {
  const { anatomy } = input;
  const text = anatomy.text;
  const index = availableSkills(text);
  const block = (kind: 'memory' | 'user-profile') => measure(anatomy.blocks.find((b) => b.kind === kind)?.text ?? '');
  const tools = toolBlockSize(input.tools.choice.table, input.tools.names, input.tools.source);
  const system = { chars: codePointLength(text), bytes: anatomy.bytes, tokens: anatomy.tokens };
  return {
    platform: input.platform,
    model: anatomy.model ?? '',
    system_prompt: system,
    skills_index: measure(index),
    memory: block('memory'),
    user_profile: block('user-profile'),
    tools: { count: tools.count, json_bytes: tools.bytes, tokens: tools.tokens, estimated: tools.estimated },
    sections: tierTexts(anatomy).map(([name, tier]) => ({ label: SECTION_LABELS[name], ...measure(tier) })),
    skills_breakdown: skillsBreakdown(index, input.skills, input.fs),
    toolsets_breakdown: toolsetsBySize(input.tools.choice.table, input.tools.names, input.tools.source).map((t) => ({ toolset: t.toolset, tool_count: t.toolCount, json_bytes: t.bytes, tokens: t.tokens })),
    tool_sizes: { build: input.tools.choice.table.name, kind: input.tools.choice.table.kind, by: input.tools.choice.by, recorded: input.tools.recorded },
    prefix_tokens: tools.tokens + system.tokens,
  };
}

function measure(text: string): Measure {
  return { chars: codePointLength(text), bytes: Buffer.byteLength(text, 'utf8'), tokens: text ? countTokens(text).tokens : 0 };
}

/** Hermes' `_SKILLS_BLOCK_RE`: the first `<available_skills>` … `</available_skills>` of the prompt. */
function availableSkills(text: string): string {
  const open = text.indexOf('<available_skills>');
  const close = open < 0 ? -1 : text.indexOf(SKILLS_CLOSE, open);
  return close < 0 ? '' : text.slice(open, close + SKILLS_CLOSE.length);
}

/** Each tier's text as Hermes joins it: the lens's tiers carry the blank line that follows them. */
function tierTexts(anatomy: PromptAnatomy): Array<['stable' | 'context' | 'volatile', string]> {
  return anatomy.tiers.map((t) => {
    let slice = anatomy.text.slice(t.start, t.end);
    if (t.end < anatomy.text.length && slice.endsWith('\n\n')) slice = slice.slice(0, -2);
    return [t.name, slice];
  });
}

const NAMES_ONLY_LINE = /^ {2}.+ \[names only\]: (.+)$/;

/** Each skill the prompt's index lists, with its index bytes and SKILL.md bytes (skillsBreakdown). */
export function skillCosts(anatomy: PromptAnatomy, skills: SkillsIndex, fs: SourceFs): SkillCost[] {
  return skillsBreakdown(availableSkills(anatomy.text), skills, fs);
}

/** `_compute_skills_breakdown`: each listed skill's index bytes and SKILL.md bytes, largest SKILL.md first. */
function skillsBreakdown(index: string, skills: SkillsIndex, fs: SourceFs): SkillCost[] {
  const files = skillFilesByName(skills);
  const out: SkillCost[] = [];
  const add = (name: string, attributed: number, total: number, shared: number, count: number) => {
    const file = files.get(name);
    out.push({ name, index_line_bytes: attributed, index_line_total_bytes: total, index_line_shared_bytes: shared, index_line_skill_count: count, skill_md_bytes: file === undefined ? null : sizeOf(fs, file), path: file ?? '' });
  };
  for (const line of index.split('\n')) {
    const namesOnly = NAMES_ONLY_LINE.exec(line);
    if (namesOnly) {
      const names = namesOnly[1]!.split(',').map((n) => n.trim()).filter(Boolean);
      if (names.length === 0) continue;
      const total = Buffer.byteLength(line, 'utf8');
      const own = names.map((n) => Buffer.byteLength(n, 'utf8'));
      const sharedTotal = total - own.reduce((a, b) => a + b, 0);
      const base = Math.floor(sharedTotal / names.length);
      const remainder = sharedTotal - base * names.length;
      names.forEach((name, i) => {
        const shared = base + (i < remainder ? 1 : 0);
        add(name, own[i]! + shared, total, shared, names.length);
      });
      continue;
    }
    if (!line.startsWith('    - ')) continue;
    const rest = line.slice(6);
    const at = rest.indexOf(': ');
    const name = (at < 0 ? rest : rest.slice(0, at)).trim();
    if (!name) continue;
    const bytes = Buffer.byteLength(line, 'utf8');
    add(name, bytes, bytes, 0, 1);
  }
  return out.sort((a, b) => (b.skill_md_bytes ?? 0) - (a.skill_md_bytes ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `_skill_md_paths_by_name`: each SKILL.md by its frontmatter name and its folder's name, the first one found winning. */
function skillFilesByName(skills: SkillsIndex): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of skills.entries) {
    if (!files.has(entry.name)) files.set(entry.name, entry.file);
    const folder = path.basename(path.dirname(entry.file));
    if (!files.has(folder)) files.set(folder, entry.file);
  }
  return files;
}

/** `Path.stat().st_size`, as Hermes takes it. */
function sizeOf(fs: SourceFs, file: string): number | null {
  try {
    return fs.stat(file)?.size ?? null;
  } catch {
    return null;
  }
}
