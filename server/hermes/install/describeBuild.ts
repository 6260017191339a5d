// The detected Hermes build in words and as JSON: one sentence for the status line, the status item
// and the refresh confirmation, and one shape for `--json` and the language server's messages.
import type { HermesBuild } from './hermesBuild';

/** The last release without the refresh-prompts protocol (it was merged into Hermes main after it). */
export const LAST_RELEASE_WITHOUT_REFRESH = 'v0.22.5';

/** What a session carrying a refresh request its build cannot adopt shows instead of "pending". */
export const UNADOPTABLE_REQUEST = 'requested, but this Hermes build cannot adopt it';

export interface HermesBuildJson {
  /** pyproject.toml's version; null when no installation was found or read. */
  version: string | null;
  /** The installation folder; null when none was found. */
  path: string | null;
  /** Whether it reads refresh requests; null when that cannot be told (nothing found, or unreadable). */
  refresh: boolean | null;
  /** Why the installation cannot be read (names the path and what to do); null when it can. */
  problem: string | null;
  /** The one sentence the views show. */
  summary: string;
}

export function hermesBuildJson(build: HermesBuild): HermesBuildJson {
  switch (build.kind) {
    case 'found':
      return { version: build.version, path: build.dir, refresh: build.refreshPrompts, problem: null, summary: buildSummary(build) };
    case 'unreadable':
      return { version: null, path: build.dir, refresh: null, problem: build.problem, summary: buildSummary(build) };
    case 'not-found':
      return { version: null, path: null, refresh: null, problem: null, summary: buildSummary(build) };
  }
}

export function buildSummary(build: HermesBuild): string {
  switch (build.kind) {
    case 'found':
      return build.refreshPrompts
        ? `Hermes ${build.version} (${build.dir}) adopts refresh requests.`
        : `Hermes ${build.version} (${build.dir}) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after ${LAST_RELEASE_WITHOUT_REFRESH}.`;
    case 'unreadable':
      return build.problem;
    case 'not-found':
      return (
        'No Hermes installation found for this home (a remote gateway?): a refresh records the profile-wide request, ' +
        `which Hermes after ${LAST_RELEASE_WITHOUT_REFRESH} adopts. Name the installation with --hermes-install (hermesLens.hermesInstall in the editor) if it is elsewhere.`
      );
  }
}
