// Commands are run from the tree (with a node), from the palette (no argument: a quick pick), from an
// editor title (with a hermes-prompt Uri), from the save notification (a profile name) and by other
// extensions or tests (a SessionRef). These read any of those. Pure: no vscode import.
import type { SessionRef } from '../../shared/protocol';
import { PROMPT_SCHEME } from '../ids';
import { parsePromptUri } from '../promptUri';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A profile name out of a tree node, a string, `{ profile }` or a hermes-prompt Uri. */
export function profileFromArg(arg: unknown): string | undefined {
  if (typeof arg === 'string') return str(arg);
  if (!isObject(arg)) return undefined;
  if (arg.kind === 'profile' && isObject(arg.profile)) return str(arg.profile.name);
  if (typeof arg.profile === 'string') return str(arg.profile);
  return sessionFromArg(arg)?.profile;
}

/** A session out of a tree node, a SessionRef, a SessionDto or a hermes-prompt Uri. */
export function sessionFromArg(arg: unknown): SessionRef | undefined {
  if (!isObject(arg)) return undefined;
  if (arg.kind === 'session' && isObject(arg.session)) {
    const profile = str(arg.profile);
    const sessionId = str(arg.session.id);
    return profile && sessionId ? { profile, sessionId } : undefined;
  }
  if (arg.scheme === PROMPT_SCHEME && typeof arg.path === 'string') {
    const ref = parsePromptUri({ path: arg.path, query: typeof arg.query === 'string' ? arg.query : '' });
    return ref ? { profile: ref.profile, sessionId: ref.sessionId } : undefined;
  }
  const profile = str(arg.profile);
  const sessionId = str(arg.sessionId) ?? str(arg.id);
  return profile && sessionId ? { profile, sessionId } : undefined;
}
