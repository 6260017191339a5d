// `skills.external_dirs` as Hermes resolves it (`SU.get_external_skills_dirs`, the same from 0.19.1
// to 0.20.3): more skills folders, read-only, whose skills the index lists after the profile's own.
// Each entry has `~` and `$VAR`/`${VAR}` expanded, is taken relative to the Hermes home (the
// profile's folder) when not absolute, and resolved through links; the profile's own skills/, a
// repeat and a path that is not a folder are left out.
import os = require('node:os');
import path = require('node:path');
import { isFolder } from '../fs/readText';
import type { SourceFs } from '../fs/sourceFs';

/** The folders `entries` (config.yaml's list) name, in order, for the profile at `hermesHome`. */
export function externalSkillDirs(fs: SourceFs, hermesHome: string, entries: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  if (entries.length === 0) return [];
  const local = resolved(fs, path.join(hermesHome, 'skills'));
  const dirs: string[] = [];
  for (const entry of entries) {
    const expanded = expandedEntry(entry, env);
    const dir = resolved(fs, path.isAbsolute(expanded) ? expanded : path.join(hermesHome, expanded));
    if (dir === local || dirs.includes(dir) || !isFolder(fs, dir)) continue;
    dirs.push(dir);
  }
  return dirs;
}

/** `os.path.expanduser(os.path.expandvars(entry))`, as Hermes reads a config.yaml path entry. */
export function expandedEntry(entry: string, env: NodeJS.ProcessEnv): string {
  return expandUser(expandVars(entry, env), env);
}

/** `os.path.expandvars` on POSIX: `$name` and `${name}` of set variables; any other `$` stays. */
function expandVars(text: string, env: NodeJS.ProcessEnv): string {
  if (!text.includes('$')) return text;
  return text.replace(/\$(\w+|\{[^}]*\})/g, (whole, name: string) => {
    const key = name.startsWith('{') ? name.slice(1, -1) : name;
    return env[key] ?? whole;
  });
}

/** `os.path.expanduser` for `~` and `~/…` (another user's `~name` stays as written). */
function expandUser(text: string, env: NodeJS.ProcessEnv): string {
  if (text !== '~' && !text.startsWith('~/')) return text;
  const home = (env.HOME ?? os.homedir()).replace(/\/+$/, '') || '/';
  return home + text.slice(1);
}

/** `Path.resolve()`: absolute, links resolved as far as the path exists. */
export function resolved(fs: SourceFs, file: string): string {
  try {
    return fs.realPath(file);
  } catch {
    return path.resolve(file);
  }
}
