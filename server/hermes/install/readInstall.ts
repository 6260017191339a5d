// Reading one Hermes installation folder: its version (pyproject.toml) and whether it has the
// refresh-prompts protocol (its CLI's sources, protocolReading.ts). Files are only stat'ed and read; a folder that
// cannot be used becomes a problem that names the path and says what to do, never an exception.
import fs = require('node:fs');
import path = require('node:path');
import { diskFs } from '../fs/diskFs';
import { utf8Of } from '../fs/sourceFs';
import type { HermesBuild, InstallClue } from './hermesBuild';
import { sitePackagesUnder } from './pipEnvironment';
import { readSitePackages } from './pipInstall';
import { whyUnreadable as why } from './fileChecks';
import { withProtocol } from './withProtocol';
import { projectOfPyproject } from './pyproject';

/** pyproject.toml is a few kilobytes; a larger file is not one worth reading. */
const MAX_PYPROJECT_BYTES = 1024 * 1024;

const WHAT_TO_DO = 'point --hermes-install (hermesLens.hermesInstall in the editor) at the folder of your Hermes checkout, the one holding pyproject.toml and agent/';

export function readInstall(dir: string, clue: InstallClue): Extract<HermesBuild, { kind: 'found' | 'unreadable' }> {
  const problem = (text: string) => ({ kind: 'unreadable' as const, dir, problem: text, clue });
  const folder = statOf(dir);
  if (folder instanceof Error) return problem(`The Hermes installation ${dir} ${why(folder)}; ${WHAT_TO_DO}.`);
  if (!folder.isDirectory()) return problem(`The Hermes installation ${dir} is not a folder; ${WHAT_TO_DO}.`);

  const pyproject = path.join(dir, 'pyproject.toml');
  const file = statOf(pyproject);
  // No checkout, but an environment pip or pipx installed Hermes into (or its site-packages).
  const sitePackages = file instanceof Error ? sitePackagesUnder(dir) : undefined;
  if (sitePackages !== undefined) return readSitePackages(sitePackages, clue);
  if (file instanceof Error) return problem(`${pyproject} ${why(file)}, so the Hermes build there cannot be told; ${WHAT_TO_DO}.`);
  if (!file.isFile()) return problem(`${pyproject} is not a regular file, so the Hermes build there cannot be told; ${WHAT_TO_DO}.`);
  if (file.size > MAX_PYPROJECT_BYTES) return problem(`${pyproject} is ${file.size} bytes, too large for a pyproject.toml; ${WHAT_TO_DO}.`);
  let text: string;
  try {
    text = utf8Of(diskFs.read(pyproject));
  } catch (error) {
    return problem(`${pyproject} ${why(error as Error)}, so the Hermes build there cannot be told; ${WHAT_TO_DO}.`);
  }
  const project = projectOfPyproject(text);
  if (project.name !== undefined && project.name !== 'hermes-agent') {
    return problem(`${dir} is not a Hermes installation: its pyproject.toml names the project ${JSON.stringify(project.name.slice(0, 80))}, not hermes-agent; ${WHAT_TO_DO}.`);
  }
  if (project.notAVersion !== undefined) {
    return problem(`${pyproject} gives version = ${JSON.stringify(project.notAVersion.slice(0, 80))}, which is not a version number, so the Hermes build there cannot be told; ${WHAT_TO_DO}.`);
  }
  if (project.version === undefined) {
    return problem(`${pyproject} has no version = "…" line under [project] (is it a Hermes pyproject.toml?), so the Hermes build there cannot be told; ${WHAT_TO_DO}.`);
  }

  return withProtocol(dir, project.version, clue, problem, WHAT_TO_DO);
}

function statOf(file: string): fs.Stats | Error {
  try {
    return fs.statSync(file);
  } catch (error) {
    return error as Error;
  }
}
