// What one source file's text would put into a profile's sources once saved (an editor's unsaved
// buffer): the part it feeds rendered from that text, the profile's other parts as they are. The
// same renderers as a read from disk, so text that renders alike (a skill's body, blank lines
// Hermes strips) gives the very same part.
import path = require('node:path');
import type { ProfileConfig } from '../profile/config';
import { canonicalPath } from '../canonicalPath';
import { OverlayFs } from '../fs/overlayFs';
import type { SourceFs } from '../fs/sourceFs';
import type { SourceKind } from '../model';
import { analyzeMemoryText } from './memory';
import { discoverProjectContext } from './projectContext';
import { analyzeSkillText, withCategoryText, withSkillText } from './skills';
import { analyzeSoulText } from './soul';
import { contextFileCap } from './truncate';
import type { RenderedSources } from './types';

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
  /** The profile's sources today for a session cwd. */
  readonly sourcesFor: (cwd: string | undefined) => RenderedSources;
  /** What the profile's sources are read through: the edit is laid over it. */
  readonly fs: SourceFs;
}

/** The sources of a session cwd with `edit` saved: `(cwd) => RenderedSources`, memoised per cwd. */
export function sourcesWithEdit(edit: EditedFile, profile: ProfileSide): (cwd: string | undefined) => RenderedSources {
  // Editors hide a BOM; Hermes drops it too, but for the memory tool (it reads plain utf-8).
  const text = edit.kind !== 'memory' && edit.kind !== 'user' && edit.text.charCodeAt(0) === 0xfeff ? edit.text.slice(1) : edit.text;
  const own = profile.sourcesFor(undefined);
  const byCwd = new Map<string, RenderedSources>();
  let profilePart: Partial<RenderedSources> | undefined;
  return (cwd) => {
    const key = cwd ?? '';
    let sources = byCwd.get(key);
    if (!sources) {
      const today = profile.sourcesFor(cwd);
      if (edit.kind === 'project-context') {
        const projectContext = cwd ? discoverProjectContext(new OverlayFs(profile.fs, new Map([[canonicalPath(edit.file), text]])), cwd, { maxChars: contextFileCap(profile.config) }) : today.projectContext;
        sources = { ...today, projectContext };
      } else {
        profilePart ??= editedProfilePart(edit.kind, edit.file, text, profile, own);
        sources = { ...today, ...profilePart };
      }
      byCwd.set(key, sources);
    }
    return sources;
  };
}

/** The one part of the profile's own sources that a profile file feeds, rendered from `text`. */
function editedProfilePart(kind: Exclude<SourceKind, 'project-context'>, file: string, text: string, profile: ProfileSide, own: RenderedSources): Partial<RenderedSources> {
  const skillsDir = path.join(profile.dir, 'skills');
  switch (kind) {
    case 'soul':
      return { soul: analyzeSoulText(file, text, profile.dir, profile.config) };
    case 'memory':
      return { memory: analyzeMemoryText(file, text, 'memory', own.memory.limit) };
    case 'user':
      return { user: analyzeMemoryText(file, text, 'user', own.user.limit) };
    case 'skill':
      return { skills: withSkillText(own.skills, analyzeSkillText(profile.fs, skillsDir, file, text, profile.config)) };
    case 'skill-category':
      return { skills: withCategoryText(own.skills, skillsDir, file, text) };
  }
}
