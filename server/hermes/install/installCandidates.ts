// Where a Hermes installation may live, in the order the lens looks (docs/HERMES-INSTALLS.md):
// the folders Hermes' installer uses, then `hermes` commands, which lead to a checkout when they
// are a link into it or the installer's launcher naming it. Paths only: nothing is read here.
import os = require('node:os');
import path = require('node:path');
import type { InstallClue } from './hermesBuild';

export interface InstallCandidates {
  /** Folders that are an installation when they exist. */
  readonly folders: ReadonlyArray<{ readonly dir: string; readonly clue: InstallClue }>;
  /** `hermes` commands that may lead to one (the first that does counts). */
  readonly commands: readonly string[];
}

/** The installer's code folder for the root home `homeRoot`, the system folder, and the commands on PATH and in the installer's link folders. */
export function installCandidates(homeRoot: string | undefined, env: NodeJS.ProcessEnv): InstallCandidates {
  const folders: Array<{ dir: string; clue: InstallClue }> = [];
  // The installer's --dir / HERMES_INSTALL_DIR, when it is still set where the lens runs.
  if (env.HERMES_INSTALL_DIR) folders.push({ dir: path.resolve(env.HERMES_INSTALL_DIR), clue: 'HERMES_INSTALL_DIR' });
  // Non-root installs (and root ones that found a checkout there): $HERMES_HOME/hermes-agent.
  if (homeRoot) folders.push({ dir: path.join(homeRoot, 'hermes-agent'), clue: 'home' });
  // New root installs on Linux; shared by every user through /usr/local/bin/hermes.
  if (process.platform === 'linux') folders.push({ dir: '/usr/local/lib/hermes-agent', clue: 'system' });

  const name = process.platform === 'win32' ? 'hermes.exe' : 'hermes';
  const onPath = (env.PATH ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  const home = env.HOME || os.homedir();
  const linkDirs = process.platform === 'win32' ? [] : [path.join(home, '.local', 'bin'), '/usr/local/bin'];
  const commands = [...new Set([...onPath, ...linkDirs].map((dir) => path.join(dir, name)))];
  return { folders, commands };
}
