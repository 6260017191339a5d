// Which Hermes build serves a home, found without running anything: the installation named by the
// setting or flag; else the first of the installer's folders that exists; else the checkout a
// `hermes` command leads to. Only stat, readlink/realpath and small reads (docs/HERMES-INSTALLS.md).
import os = require('node:os');
import path = require('node:path');
import { checkoutOfCommand } from './commandTarget';
import type { HermesBuild } from './hermesBuild';
import { installCandidates } from './installCandidates';
import { readSitePackages, sitePackagesOfCommand } from './pipInstall';
import { existsAsEntry, readInstall } from './readInstall';

export interface BuildQuery {
  /** The root home the build must serve. */
  readonly homeRoot: string | undefined;
  /** `--hermes-install` / `hermesLens.hermesInstall`: when given, the only place looked at. */
  readonly explicit?: string;
  /** PATH, HOME and HERMES_INSTALL_DIR come from here. */
  readonly env: NodeJS.ProcessEnv;
}

export function detectHermesBuild(query: BuildQuery): HermesBuild {
  const explicit = query.explicit?.trim();
  if (explicit) return readInstall(expandHome(explicit, query.env), 'setting');
  const { folders, commands } = installCandidates(query.homeRoot, query.env);
  // A folder that is there decides, readable or not: it is where the installer put Hermes.
  for (const { dir, clue } of folders) if (existsAsEntry(dir)) return readInstall(dir, clue);
  // A command is only a clue: one that leads to no readable installation is passed over.
  for (const command of commands) {
    const checkout = checkoutOfCommand(command);
    const sitePackages = checkout === undefined ? sitePackagesOfCommand(command) : undefined;
    if (checkout === undefined && sitePackages === undefined) continue;
    const build = checkout !== undefined ? readInstall(checkout, 'command') : readSitePackages(sitePackages!, 'command');
    if (build.kind === 'found') return build;
  }
  return { kind: 'not-found', looked: [...folders.map((f) => f.dir), 'a hermes command on PATH'] };
}

/** `~/x` as a shell would read it; other paths resolved against the working directory. */
function expandHome(dir: string, env: NodeJS.ProcessEnv): string {
  if (dir === '~' || dir.startsWith('~/') || dir.startsWith('~\\')) return path.join(env.HOME || os.homedir(), dir.slice(1));
  return path.resolve(dir);
}
