// From a `hermes` command to the installation it runs, by reading it, never by running it
// (docs/HERMES-INSTALLS.md §2). On Linux and macOS: a link into a checkout (older installers), the
// installer's launcher whose `exec` line names `<checkout>/venv/bin/…`, Homebrew's wrapper whose
// `exec` line names the console script in its `libexec`, and pip's console script, whose
// environment holds the wheel. On Windows: pip's or uv's `hermes.exe` in `<env>\Scripts` (the
// installer's is `<checkout>\venv\Scripts\hermes.exe`), a copy of it elsewhere (uv tool, pipx) by
// the interpreter it names, and a `hermes.cmd`/`.bat` by the programs it names. Some other program
// called hermes leads nowhere, and is no clue.
import path = require('node:path');
import { isFile, realPathOrUndefined, smallFileBytes } from './fileChecks';
import type { InstallFs } from './installFs';
import { sitePackagesUnder } from './pipEnvironment';
import { carriesHermesMain, interpretersInLauncher, pathsInBatch } from './windowsLauncher';

/** A place a command leads to: a checkout (pyproject.toml) or a site-packages holding Hermes' wheel. */
export interface CommandTarget {
  readonly layout: 'checkout' | 'site-packages';
  readonly dir: string;
}

export interface CommandSeams {
  readonly fs: InstallFs;
  /** The path flavour of the machine the command is on. */
  readonly flavour: path.PlatformPath;
}

/** A launcher or script is a few lines; a larger file is some other program. */
const MAX_SCRIPT_BYTES = 64 * 1024;
/** pip's and uv's launchers are some hundred kilobytes; an application (Hermes Desktop's Hermes.exe) is far larger. */
const MAX_LAUNCHER_EXE_BYTES = 4 * 1024 * 1024;
/** How far above a named file its checkout may be (`<checkout>/venv/bin/python` is three levels). */
const MAX_LEVELS_UP = 4;
/** Launchers name launchers (Homebrew's wrapper names the console script): followed this far. */
const MAX_HOPS = 2;

/** Where the command at `file` leads, most telling first (none: it is no clue). */
export function commandTargets(file: string, seams: CommandSeams): CommandTarget[] {
  const found: CommandTarget[] = [];
  const add = (target: CommandTarget | undefined) => {
    if (target && !found.some((f) => f.dir === target.dir)) found.push(target);
  };
  const ext = seams.flavour.extname(file).toLowerCase();
  if (seams.flavour === path.win32 && ext === '.exe') windowsExeTargets(file, seams, add);
  else if (seams.flavour === path.win32 && (ext === '.cmd' || ext === '.bat')) batchTargets(file, seams, add);
  else scriptTargets(file, seams, add, 0);
  return found;
}

type Add = (target: CommandTarget | undefined) => void;

/** A link, the installer's or Homebrew's launcher, or pip's console script (Linux, macOS). */
function scriptTargets(file: string, seams: CommandSeams, add: Add, hops: number): void {
  const target = realPathOrUndefined(file, seams.fs);
  if (target === undefined) return;
  if (seams.fs.isLink(file)) add(checkoutAbove(target, seams));
  const bytes = smallFileBytes(target, MAX_SCRIPT_BYTES, seams.fs);
  if (bytes === undefined) return;
  const text = bytes.toString('utf8');
  // pip's console script for `hermes = "hermes_cli.main:main"`: a Python shebang, then the import.
  const shebang = /^#!\s*(\S+)/.exec(text)?.[1];
  if (shebang && /\bfrom hermes_cli\.main import main\b/.test(text)) {
    // In a checkout's venv (run without the installer's launcher), the checkout; else the
    // environment: the script's own prefix (a venv, or ~/.local for `pip install --user`), then its interpreter's.
    add(checkoutAbove(target, seams));
    const p = seams.flavour;
    for (const prefix of [p.dirname(p.dirname(target)), p.dirname(p.dirname(shebang))]) add(sitePackagesTarget(prefix, seams));
    return;
  }
  for (const named of execPaths(text)) {
    add(checkoutAbove(named, seams));
    if (hops < MAX_HOPS) scriptTargets(named, seams, add, hops + 1);
  }
}

/**
 * The quoted absolute paths after `exec` on a launcher's exec lines: the installer's
 * `exec "/…/venv/bin/hermes" "$@"`, and Homebrew's `HERMES_MANAGED="homebrew" exec "/…/libexec/bin/hermes" "$@"`
 * (the variables it sets come first on the line).
 */
function execPaths(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split('\n')) {
    const exec = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|[^\s"']*)\s+)*exec\s+(.*)$/.exec(line);
    if (!exec) continue;
    for (const match of exec[1]!.matchAll(/"(\/[^"$`\\]+)"|'(\/[^']+)'/g)) paths.push(match[1] ?? match[2]!);
  }
  return paths;
}

/** pip's or uv's console-script .exe (Windows). */
function windowsExeTargets(exe: string, seams: CommandSeams, add: Add): void {
  const p = seams.flavour;
  if (!isFile(exe, seams.fs)) return;
  // The installer's `<checkout>\venv\Scripts\hermes.exe`, and the environment `<env>\Scripts\hermes.exe` belongs to.
  add(checkoutAbove(exe, seams));
  add(sitePackagesTarget(p.dirname(p.dirname(exe)), seams));
  // A copy elsewhere (uv tool's and pipx's in ~\.local\bin): by the interpreter it names.
  const bytes = smallFileBytes(exe, MAX_LAUNCHER_EXE_BYTES, seams.fs);
  if (bytes === undefined || !carriesHermesMain(bytes)) return;
  for (const python of interpretersInLauncher(bytes)) interpreterTargets(python, seams, add);
}

/** A `hermes.cmd` or `hermes.bat` (Windows): the programs and scripts it names. */
function batchTargets(file: string, seams: CommandSeams, add: Add): void {
  const bytes = smallFileBytes(file, MAX_SCRIPT_BYTES, seams.fs);
  if (bytes === undefined) return;
  const p = seams.flavour;
  for (const named of pathsInBatch(bytes.toString('utf8'), p.dirname(file))) {
    if (p.extname(named).toLowerCase() === '.exe') {
      if (/^pythonw?(?:3(?:\.\d+)?)?\.exe$/i.test(p.basename(named))) interpreterTargets(named, seams, add);
      else windowsExeTargets(named, seams, add);
    } else add(checkoutAbove(named, seams));
  }
}

/** A Python interpreter's installation: a checkout's venv, a venv (`<env>\Scripts\python.exe`) or a base install (`C:\Python311\python.exe`). */
function interpreterTargets(python: string, seams: CommandSeams, add: Add): void {
  const p = seams.flavour;
  add(checkoutAbove(python, seams));
  add(sitePackagesTarget(p.dirname(p.dirname(python)), seams));
  add(sitePackagesTarget(p.dirname(python), seams));
}

function sitePackagesTarget(prefix: string, seams: CommandSeams): CommandTarget | undefined {
  const dir = sitePackagesUnder(prefix, seams.fs, seams.flavour);
  return dir === undefined ? undefined : { layout: 'site-packages', dir };
}

/** The nearest folder at or above `file`'s folder that holds a pyproject.toml. */
function checkoutAbove(file: string, seams: CommandSeams): CommandTarget | undefined {
  const p = seams.flavour;
  let dir = p.dirname(file);
  for (let level = 0; level < MAX_LEVELS_UP; level++) {
    if (isFile(p.join(dir, 'pyproject.toml'), seams.fs)) return { layout: 'checkout', dir };
    const parent = p.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}
