// Entry points shared by the CLI and the language server: which home, which profiles.
import { locateHome, readHome, selectProfile } from './home';
import type { HermesHome, Profile } from '../model';

export interface ProfileSelection {
  /** `--home`; else HERMES_HOME; else ~/.hermes. */
  readonly home?: string;
  /** `-p NAME`; else the active profile. */
  readonly profile?: string;
  /** `--all-profiles`, or an explicit list (the extension's `hermesLens.profiles`). */
  readonly allProfiles?: boolean;
  readonly profiles?: readonly string[];
}

export function openHome(selection: ProfileSelection, env: NodeJS.ProcessEnv = process.env): HermesHome {
  return readHome(locateHome(selection.home, env));
}

export function selectedProfiles(home: HermesHome, selection: ProfileSelection): Profile[] {
  if (selection.allProfiles) return [...home.profiles];
  if (selection.profiles && selection.profiles.length > 0) return selection.profiles.map((name) => selectProfile(home, name));
  return [selectProfile(home, selection.profile)];
}
