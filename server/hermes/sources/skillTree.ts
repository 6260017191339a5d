// Skill discovery as `SU.iter_skill_index_files` walks it: symlinks followed, excluded and support
// directories pruned, the `_org/` mirror limited to the active org, results sorted by path in
// Python's (code-point) order. Unlike Python's os.walk we stop at symlink loops.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareCodePoints, pyStrip } from './pyText';

const EXCLUDED_DIRS = new Set([
  '.git', '.github', '.hub', '.archive', '.venv', 'venv', 'node_modules', 'site-packages', '__pycache__',
  '.tox', '.nox', '.pytest_cache', '.mypy_cache', '.ruff_cache',
]);
/** Directories inside a skill that hold its supporting files, never other skills. */
const SUPPORT_DIRS = new Set(['references', 'templates', 'assets', 'scripts']);
export const ORG_MIRROR_DIR = '_org';

/** The org whose mirror may load (`_org/.active_org`), or undefined: then no org skill loads. */
export function activeOrgId(skillsDir: string): string | undefined {
  try {
    return pyStrip(fs.readFileSync(path.join(skillsDir, ORG_MIRROR_DIR, '.active_org'), 'utf8')) || undefined;
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
 * with the same pruning; one walk finds both.
 */
export function findSkillFiles(skillsRoot: string): SkillFiles {
  const skillsDir = path.resolve(skillsRoot);
  const activeOrg = activeOrgId(skillsDir);
  const orgRoot = path.join(skillsDir, ORG_MIRROR_DIR);
  const found: SkillFiles = { skills: [], descriptions: [] };
  // `real` is dir's real path, for loop detection: a plain subdirectory's is real + its name, so
  // realpath(3) runs only for symbolic links (one call per folder was a tenth of a large scan).
  const walk = (dir: string, real: string, ancestors: ReadonlySet<string>) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // os.walk ignores directories it cannot list
    }
    const dirs: fs.Dirent[] = [];
    const files = new Set<string>();
    for (const entry of entries) {
      if (isDirectory(path.join(dir, entry.name), entry)) dirs.push(entry);
      else files.add(entry.name);
    }
    const hasSkill = files.has('SKILL.md');
    let next = dirs;
    if (dir === skillsDir && activeOrg === undefined) next = next.filter((d) => d.name !== ORG_MIRROR_DIR);
    else if (dir === orgRoot) next = next.filter((d) => d.name === activeOrg);
    next = next.filter((d) => !EXCLUDED_DIRS.has(d.name) && !(hasSkill && SUPPORT_DIRS.has(d.name)));
    if (files.has('SKILL.md')) found.skills.push(path.join(dir, 'SKILL.md'));
    if (files.has('DESCRIPTION.md')) found.descriptions.push(path.join(dir, 'DESCRIPTION.md'));
    for (const entry of next) {
      const child = path.join(dir, entry.name);
      const childReal = entry.isSymbolicLink() ? realpath(child) : path.join(real, entry.name);
      if (childReal === undefined || ancestors.has(childReal)) continue; // a symlink loop
      walk(child, childReal, new Set([...ancestors, childReal]));
    }
  };
  const rootReal = realpath(skillsDir);
  if (rootReal !== undefined) walk(skillsDir, rootReal, new Set([rootReal]));
  return { skills: found.skills.sort(compareCodePoints), descriptions: found.descriptions.sort(compareCodePoints) };
}

/** os.walk puts an entry in `dirs` when `is_dir()` holds, following symlinks. */
function isDirectory(full: string, entry: fs.Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return fs.statSync(full).isDirectory();
  } catch {
    return false;
  }
}

function realpath(dir: string): string | undefined {
  try {
    // One realpath(3) call; the JavaScript realpathSync lstat()s every component of every path.
    // Only compared with each other (loop detection), so the two never mix.
    return fs.realpathSync.native(dir);
  } catch {
    return undefined;
  }
}

/**
 * True when the walk of `findSkillFiles` would reach `file` (a SKILL.md or DESCRIPTION.md under
 * `skillsDir`): no excluded or support directory on the way, and `_org/` only for the active org.
 * The file itself need not exist yet (an unsaved buffer).
 */
export function isIndexedSkillPath(skillsRoot: string, file: string): boolean {
  const skillsDir = path.resolve(skillsRoot);
  const rel = path.relative(skillsDir, path.resolve(file));
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const dirs = rel.split(path.sep).slice(0, -1);
  if (dirs[0] === ORG_MIRROR_DIR && (dirs.length < 2 || dirs[1] !== activeOrgId(skillsDir))) return false;
  let dir = skillsDir;
  for (const name of dirs) {
    if (EXCLUDED_DIRS.has(name) || (SUPPORT_DIRS.has(name) && fs.existsSync(path.join(dir, 'SKILL.md')))) return false;
    dir = path.join(dir, name);
  }
  return true;
}
