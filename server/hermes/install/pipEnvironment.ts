// Where pip, pipx, uv or Homebrew put Hermes' wheel: a `site-packages` folder holding
// `hermes_agent-<version>.dist-info`, in the environment a console script belongs to. Found by
// listing folders in the environment's own layout, never by running Python (docs/HERMES-INSTALLS.md):
// `lib/python3.*/site-packages` (or Debian's `dist-packages`) on Linux and macOS, `Lib\site-packages`
// on Windows, and `site-packages` right under a user base (`%APPDATA%\Python\Python311`).
import path = require('node:path');
import { isDirectory, listing } from './fileChecks';
import { diskInstallFs, type InstallFs } from './installFs';

/**
 * `dir` itself, or the site-packages of the environment at `dir`, when it holds Hermes' wheel.
 * `flavour` is the path flavour of the machine the environment is on.
 */
export function sitePackagesUnder(dir: string, fs: InstallFs = diskInstallFs, flavour: path.PlatformPath = path): string | undefined {
  if (distInfoIn(dir, fs, flavour)) return dir;
  for (const site of siteFolders(dir, fs, flavour)) if (distInfoIn(site, fs, flavour)) return site;
  return undefined;
}

function siteFolders(dir: string, fs: InstallFs, flavour: path.PlatformPath): string[] {
  if (flavour === path.win32) return [flavour.join(dir, 'Lib', 'site-packages'), flavour.join(dir, 'site-packages')];
  const lib = flavour.join(dir, 'lib');
  const versions = listing(lib, fs).filter((n) => /^python3(\.\d+)?$/.test(n)).sort().reverse();
  return versions.flatMap((name) => ['site-packages', 'dist-packages'].map((packages) => flavour.join(lib, name, packages)));
}

/** The name of Hermes' `.dist-info` folder in `dir` (pip writes the project name as `hermes_agent`), if any. */
export function distInfoIn(dir: string, fs: InstallFs = diskInstallFs, flavour: path.PlatformPath = path): string | undefined {
  return listing(dir, fs).find((n) => /^hermes[_.-]agent-[^/\\]+\.dist-info$/i.test(n) && isDirectory(flavour.join(dir, n), fs));
}
