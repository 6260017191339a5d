// What a session's sources, verdicts and judgements are kept under, for the analysis and the save
// preview alike: a preview starts from the analysis's judgement of the same sources.
import type { ProfileConfig } from '../profile/config';
import { skillsPlatformOf } from '../sources/skills';

/**
 * The session's cwd ('' for none), and the platform whose skills.platform_disabled list applies
 * to it, if any (the same sources otherwise).
 */
export function sourcesKey(config: Pick<ProfileConfig, 'platformDisabledSkills'>, session: { readonly cwd: string | undefined; readonly source: string | undefined }): string {
  const platform = skillsPlatformOf(config, session.source);
  return platform === undefined ? session.cwd ?? '' : `${session.cwd ?? ''}\u0000${platform}`;
}
