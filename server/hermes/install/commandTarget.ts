// From a `hermes` command to the checkout it runs, by reading it, never by running it. Older
// installers linked the command to `<checkout>/venv/bin/hermes`; newer ones write a small launcher
// whose `exec` line names `<checkout>/venv/bin/python` and `<checkout>/hermes`. A pip or pipx
// console script leads to no checkout (pipInstall.ts reads those); some other program called
// hermes leads nowhere, and is no clue.
import fs = require('node:fs');
import path = require('node:path');
import { diskFs } from '../fs/diskFs';
import { utf8Of } from '../fs/sourceFs';
import { isFile, realPathOrUndefined } from './fileChecks';

/** A launcher is a few lines; a larger file is some other program. */
const MAX_LAUNCHER_BYTES = 64 * 1024;
/** How far above a named file its checkout may be (`<checkout>/venv/bin/python` is three levels). */
const MAX_LEVELS_UP = 4;

/** The folder holding pyproject.toml above what the command at `file` runs, if it can be told. */
export function checkoutOfCommand(file: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) {
    const target = realPathOrUndefined(file);
    return target === undefined ? undefined : projectAbove(target);
  }
  if (!stat.isFile() || stat.size > MAX_LAUNCHER_BYTES) return undefined;
  let text: string;
  try {
    text = utf8Of(diskFs.read(file));
  } catch {
    return undefined;
  }
  for (const named of execPaths(text)) {
    const found = projectAbove(named);
    if (found) return found;
  }
  return undefined;
}

/** The quoted absolute paths on the launcher's `exec` lines (`exec "/…/venv/bin/python" "/…/hermes" "$@"`). */
function execPaths(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split('\n')) {
    if (!/^\s*exec\s/.test(line)) continue;
    for (const match of line.matchAll(/"(\/[^"$`\\]+)"|'(\/[^']+)'/g)) paths.push(match[1] ?? match[2]!);
  }
  return paths;
}

/** The nearest folder at or above `file`'s folder that holds a pyproject.toml. */
function projectAbove(file: string): string | undefined {
  let dir = path.dirname(file);
  for (let level = 0; level < MAX_LEVELS_UP; level++) {
    if (isFile(path.join(dir, 'pyproject.toml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}
