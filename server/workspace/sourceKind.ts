// What a file is to Hermes: one answer for every feature (diagnostics, hovers, lenses, actions, the
// save preview and the note after a save). A profile's own file by where it is in a watched profile
// (even one with no session), a skill only where Hermes' walk of skills/ reaches it, else a project
// context file by its name. Paths are compared as real paths: an editor may name a file through a
// link; the answer spells it as the profile's analysis does, so it matches the sources' entries.
import { canonicalPath } from '../hermes/canonicalPath';
import { flavourOf, relativeInside } from '../hermes/pathFlavour';
import type { ProfileAnalysis } from '../hermes/engine/analyzeProfile';
import { contextFileKind } from '../hermes/sources/projectContext';
import { isIndexedSkillPath } from '../hermes/sources/skillTree';
import { externalFolderOf } from '../hermes/sources/skills';

export type SourceTarget =
  | { readonly kind: 'soul' | 'memory' | 'user' | 'skill' | 'skill-category'; readonly analysis: ProfileAnalysis; readonly file: string }
  | { readonly kind: 'project-context'; readonly file: string };

/** What `file` is to Hermes among these profiles; undefined for a file that feeds no prompt. */
export function classifySource(profiles: Iterable<ProfileAnalysis>, filePath: string): SourceTarget | undefined {
  const file = canonicalPath(filePath);
  for (const analysis of profiles) {
    const dir = analysis.profile.dir;
    const rel = relativeInside(canonicalPath(dir), file);
    if (rel === undefined) {
      const external = externalSkill(analysis, file);
      if (external) return external;
      continue;
    }
    const path = flavourOf(dir);
    const own = path.join(dir, rel);
    if (rel === 'SOUL.md') return { kind: 'soul', analysis, file: own };
    if (rel === path.join('memories', 'MEMORY.md')) return { kind: 'memory', analysis, file: own };
    if (rel === path.join('memories', 'USER.md')) return { kind: 'user', analysis, file: own };
    const name = path.basename(rel);
    if ((name === 'SKILL.md' || name === 'DESCRIPTION.md') && isIndexedSkillPath(analysis.fs, path.join(dir, 'skills'), own)) {
      return { kind: name === 'SKILL.md' ? 'skill' : 'skill-category', analysis, file: own };
    }
  }
  return contextFileKind(file) ? { kind: 'project-context', file } : undefined;
}

/** A SKILL.md or DESCRIPTION.md of one of the profile's external skills folders, where Hermes' walk reaches it. */
function externalSkill(analysis: ProfileAnalysis, file: string): SourceTarget | undefined {
  const name = flavourOf(file).basename(file);
  if (name !== 'SKILL.md' && name !== 'DESCRIPTION.md') return undefined;
  const dir = externalFolderOf(analysis.sourcesFor(undefined).skills, file);
  if (dir === undefined || !isIndexedSkillPath(analysis.fs, dir, file)) return undefined;
  return { kind: name === 'SKILL.md' ? 'skill' : 'skill-category', analysis, file };
}
