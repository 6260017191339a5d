// Where a Hermes installation may live, in the order the lens looks (docs/HERMES-INSTALLS.md): the
// folders Hermes' installers use, then `hermes` commands, which lead to a checkout or an
// environment. Per platform, as Hermes' own installers lay them out: `install.sh` on Linux and
// macOS (root on Linux: /usr/local/lib), `install.ps1` and Hermes Desktop on Windows
// (`%LOCALAPPDATA%\hermes\hermes-agent`, a home's `hermes-agent`), and the commands Windows would
// run for `hermes` (every PATH folder, each PATHEXT extension). Paths only: nothing is read here.
import path = require('node:path');
import { userHome } from '../profile/home';
import type { InstallClue } from './hermesBuild';

export interface InstallCandidates {
  /** Folders that are an installation when they exist. */
  readonly folders: ReadonlyArray<{ readonly dir: string; readonly clue: InstallClue }>;
  /** `hermes` commands that may lead to one (the first that does counts). */
  readonly commands: readonly string[];
}

/** Windows' own list when PATHEXT is not set. */
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
/** The kinds of command a `hermes` can be that say what they run: a launcher .exe and a batch file. */
const READABLE_EXTENSIONS = new Set(['.exe', '.cmd', '.bat']);

/** The path flavour of `platform`. */
export function flavourOfPlatform(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** The installer's code folder for the root home `homeRoot`, the system folder, and the commands on PATH and in the installers' link folders. */
export function installCandidates(homeRoot: string | undefined, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): InstallCandidates {
  const p = flavourOfPlatform(platform);
  const folders: Array<{ dir: string; clue: InstallClue }> = [];
  // install.sh's --dir / HERMES_INSTALL_DIR, when it is still set where the lens runs.
  const installDir = envValue(env, 'HERMES_INSTALL_DIR', platform);
  if (installDir) folders.push({ dir: p.resolve(installDir), clue: 'HERMES_INSTALL_DIR' });
  // Non-root installs on every platform, install.ps1 and Hermes Desktop: <home>/hermes-agent.
  if (homeRoot) folders.push({ dir: p.join(homeRoot, 'hermes-agent'), clue: 'home' });
  // New root installs on Linux; shared by every user through /usr/local/bin/hermes (not macOS: Homebrew's).
  if (platform === 'linux') folders.push({ dir: '/usr/local/lib/hermes-agent', clue: 'system' });

  const onPath = (envValue(env, 'PATH', platform) ?? '')
    .split(p.delimiter)
    .map((dir) => (platform === 'win32' ? dir.trim().replace(/^"(.*)"$/, '$1') : dir))
    .filter((dir) => dir !== '' && p.isAbsolute(dir));
  const home = userHome(env, platform);
  // install.sh's link folder (and pipx's and uv tool's, on Windows too); Homebrew's on macOS.
  const linkDirs = [p.join(home, '.local', 'bin')];
  if (platform === 'darwin') linkDirs.push('/opt/homebrew/bin');
  if (platform !== 'win32') linkDirs.push('/usr/local/bin');
  const names = commandNames(env, platform);
  const commands = [...new Set([...onPath, ...linkDirs].flatMap((dir) => names.map((name) => p.join(dir, name))))];
  return { folders, commands };
}

/** `hermes`, or on Windows `hermes` with each readable PATHEXT extension, in PATHEXT's order (the order Windows tries them). */
function commandNames(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform !== 'win32') return ['hermes'];
  const extensions = (envValue(env, 'PATHEXT', platform) || DEFAULT_PATHEXT).split(';').map((e) => e.trim().toLowerCase());
  return [...new Set(extensions.filter((e) => READABLE_EXTENSIONS.has(e)))].map((e) => `hermes${e}`);
}

/** A variable of `env`; on Windows its name in any case (`Path`), as Windows reads it. */
function envValue(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (env[name] !== undefined || platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}
