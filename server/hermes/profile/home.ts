// Finding the Hermes home and its profiles (docs/HERMES-HOMES.md).
import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');
import { HermesError } from '../errors';
import type { HermesHome, Profile } from '../model';
import { diskFs } from '../fs/diskFs';
import { utf8Of } from '../fs/sourceFs';

const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const DEFAULT_PROFILE = 'default';

export interface HomeLocation {
  readonly root: string;
  readonly origin: HermesHome['origin'];
}

/** Where the root home is: an explicit argument, `HERMES_HOME`, else the platform default. */
export function locateHome(explicit?: string, env: NodeJS.ProcessEnv = process.env): HomeLocation {
  if (explicit) return { root: rootOf(path.resolve(explicit)), origin: 'argument' };
  if (env.HERMES_HOME) return { root: rootOf(path.resolve(env.HERMES_HOME)), origin: 'HERMES_HOME' };
  const base =
    process.platform === 'win32'
      ? path.join(env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local'), 'hermes')
      : path.join(os.homedir(), '.hermes');
  return { root: base, origin: 'default' };
}

/** `HERMES_HOME=<root>/profiles/<name>` means the root is `<root>`. */
function rootOf(dir: string): string {
  const parent = path.dirname(dir);
  if (path.basename(parent) === 'profiles' && PROFILE_NAME.test(path.basename(dir))) {
    return path.dirname(parent);
  }
  return dir;
}

export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

/** Reads the home: its profiles (default first, then named ones sorted) and the active one. */
export function readHome(location: HomeLocation): HermesHome {
  const { root, origin } = location;
  if (!isDirectory(root)) {
    throw new HermesError(
      'home-missing',
      `No Hermes home at ${root}. Pass --home DIR, set HERMES_HOME, or run Hermes once to create it.`,
      root,
    );
  }
  const activeProfile = readActiveProfile(root);
  const profiles: Profile[] = [{ name: DEFAULT_PROFILE, dir: root, isActive: activeProfile === DEFAULT_PROFILE }];
  const profilesDir = path.join(root, 'profiles');
  if (isDirectory(profilesDir)) {
    for (const name of fs.readdirSync(profilesDir).sort()) {
      if (name !== DEFAULT_PROFILE && PROFILE_NAME.test(name) && isDirectory(path.join(profilesDir, name))) {
        profiles.push({ name, dir: path.join(profilesDir, name), isActive: activeProfile === name });
      }
    }
  }
  return { root, origin, activeProfile, profiles };
}

function readActiveProfile(root: string): string {
  try {
    const name = utf8Of(diskFs.read(path.join(root, 'active_profile'))).trim();
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
  return {
    config: path.join(dir, 'config.yaml'),
    soul: path.join(dir, 'SOUL.md'),
    memory: path.join(dir, 'memories', 'MEMORY.md'),
    user: path.join(dir, 'memories', 'USER.md'),
    skills: path.join(dir, 'skills'),
    stateDb: path.join(dir, 'state.db'),
  };
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
