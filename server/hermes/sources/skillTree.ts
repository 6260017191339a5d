// Skill discovery as `SU.iter_skill_index_files` walks it: symlinks followed, excluded and support
// directories pruned, the `_org/` mirror limited to the active org, results sorted by path in
// Python's (code-point) order. Unlike Python's os.walk we stop at symlink loops.
import path = require('node:path');
import { pyStrip, sortByCodePoints } from '../text/pyText';
import { utf8Of, type DirEntry, type SourceFs } from '../fs/sourceFs';

const EXCLUDED_DIRS = new Set([
  '.git', '.github', '.hub', '.archive', '.venv', 'venv', 'node_modules', 'site-packages', '__pycache__',
  '.tox', '.nox', '.pytest_cache', '.mypy_cache', '.ruff_cache',
]);
/** Directories inside a skill that hold its supporting files, never other skills. */
const SUPPORT_DIRS = new Set(['references', 'templates', 'assets', 'scripts']);
export const ORG_MIRROR_DIR = '_org';

/** The org whose mirror may load (`_org/.active_org`), or undefined: then no org skill loads. */
export function activeOrgId(fs: SourceFs, skillsDir: string): string | undefined {
  try {
    return pyStrip(utf8Of(fs.read(path.join(skillsDir, ORG_MIRROR_DIR, '.active_org')))) || undefined;
  } catch {
    return undefined;
  }
}

/** The SKILL.md and DESCRIPTION.md files of a skills tree, each list sorted as Hermes sorts it. */
export interface SkillFiles {
  readonly skills: string[];
  readonly descriptions: string[];
}

/**
 * Every SKILL.md and DESCRIPTION.md under `skillsDir`. Hermes walks the tree once for each name
 * with the same pruning; one walk finds both. The paths start with `path.resolve(skillsRoot)` and
 * add one name per folder, so they are normalized (what `path.join` would make of them).
 */
export function findSkillFiles(fs: SourceFs, skillsRoot: string): SkillFiles {
  const skillsDir = path.resolve(skillsRoot);
  const activeOrg = activeOrgId(fs, skillsDir);
  const orgRoot = path.join(skillsDir, ORG_MIRROR_DIR);
  const found: SkillFiles = { skills: [], descriptions: [] };
  // The real paths of the folders being walked, for loop detection. A plain subdirectory's real
  // path is its parent's plus its name, so realpath(3) runs only for symbolic links.
  const ancestors = new Set<string>();
  // One readdir per folder and plain string joins: the walk is a thousand folders in a large
  // profile, and path.join's normalising was most of its JavaScript time.
  const walk = (dir: string, real: string) => {
    let entries: DirEntry[];
    try {
      entries = fs.list(dir);
    } catch {
      return; // os.walk ignores directories it cannot list
    }
    const prefix = withSeparator(dir);
    const dirs: DirEntry[] = [];
    let hasSkill = false;
    let hasDescription = false;
    for (const entry of entries) {
      if (isDirectory(fs, prefix, entry)) dirs.push(entry);
      else if (entry.name === 'SKILL.md') hasSkill = true;
      else if (entry.name === 'DESCRIPTION.md') hasDescription = true;
    }
    if (hasSkill) found.skills.push(`${prefix}SKILL.md`);
    if (hasDescription) found.descriptions.push(`${prefix}DESCRIPTION.md`);
    const realPrefix = withSeparator(real);
    for (const entry of dirs) {
      const name = entry.name;
      if (dir === skillsDir && activeOrg === undefined && name === ORG_MIRROR_DIR) continue;
      if (dir === orgRoot && name !== activeOrg) continue;
      if (EXCLUDED_DIRS.has(name) || (hasSkill && SUPPORT_DIRS.has(name))) continue;
      const child = prefix + name;
      const childReal = entry.isSymbolicLink() ? realpath(fs, child) : realPrefix + name;
      if (childReal === undefined || ancestors.has(childReal)) continue; // a symlink loop
      ancestors.add(childReal);
      walk(child, childReal);
      ancestors.delete(childReal);
    }
  };
  const rootReal = realpath(fs, skillsDir);
  if (rootReal !== undefined) {
    ancestors.add(rootReal);
    walk(skillsDir, rootReal);
  }
  return { skills: sortByCodePoints(found.skills), descriptions: sortByCodePoints(found.descriptions) };
}

/** `dir` ending in one separator, for joining a name to it (the file system root already does). */
function withSeparator(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

/** os.walk puts an entry of the folder `prefix` in `dirs` when `is_dir()` holds, following symlinks. */
function isDirectory(fs: SourceFs, prefix: string, entry: DirEntry): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return fs.stat(prefix + entry.name)?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

function realpath(fs: SourceFs, dir: string): string | undefined {
  try {
    // One realpath(3) call; the JavaScript realpathSync lstat()s every component of every path.
    // Only compared with each other (loop detection), so the two never mix.
    return fs.realPath(dir);
  } catch {
    return undefined;
  }
}

/**
 * True when the walk of `findSkillFiles` would reach `file` (a SKILL.md or DESCRIPTION.md under
 * `skillsDir`): no excluded or support directory on the way, and `_org/` only for the active org.
 * The file itself need not exist yet (an unsaved buffer).
 */
export function isIndexedSkillPath(fs: SourceFs, skillsRoot: string, file: string): boolean {
  const skillsDir = path.resolve(skillsRoot);
  const rel = path.relative(skillsDir, path.resolve(file));
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const dirs = rel.split(path.sep).slice(0, -1);
  if (dirs[0] === ORG_MIRROR_DIR && (dirs.length < 2 || dirs[1] !== activeOrgId(fs, skillsDir))) return false;
  let dir = skillsDir;
  for (const name of dirs) {
    if (EXCLUDED_DIRS.has(name) || (SUPPORT_DIRS.has(name) && exists(fs, path.join(dir, 'SKILL.md')))) return false;
    dir = path.join(dir, name);
  }
  return true;
}

function exists(fs: SourceFs, file: string): boolean {
  try {
    return fs.stat(file) !== undefined;
  } catch {
    return false;
  }
}
