// The stored prompt of a demo session, built as Hermes builds one: today's sources of the profile
// (renderSources) assembled by the shared prompt builder (buildSystemPrompt). This module only
// gathers the session-side inputs (profile line, trailer, runtime block); it renders nothing itself.
import path = require('node:path');
import type { ProfileConfig } from '../hermes/profile/config';
import { buildSystemPrompt } from '../hermes/sources/promptBuilder';
import type { ActiveProfile, RuntimeInput } from '../hermes/sources/promptLines';
import { renderSources, type RenderOptions } from '../hermes/sources/renderSources';
import type { RenderedSources } from '../hermes/sources/types';

/** A fixed host and user home for the runtime block, so generated prompts do not depend on the machine. */
export const DEMO_HOST = 'Linux (6.8.0-49-generic)';
export const DEMO_USER_HOME = '/home/hermes';

export interface SessionPromptInput {
  readonly profileDir: string;
  readonly config: ProfileConfig;
  readonly cwd: string | undefined;
  readonly sessionId: string;
  readonly model: string;
  readonly provider: string | undefined;
  /** The trailer's `Platform:` (Hermes writes the session's source). */
  readonly platform: string;
  readonly startedAt: number;
  /** When the prompt is built; a rebuild on a later day adds Hermes' "Today's date" line. */
  readonly builtAt?: number;
  /** Hermes' `pass_session_id`: a `Session ID:` line in the trailer. */
  readonly passSessionId?: boolean;
  /** `stable` reproduces older builds that kept the skills index in the stable tier. */
  readonly skillsIndexTier?: 'stable' | 'volatile';
  readonly renderOptions?: RenderOptions;
}

export interface SessionPrompt {
  readonly prompt: string;
  /** What the sources rendered at build time (tests compare it with later renderings). */
  readonly sources: RenderedSources;
}

/** `<root>/profiles/<name>` is the named profile `name`; any other directory is the root's `default`. */
export function activeProfileOf(profileDir: string): ActiveProfile {
  const parent = path.dirname(profileDir);
  if (path.basename(parent) === 'profiles') {
    return { name: path.basename(profileDir), root: path.dirname(parent), dir: profileDir };
  }
  return { name: 'default', root: profileDir };
}

export function buildSessionPrompt(input: SessionPromptInput): SessionPrompt {
  const sources = renderSources({ dir: input.profileDir }, input.config, input.cwd, input.renderOptions);
  const runtime: RuntimeInput = { host: DEMO_HOST, home: DEMO_USER_HOME, cwd: input.cwd ?? DEMO_USER_HOME };
  const prompt = buildSystemPrompt({
    sources,
    callerSystemMessage: input.config.agentSystemPrompt,
    activeProfile: activeProfileOf(input.profileDir),
    skillsIndexTier: input.skillsIndexTier ?? 'volatile',
    trailer: {
      startedAt: input.startedAt,
      now: input.builtAt ?? input.startedAt,
      sessionId: input.passSessionId ? input.sessionId : undefined,
      model: input.model,
      provider: input.provider,
      platform: input.platform,
    },
    runtime,
  });
  return { prompt, sources };
}
