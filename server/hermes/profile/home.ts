// Finding the Hermes home and its profiles (docs/HERMES-HOMES.md), as Hermes' own
// `hermes_constants.get_hermes_home` does on Linux, macOS and Windows. The platform, the
// environment and the file system are the caller's, so a Windows home is found and read the same
// way on any machine; paths keep the flavour of the home they name (pathFlavour.ts).
import os = require('node:os');
import path = require('node:path');
import { HermesError } from '../errors';
import type { HermesHome, Profile } from '../model';
import { diskFs } from '../fs/diskFs';
import { isFolder } from '../fs/readText';
import { utf8Of, type SourceFs } from '../fs/sourceFs';
import { flavourOf, resolvedPath } from '../pathFlavour';

const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const DEFAULT_PROFILE = 'default';

export interface HomeLocation {
  readonly root: string;
  readonly origin: HermesHome['origin'];
}

/** What locating a home depends on: the platform Hermes runs on, its environment and its files. */
export interface HomeContext {
  readonly platform?: NodeJS.Platform;
  /** Only asked whether the default home is a folder (the legacy Windows home, below). */
  readonly fs?: SourceFs;
}

/** Where the root home is: an explicit argument, `HERMES_HOME`, else the platform default. */
export function locateHome(explicit?: string, env: NodeJS.ProcessEnv = process.env, context: HomeContext = {}): HomeLocation {
  if (explicit) return { root: rootOf(resolvedPath(explicit)), origin: 'argument' };
  // Hermes strips the value, and an empty one counts as unset.
  const fromEnv = env.HERMES_HOME?.trim();
  if (fromEnv) return { root: rootOf(resolvedPath(fromEnv)), origin: 'HERMES_HOME' };
  return { root: defaultHome(env, context.platform ?? process.platform, context.fs ?? diskFs), origin: 'default' };
}

/**
 * `_get_platform_default_hermes_home`: `~/.hermes`, and on native Windows `%LOCALAPPDATA%\hermes`
 * (`~\AppData\Local\hermes` without LOCALAPPDATA). Hermes builds before June 2026 used
 * `~\.hermes` on Windows too, and Hermes Desktop still does while that folder exists and the new
 * one does not: then that is the home.
 */
function defaultHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, fs: SourceFs): string {
  const home = userHome(env, platform);
  if (platform !== 'win32') return path.posix.join(home, '.hermes');
  const local = env.LOCALAPPDATA?.trim() || path.win32.join(home, 'AppData', 'Local');
  const current = resolvedPath(path.win32.join(local, 'hermes'));
  const legacy = resolvedPath(path.win32.join(home, '.hermes'));
  return !isFolder(fs, current) && isFolder(fs, legacy) ? legacy : current;
}

/**
 * Python's `Path.home()`: `$HOME` on Linux and macOS; on Windows `%USERPROFILE%`, else
 * `%HOMEDRIVE%%HOMEPATH%` (HOME is not read there). This process's home when none is set.
 */
export function userHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return env.HOME || os.homedir();
  if (env.USERPROFILE) return env.USERPROFILE;
  if (env.HOMEPATH) return (env.HOMEDRIVE ?? '') + env.HOMEPATH;
  return os.homedir();
}

/**
 * `HERMES_HOME=<root>/profiles/<name>` means the root is `<root>` (`get_default_hermes_root`; the
 * lens asks for a profile's name as Hermes names them, so it can list that profile under the root).
 */
function rootOf(dir: string): string {
  const p = flavourOf(dir);
  const parent = p.dirname(dir);
  if (p.basename(parent) === 'profiles' && PROFILE_NAME.test(p.basename(dir))) {
    return p.dirname(parent);
  }
  return dir;
}

export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

/** Reads the home: its profiles (default first, then named ones sorted) and the active one. */
export function readHome(location: HomeLocation, fs: SourceFs = diskFs): HermesHome {
  const { root, origin } = location;
  const path = flavourOf(root);
  if (!isFolder(fs, root)) {
    throw new HermesError(
      'home-missing',
      `No Hermes home at ${root}. Pass --home DIR, set HERMES_HOME, or run Hermes once to create it.`,
      root,
    );
  }
  const activeProfile = readActiveProfile(fs, root);
  const profiles: Profile[] = [{ name: DEFAULT_PROFILE, dir: root, isActive: activeProfile === DEFAULT_PROFILE }];
  const profilesDir = path.join(root, 'profiles');
  if (isFolder(fs, profilesDir)) {
    for (const name of fs.listNames(profilesDir).sort()) {
      if (name !== DEFAULT_PROFILE && PROFILE_NAME.test(name) && isFolder(fs, path.join(profilesDir, name))) {
        profiles.push({ name, dir: path.join(profilesDir, name), isActive: activeProfile === name });
      }
    }
  }
  return { root, origin, activeProfile, profiles };
}

function readActiveProfile(fs: SourceFs, root: string): string {
  try {
    const name = utf8Of(fs.read(flavourOf(root).join(root, 'active_profile'))).trim();
    return name && PROFILE_NAME.test(name) ? name : DEFAULT_PROFILE;
  } catch {
    return DEFAULT_PROFILE;
  }
}

/** The profile called `name`, or the active one; a clear error names the ones that exist. */
export function selectProfile(home: HermesHome, name?: string): Profile {
  const wanted = name ?? home.activeProfile;
  const profile = home.profiles.find((p) => p.name === wanted);
  if (!profile) {
    const path = flavourOf(home.root);
    const known = home.profiles.map((p) => p.name).join(', ');
    if (name === undefined) {
      const file = path.join(home.root, 'active_profile');
      throw new HermesError(
        'profile-missing',
        `${file} names the profile "${wanted}", which does not exist in ${home.root} (profiles: ${known}). Pick one with -p NAME, or write an existing profile name into ${file}.`,
        file,
      );
    }
    throw new HermesError(
      'profile-missing',
      `No profile "${wanted}" in ${home.root} (profiles: ${known}). Pick one of those with -p NAME.`,
      path.join(home.root, 'profiles', wanted),
    );
  }
  return profile;
}

/** Paths of a profile's well-known files. */
export function profilePaths(profile: Profile) {
  const dir = profile.dir;
  const path = flavourOf(dir);
  return {
    config: path.join(dir, 'config.yaml'),
    soul: path.join(dir, 'SOUL.md'),
    memory: path.join(dir, 'memories', 'MEMORY.md'),
    user: path.join(dir, 'memories', 'USER.md'),
    skills: path.join(dir, 'skills'),
    stateDb: path.join(dir, 'state.db'),
  };
}
