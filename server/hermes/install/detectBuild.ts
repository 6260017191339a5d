// Which Hermes build serves a home, found without running anything: the installation named by the
// setting or flag; else the first of the installers' folders that exists; else the checkout or
// environment a `hermes` command leads to. Only stat, readlink/realpath and small reads
// (docs/HERMES-INSTALLS.md). Where to look (locateInstalls) is apart from reading what is there
// (readInstall.ts, pipInstall.ts), so the places of another platform can be tested anywhere.
import { commandTargets } from './commandTarget';
import type { HermesBuild, InstallClue } from './hermesBuild';
import { flavourOfPlatform, installCandidates } from './installCandidates';
import { diskInstallFs, type InstallFs } from './installFs';
import { readSitePackages } from './pipInstall';
import { readInstall } from './readInstall';
import { userHome } from '../profile/home';

export interface BuildQuery {
  /** The root home the build must serve. */
  readonly homeRoot: string | undefined;
  /** `--hermes-install` / `hermesLens.hermesInstall`: when given, the only place looked at. */
  readonly explicit?: string;
  /** PATH (and PATHEXT on Windows), HOME (USERPROFILE) and HERMES_INSTALL_DIR come from here. */
  readonly env: NodeJS.ProcessEnv;
}

/** A place an installation may be, in the order they are looked at. */
export type LocatedInstall =
  /** An installer's folder that exists: it decides, whatever it holds. */
  | { readonly dir: string; readonly clue: InstallClue; readonly decides: true }
  /** Where a `hermes` command leads: only a clue, passed over when it holds no readable build. */
  | { readonly dir: string; readonly clue: 'command'; readonly decides: false; readonly layout: 'checkout' | 'site-packages' };

export function detectHermesBuild(query: BuildQuery): HermesBuild {
  const explicit = query.explicit?.trim();
  if (explicit) return readInstall(expandHome(explicit, query.env, process.platform), 'setting');
  for (const place of locateInstalls(query)) {
    if (place.decides) return readInstall(place.dir, place.clue);
    const build = place.layout === 'checkout' ? readInstall(place.dir, 'command') : readSitePackages(place.dir, 'command');
    if (build.kind === 'found') return build;
  }
  const { folders } = installCandidates(query.homeRoot, query.env);
  return { kind: 'not-found', looked: [...folders.map((f) => f.dir), 'a hermes command on PATH'] };
}

/**
 * The places an installation serving the home may be, first that exists first: the installers'
 * folders that exist, then where each `hermes` command leads. Lazy: a folder that decides ends the
 * search before any command is read. `platform` and `fs` are this machine's unless given.
 */
export function* locateInstalls(query: BuildQuery, platform: NodeJS.Platform = process.platform, fs: InstallFs = diskInstallFs): Generator<LocatedInstall> {
  const { folders, commands } = installCandidates(query.homeRoot, query.env, platform);
  // A folder that is there decides, readable or not: it is where the installer put Hermes.
  for (const { dir, clue } of folders) if (fs.entryExists(dir)) yield { dir, clue, decides: true };
  // A command is only a clue: one that leads to no readable installation is passed over.
  const seams = { fs, flavour: flavourOfPlatform(platform) };
  for (const command of commands) {
    for (const target of commandTargets(command, seams)) yield { dir: target.dir, clue: 'command', decides: false, layout: target.layout };
  }
}

/** `~/x` (`~\x` on Windows) as a shell would read it; other paths resolved against the working directory. */
function expandHome(dir: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const p = flavourOfPlatform(platform);
  if (dir === '~' || dir.startsWith('~/') || dir.startsWith('~\\')) return p.join(userHome(env, platform), dir.slice(1));
  return p.resolve(dir);
}
