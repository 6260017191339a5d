// The Hermes build that serves a home, as read from its installation on disk (detectBuild.ts).
// Whether a session can adopt a refresh request depends on it: `hermes sessions refresh-prompts`
// and the epoch it records exist only in builds that have `agent/prompt_refresh.py`
// (docs/HERMES-INSTALLS.md).

/** What led to the installation: the setting or flag, the installer's locations, or a `hermes` command. */
export type InstallClue = 'setting' | 'HERMES_INSTALL_DIR' | 'home' | 'system' | 'command';

export type HermesBuild =
  | {
      readonly kind: 'found';
      /** The installation folder (a checkout or an unpacked tarball), as it was named or found. */
      readonly dir: string;
      /** `version` of its pyproject.toml. */
      readonly version: string;
      /** Whether it has the refresh-prompts protocol (`agent/prompt_refresh.py`). */
      readonly refreshPrompts: boolean;
      readonly clue: InstallClue;
    }
  | {
      /** No installation on this machine serves the home (a remote gateway, a container). */
      readonly kind: 'not-found';
      /** The folders and commands looked at, for the message. */
      readonly looked: readonly string[];
    }
  | {
      /** An installation was named or found but cannot be read: `problem` names the path and what to do. */
      readonly kind: 'unreadable';
      readonly dir: string;
      readonly problem: string;
      readonly clue: InstallClue;
    };

/**
 * Whether sessions of this build take up a refresh request (the epoch in state_meta). Unknown
 * (nothing found, or unreadable) counts as yes: the profile-wide request is the default there.
 */
export function adoptsRefreshRequests(build: HermesBuild): boolean {
  return !(build.kind === 'found' && !build.refreshPrompts);
}
