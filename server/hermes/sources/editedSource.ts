// What one source file's text would put into a profile's sources once saved (an editor's unsaved
// buffer): the part it feeds rendered from that text, the profile's other parts as they are. The
// same renderers as a read from disk, so text that renders alike (a skill's body, blank lines
// Hermes strips) gives the very same part.
import path = require('node:path');
import type { ProfileConfig } from '../profile/config';
import { canonicalPath } from '../canonicalPath';
import { OverlayFs } from '../fs/overlayFs';
import type { SourceFs } from '../fs/sourceFs';
import { memo } from '../memo';
import type { SourceKind } from '../model';
import { analyzeMemoryText } from './memory';
import { discoverProjectContext } from './projectContext';
import { analyzeSkillText, skillsRootOf, withCategoryText, withSkillText, type SkillText } from './skills';
import { analyzeSoulText } from './soul';
import { contextFileCap } from './truncate';
import type { RenderedSources, SkillsIndex } from './types';

export interface EditedFile {
  readonly kind: SourceKind;
  /** Absolute path, as the profile's sources name it. */
  readonly file: string;
  /** The text as an editor shows it. */
  readonly text: string;
}

export interface ProfileSide {
  readonly dir: string;
  readonly config: ProfileConfig;
  /**
   * The profile's sources today for a session's cwd and source (its platform's skills index where
   * skills.platform_disabled applies): the analysis's own, so the edit is judged as the session is.
   */
  readonly sourcesFor: (cwd: string | undefined, source?: string) => RenderedSources;
  /** What the profile's sources are read through: the edit is laid over it. */
  readonly fs: SourceFs;
}

/**
 * The sources of a session's cwd and source with `edit` saved: `(cwd, source) => RenderedSources`,
 * memoised per sources of today (one per cwd, and per platform with its own skills index).
 */
export function sourcesWithEdit(edit: EditedFile, profile: ProfileSide): (cwd: string | undefined, source?: string) => RenderedSources {
  // Editors hide a BOM; Hermes drops it too, but for the memory tool (it reads plain utf-8).
  const text = edit.kind !== 'memory' && edit.kind !== 'user' && edit.text.charCodeAt(0) === 0xfeff ? edit.text.slice(1) : edit.text;
  const skillsDir = path.join(profile.dir, 'skills');
  const byToday = new Map<RenderedSources, RenderedSources>();
  // The text is laid into each skills index once: the cwds share the profile's, a platform with a list has its own.
  const skillsByIndex = new Map<SkillsIndex, SkillsIndex>();
  let skill: SkillText | undefined;
  const editedSkills = (index: SkillsIndex): SkillsIndex =>
    edit.kind === 'skill' ? withSkillText(index, (skill ??= analyzeSkillText(profile.fs, skillsRootOf(index, skillsDir, edit.file), edit.file, text, profile.config))) : withCategoryText(index, edit.file, text);
  let profilePart: Partial<RenderedSources> | undefined;
  return (cwd, source) => {
    const today = profile.sourcesFor(cwd, source);
    let sources = byToday.get(today);
    if (!sources) {
      if (edit.kind === 'project-context') {
        const projectContext = cwd ? discoverProjectContext(new OverlayFs(profile.fs, new Map([[canonicalPath(edit.file), text]])), cwd, { maxChars: contextFileCap(profile.config) }) : today.projectContext;
        sources = { ...today, projectContext };
      } else if (edit.kind === 'skill' || edit.kind === 'skill-category') {
        sources = { ...today, skills: memo(skillsByIndex, today.skills, editedSkills) };
      } else {
        profilePart ??= editedProfilePart(edit.kind, edit.file, text, profile, profile.sourcesFor(undefined));
        sources = { ...today, ...profilePart };
      }
      byToday.set(today, sources);
    }
    return sources;
  };
}

/** The one part of the profile's own sources that SOUL.md, MEMORY.md or USER.md feeds, rendered from `text`. */
function editedProfilePart(kind: 'soul' | 'memory' | 'user', file: string, text: string, profile: ProfileSide, own: RenderedSources): Partial<RenderedSources> {
  switch (kind) {
    case 'soul':
      return { soul: analyzeSoulText(file, text, profile.dir, profile.config) };
    case 'memory':
      return { memory: analyzeMemoryText(file, text, 'memory', own.memory.limit) };
    case 'user':
      return { user: analyzeMemoryText(file, text, 'user', own.user.limit) };
  }
}
