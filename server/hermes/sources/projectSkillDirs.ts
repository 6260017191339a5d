// The project skills folders of a session's cwd, as Hermes from 0.20.3 finds them
// (`SU.get_project_skills_dirs`, docs/HERMES-FORMATS.md §4): the nearest folder up from the cwd
// holding `.git` (64 folders at most; the user's home itself is no project) is the project root;
// only when config.yaml's `skills.trusted_project_dirs` lists it (and `skills.project_discovery`
// is not false) are its `.hermes/skills` and `.agents/skills` read, in that order, as folders
// resolved through links, the profile's own skills/ left out. Builds before 0.20.3 read none.
import os = require('node:os');
import type { SourceFs } from '../fs/sourceFs';
import { isFolder } from '../fs/readText';
import { flavourOf, samePath } from '../pathFlavour';
import type { ProfileConfig } from '../profile/config';
import { expandedEntry, resolved } from './externalSkillDirs';
import { findGitRoot, realpath } from './projectContext';

/** The folders below a project root Hermes reads skills from, in its order. */
export const PROJECT_SKILLS_SUBDIRS: ReadonlyArray<readonly string[]> = [
  ['.hermes', 'skills'],
  ['.agents', 'skills'],
];

/** `SU._PROJECT_ROOT_MAX_DEPTH`: the folders looked at for `.git`, the cwd's own included. */
const PROJECT_ROOT_MAX_DIRS = 64;

/**
 * The trusted project skills folders of a session in `cwd` of the profile at `profileDir` (none
 * without a cwd). `env` is the one `~` and `$VAR` in the trust list are expanded from, and whose
 * HOME is the user's home.
 */
export function projectSkillDirs(
  fs: SourceFs,
  config: Pick<ProfileConfig, 'trustedProjectDirs' | 'projectSkillDiscovery'>,
  cwd: string | undefined,
  profileDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  // Most profiles trust no project: nothing is looked up for them.
  if (!cwd || !config.projectSkillDiscovery || config.trustedProjectDirs.length === 0) return [];
  const root = projectRootOf(fs, cwd, env);
  if (root === undefined || !trusts(fs, config.trustedProjectDirs, root.root, root.cwd, env)) return [];
  const p = flavourOf(root.root);
  const own = resolved(fs, p.join(profileDir, 'skills'));
  const dirs: string[] = [];
  for (const sub of PROJECT_SKILLS_SUBDIRS) {
    const dir = p.join(root.root, ...sub);
    if (!isFolder(fs, dir)) continue;
    const real = resolved(fs, dir);
    if (!samePath(real, own)) dirs.push(real);
  }
  return dirs;
}

/** `SU.find_project_root` from `cwd` (resolved), with that resolved cwd; undefined outside a git checkout or at the home itself. */
function projectRootOf(fs: SourceFs, cwd: string, env: NodeJS.ProcessEnv): { root: string; cwd: string } | undefined {
  const here = realpath(fs, cwd);
  if (here === undefined) return undefined;
  const root = findGitRoot(fs, flavourOf(here), here, undefined, PROJECT_ROOT_MAX_DIRS);
  if (root === undefined) return undefined;
  const home = env.HOME ?? os.homedir();
  return home && samePath(root, resolved(fs, home)) ? undefined : { root, cwd: here };
}

/**
 * `SU.is_project_root_trusted`: some entry, expanded and resolved, is the root. `Path.resolve()`
 * takes a relative entry from the process's cwd, which is the session's own for the CLI.
 */
function trusts(fs: SourceFs, entries: readonly string[], root: string, cwd: string, env: NodeJS.ProcessEnv): boolean {
  const p = flavourOf(root);
  return entries.some((entry) => samePath(resolved(fs, p.resolve(cwd, expandedEntry(entry, env))), root));
}
