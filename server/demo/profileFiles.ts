// Writing the instruction files of a Hermes profile (docs/HERMES-HOMES.md, docs/HERMES-FORMATS.md) the way a user or Hermes leaves
// them on disk: config.yaml, SOUL.md, skills with YAML frontmatter, category DESCRIPTION.md files,
// and the `§`-separated memory files.
import fs = require('node:fs');
import path = require('node:path');
import { yamlLibrary } from '../hermes/text/yamlLibrary';

/** Hermes' memory entry delimiter (HERMES-FORMATS §5). */
export const MEMORY_ENTRY_DELIMITER = '\n§\n';

export function writeText(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, 'utf8');
  return file;
}

export function writeConfig(profileDir: string, config: Readonly<Record<string, unknown>> | string): string {
  const text = typeof config === 'string' ? config : yamlLibrary().stringify(config);
  return writeText(path.join(profileDir, 'config.yaml'), text);
}

export function writeSoul(profileDir: string, text: string): string {
  return writeText(path.join(profileDir, 'SOUL.md'), text);
}

export interface SkillSpec {
  /** Folder path under `skills/` (`devops`, `research/papers`); omitted = directly under `skills/`. */
  readonly category?: string;
  /** Frontmatter `name`. */
  readonly name: string;
  /** The skill's directory name; defaults to `name`. */
  readonly dirName?: string;
  readonly description: string;
  readonly platforms?: readonly string[];
  /** The instructions after the frontmatter (never part of the prompt). */
  readonly body?: string;
}

export function skillFile(profileDir: string, spec: Pick<SkillSpec, 'category' | 'name' | 'dirName'>): string {
  const parts = [profileDir, 'skills', ...(spec.category ? spec.category.split('/') : []), spec.dirName ?? spec.name, 'SKILL.md'];
  return path.join(...parts);
}

export function renderSkill(spec: SkillSpec): string {
  const front: Record<string, unknown> = { name: spec.name, description: spec.description };
  if (spec.platforms) front.platforms = [...spec.platforms];
  const body = spec.body ?? `# ${spec.name}\n\nSteps for ${spec.name}.\n`;
  return `---\n${yamlLibrary().stringify(front)}---\n\n${body}`;
}

export function writeSkill(profileDir: string, spec: SkillSpec): string {
  return writeText(skillFile(profileDir, spec), renderSkill(spec));
}

/** A category's description lives in the frontmatter of its `DESCRIPTION.md`. */
export function writeCategoryDescription(profileDir: string, category: string, description: string): string {
  const file = path.join(profileDir, 'skills', ...category.split('/'), 'DESCRIPTION.md');
  return writeText(file, `---\n${yamlLibrary().stringify({ description })}---\n\nSkills for ${category}.\n`);
}

export function writeMemoryFile(profileDir: string, kind: 'memory' | 'user', entries: readonly string[]): string {
  const file = path.join(profileDir, 'memories', kind === 'memory' ? 'MEMORY.md' : 'USER.md');
  return writeText(file, entries.join(MEMORY_ENTRY_DELIMITER));
}
