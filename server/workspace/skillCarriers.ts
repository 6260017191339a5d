// Which live sessions of a profile a SKILL.md feeds where a trusted project takes part
// (sources/projectSkillDirs.ts): a project's skill feeds the sessions in that project whose build
// lists project skills (Hermes from 0.20.3), and a profile's skill of the same name is left out of
// theirs; every other session takes the profile's index as it is (skillsAsRead.ts).
import type { ProfileAnalysis } from '../hermes/engine/analyzeProfile';
import type { SessionReport } from '../hermes/engine/types';
import { projectFolderOf } from '../hermes/sources/skills';
import { skillsAsReadBy } from '../hermes/sources/skillsAsRead';
import type { SkillsIndex } from '../hermes/sources/types';

export interface SkillCarriers {
  /** The sessions whose prompt's build lists the file (as it does today). */
  readonly sessions: readonly SessionReport[];
  /** Sessions in its project started by a build that lists no project skills (a project's file only). */
  readonly notLoadedByTheirBuild: number;
}

/** The sessions among `live` that `file` (a project's skill when `projectIndex` is given) feeds. */
export function skillCarriers(analysis: ProfileAnalysis, file: string, live: readonly SessionReport[], projectIndex: SkillsIndex | undefined): SkillCarriers {
  if (analysis.config.trustedProjectDirs.length === 0) return { sessions: live, notLoadedByTheirBuild: 0 };
  const sessions: SessionReport[] = [];
  let notLoadedByTheirBuild = 0;
  const dir = projectIndex && projectFolderOf(projectIndex, file);
  for (const session of live) {
    const today = analysis.sourcesFor(session.cwd, session.source).skills;
    if (dir !== undefined && !today.projectDirs?.includes(dir)) continue;
    if (!today.withoutProject) {
      sessions.push(session);
      continue;
    }
    // A prompt not at hand is taken to list them as today's Hermes does.
    const stored = analysis.anatomyOf(session.id);
    const read = stored ? skillsAsReadBy(today, stored) : today;
    if (dir !== undefined) {
      if (read === today) sessions.push(session);
      else notLoadedByTheirBuild++;
    } else if (!shadowedByProject(read, today.withoutProject, file)) {
      sessions.push(session);
    }
  }
  return { sessions, notLoadedByTheirBuild };
}

/** A profile's skill the index lists but a project skill of its name leaves out. */
function shadowedByProject(read: SkillsIndex, own: SkillsIndex, file: string): boolean {
  return read !== own && !read.entries.find((e) => e.file === file)?.visible && own.entries.find((e) => e.file === file)?.visible === true;
}
