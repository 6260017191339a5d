// What a refresh does and when a request would not be read, in the words every view uses (the CLI,
// the server's answers, the editor's confirmation): one place, so they never say different things.
import type { HermesBuild } from '../install/hermesBuild';
import { LAST_RELEASE_WITHOUT_REFRESH } from '../install/describeBuild';
import type { RefreshStrategy } from './requestRefresh';
import { CLEAR_PROMPT_DRAWBACKS } from '../../../shared/adoptionWords';

export { CLEAR_PROMPT_DRAWBACKS };

/** One sentence on what a refresh does, for a confirmation. */
export function refreshEffect(strategy: RefreshStrategy, scope: 'profile' | 'session', alsoRebuiltFresh: number, otherBuildFresh = 0): string {
  if (strategy === 'clear-prompt') {
    return `Clears the stored prompt of each session, the older way for Hermes builds without refresh-prompts: each rebuilds it on its next turn, but ${CLEAR_PROMPT_DRAWBACKS}.`;
  }
  const rebuild = 'Each session rebuilds its system prompt at the start of its next turn; history and session ids are kept.';
  if (scope === 'session') return rebuild;
  const n = alsoRebuiltFresh;
  const also = n === 0 ? '' : n === 1 ? ' The fresh session rebuilds the same prompt and keeps its cache: no cost, not counted above.' : ` The ${n} fresh sessions rebuild the same prompt and keep their cache: no cost, not counted above.`;
  const m = otherBuildFresh;
  const other =
    m === 0
      ? ''
      : ` ${m === 1 ? 'One fresh session was' : `${m} fresh sessions were`} built by another Hermes build: ${m === 1 ? 'it rebuilds' : 'they rebuild'} with today's build's own text, a prompt-cache miss for each still warm (not counted above).`;
  return `Records Hermes' profile-wide refresh request. ${rebuild}${also}${other}`;
}

/**
 * Why no refresh request (epoch) may be written for this build, or undefined when one may: a build
 * without refresh-prompts would never read it, and an installation that cannot be read cannot say.
 */
export function requestBlockedBy(build: HermesBuild | undefined): string | undefined {
  if (build?.kind === 'found' && !build.refreshPrompts) {
    return `Hermes ${build.version} (${build.dir}) cannot adopt a refresh request: its CLI does not offer refresh-prompts, which came after ${LAST_RELEASE_WITHOUT_REFRESH}, so a request would never be read.`;
  }
  if (build?.kind === 'unreadable') return `${build.problem} Whether this build reads a refresh request cannot be told.`;
  return undefined;
}

/** A refused request (`blocked` says why), with the older way that works with any build. */
export function requestRefused(blocked: string): string {
  return (
    `${blocked} The older way, clearing the stored prompt (--strategy clear-prompt; hermesLens.refreshStrategy in the editor), works with any build: ` +
    `each session rebuilds on its next turn, but ${CLEAR_PROMPT_DRAWBACKS}. Nothing was written.`
  );
}
