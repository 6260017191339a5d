// Everything one profile's sources render today for one session cwd: the inputs of staleness, of
// `rebuildPrompt` and of the language-server features.
import path = require('node:path');
import { diskFs } from '../fs/diskFs';
import type { SourceFs } from '../fs/sourceFs';
import type { ProfileConfig } from '../profile/config';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_USER_LIMIT, readMemory } from './memory';
import { discoverProjectContext } from './projectContext';
import { readSkillsIndex } from './skills';
import { readSoul } from './soul';
import { contextFileCap } from './truncate';
import type { MemorySource, ProjectContext, RenderedSources } from './types';

export interface RenderOptions {
  /** What the sources are read through; the disk by default. */
  readonly fs?: SourceFs;
  /** The model's context window in tokens, when known: it sets the context-file cap. */
  readonly contextWindow?: number;
  /** Passed to project-context discovery (tests keep the upward search inside a temp dir). */
  readonly stopAt?: string;
  /** `sys.platform` to filter skills for; defaults to this machine's. */
  readonly platform?: string;
  /** The Hermes platform whose `skills.platform_disabled` list applies (skillsPlatformOf); none by default. */
  readonly sessionPlatform?: string;
  /** What `~` and `$VAR` in config.yaml's folder lists are expanded from; the process's by default. */
  readonly env?: NodeJS.ProcessEnv;
}

const NO_PROJECT_CONTEXT: ProjectContext = { kind: 'none', files: [], shadowed: [], block: '', problems: [] };

export function renderSources(
  profile: { readonly dir: string },
  config: ProfileConfig,
  cwd: string | undefined,
  options: RenderOptions = {},
): RenderedSources {
  const own = renderProfileSources(profile, config, options);
  return { soul: own.soul, skills: own.skills, projectContext: renderProjectContext(config, cwd, options), memory: own.memory, user: own.user };
}

/** The sources that belong to the profile, the same for every session cwd. */
export type ProfileSources = Omit<RenderedSources, 'projectContext'>;

/**
 * SOUL.md, the skills index, MEMORY.md and USER.md: read once per profile, not once per cwd. Parts
 * given in `reuse` (still current, e.g. kept by the language server across a save of another
 * file) are taken as they are.
 */
export function renderProfileSources(
  profile: { readonly dir: string },
  config: ProfileConfig,
  options: RenderOptions = {},
  reuse: Partial<ProfileSources> = {},
): ProfileSources {
  const fs = options.fs ?? diskFs;
  return {
    soul: reuse.soul ?? readSoul(fs, profile.dir, config, options.contextWindow),
    skills: reuse.skills ?? readSkillsIndex(fs, path.join(profile.dir, 'skills'), config, options.platform, options.sessionPlatform, options.env),
    memory: reuse.memory ?? renderMemoryFile(profile, 'memory', fs),
    user: reuse.user ?? renderMemoryFile(profile, 'user', fs),
  };
}

/** The profile's MEMORY.md or USER.md as a prompt holds it. */
export function renderMemoryFile(profile: { readonly dir: string }, kind: 'memory' | 'user', fs: SourceFs = diskFs): MemorySource {
  return kind === 'memory'
    ? readMemory(fs, path.join(profile.dir, 'memories', 'MEMORY.md'), 'memory', DEFAULT_MEMORY_LIMIT)
    : readMemory(fs, path.join(profile.dir, 'memories', 'USER.md'), 'user', DEFAULT_USER_LIMIT);
}

/** The project context a session working in `cwd` loads (none without a cwd). */
export function renderProjectContext(config: ProfileConfig, cwd: string | undefined, options: RenderOptions = {}): ProjectContext {
  if (!cwd) return NO_PROJECT_CONTEXT;
  const cap = contextFileCap(config, options.contextWindow);
  return discoverProjectContext(options.fs ?? diskFs, cwd, { maxChars: cap, ...(options.stopAt ? { stopAt: options.stopAt } : {}) });
}
