// The Hermes build that serves a home, as read from its installation on disk (detectBuild.ts).
// Whether a session can adopt a refresh request depends on it: `hermes sessions refresh-prompts`
// and the epoch it records exist only in builds whose CLI offers that subcommand, and the names
// the build's code gives them are read from its sources (protocolReading.ts, docs/HERMES-INSTALLS.md).
import type { ProtocolReading } from './protocolReading';

/** What led to the installation: the setting or flag, the installer's locations, or a `hermes` command. */
export type InstallClue = 'setting' | 'HERMES_INSTALL_DIR' | 'home' | 'system' | 'command';

export type HermesBuild =
  | {
      readonly kind: 'found';
      /** The installation folder (a checkout or an unpacked tarball), as it was named or found. */
      readonly dir: string;
      /** `version` of its pyproject.toml. */
      readonly version: string;
      /** Whether it has the refresh-prompts protocol (its CLI offers the subcommand, or protocol.clue says what else shows it). */
      readonly refreshPrompts: boolean;
      /** What its sources show of the protocol: the clue, and the names read next to it. */
      readonly protocol: ProtocolReading;
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
