// Hermes installed with pip or pipx instead of the installer: no checkout, but the wheel's files in
// a `site-packages` folder — `hermes_agent-<version>.dist-info/METADATA` (the version) beside
// Hermes' packages (`hermes_cli/`, whose sources tell the refresh protocol) — and a console script named `hermes` that pip
// writes in the environment's `bin/` (pipx links it into ~/.local/bin). Found by reading the script
// and listing folders, never by running Python (docs/HERMES-INSTALLS.md).
import path = require('node:path');
import { diskFs } from '../fs/diskFs';
import { utf8Of } from '../fs/sourceFs';
import type { HermesBuild, InstallClue } from './hermesBuild';
import { isDirectory, isSmallFile, listing, realPathOrUndefined } from './fileChecks';
import { isVersionNumber } from './pyproject';
import { withProtocol } from './withProtocol';

/** A console script is a few lines; a larger file is some other program. */
const MAX_SCRIPT_BYTES = 64 * 1024;
const MAX_METADATA_BYTES = 1024 * 1024;

/** The site-packages holding Hermes' wheel that the console script at `file` runs, if it is one. */
export function sitePackagesOfCommand(file: string): string | undefined {
  const script = realPathOrUndefined(file);
  if (script === undefined || !isSmallFile(script, MAX_SCRIPT_BYTES)) return undefined;
  let text: string;
  try {
    text = utf8Of(diskFs.read(script));
  } catch {
    return undefined;
  }
  // pip's console script for `hermes = "hermes_cli.main:main"`: a Python shebang, then the import.
  const shebang = /^#!\s*(\S+)/.exec(text)?.[1];
  if (!shebang || !/\bfrom hermes_cli\.main import main\b/.test(text)) return undefined;
  // The script's own prefix (a venv, or ~/.local for `pip install --user`), then its interpreter's.
  const prefixes = [path.dirname(path.dirname(script)), path.dirname(path.dirname(shebang))];
  for (const prefix of prefixes) {
    const found = sitePackagesUnder(prefix);
    if (found) return found;
  }
  return undefined;
}

/**
 * `dir` itself, or `dir/lib/python3.*\/site-packages` (`dist-packages` where Debian's pip installs),
 * when it holds Hermes' wheel.
 */
export function sitePackagesUnder(dir: string): string | undefined {
  if (distInfoIn(dir)) return dir;
  const lib = path.join(dir, 'lib');
  for (const name of listing(lib).filter((n) => /^python3(\.\d+)?$/.test(n)).sort().reverse()) {
    for (const packages of ['site-packages', 'dist-packages']) {
      const site = path.join(lib, name, packages);
      if (distInfoIn(site)) return site;
    }
  }
  return undefined;
}

/** The build whose wheel `sitePackages` holds: its METADATA's version, and what its sources show of the protocol. */
export function readSitePackages(sitePackages: string, clue: InstallClue): Extract<HermesBuild, { kind: 'found' | 'unreadable' }> {
  const distInfo = distInfoIn(sitePackages)!;
  const metadata = path.join(sitePackages, distInfo, 'METADATA');
  const problem = (text: string) => ({ kind: 'unreadable' as const, dir: sitePackages, problem: text, clue });
  const what = 'so the Hermes build there cannot be told; point --hermes-install (hermesLens.hermesInstall in the editor) at the environment Hermes was installed into';
  let text: string;
  try {
    if (!isSmallFile(metadata, MAX_METADATA_BYTES)) return problem(`${metadata} is not a readable file of at most 1 MB, ${what}.`);
    text = utf8Of(diskFs.read(metadata));
  } catch {
    return problem(`${metadata} cannot be read, ${what}.`);
  }
  // The headers end at the first blank line (the description follows).
  const headers = text.split(/\r?\n\r?\n/, 1)[0]!;
  const version = /^Version:\s*(.+?)\s*$/m.exec(headers)?.[1];
  if (version === undefined || !isVersionNumber(version)) return problem(`${metadata} gives no version number, ${what}.`);
  return withProtocol(sitePackages, version, clue, problem, 'point --hermes-install (hermesLens.hermesInstall in the editor) at the environment Hermes was installed into');
}

/** The name of Hermes' `.dist-info` folder in `dir` (pip writes the project name as `hermes_agent`), if any. */
function distInfoIn(dir: string): string | undefined {
  return listing(dir).find((n) => /^hermes[_.-]agent-[^/]+\.dist-info$/i.test(n) && isDirectory(path.join(dir, n)));
}
