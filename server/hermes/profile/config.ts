// A profile's config.yaml, read tolerantly: only the keys the lens needs, each with its default.
// A YAML error is reported (file and line) and the defaults are used, so one bad file never stops
// the rest of the profile from being shown.
import { readPlainYaml } from '../text/plainYaml';
import { diskFs } from '../fs/diskFs';
import { utf8Of, type SourceFs } from '../fs/sourceFs';
import { yamlLibrary } from '../text/yamlLibrary';
import { configNames, pythonStr } from './configNames';

/** `off`: Hermes caches no prompt (docs/PROMPT-CACHING.md). */
export type CacheTtlSetting = '5m' | '1h' | 'auto' | 'off';

export interface ProfileConfig {
  /** `database.backend`; `postgres` means state.db is not used (§1). */
  readonly databaseBackend: 'sqlite' | 'postgres';
  /** `prompt_caching.cache_ttl` (§6). */
  readonly cacheTtl: CacheTtlSetting;
  /** `context_file_max_chars` (§4), when set. */
  readonly contextFileMaxChars: number | undefined;
  /** `agent.system_prompt`: the caller's system message of the context tier (§3). */
  readonly agentSystemPrompt: string | undefined;
  /** `skills.disabled` (§4). */
  readonly disabledSkills: readonly string[];
  /** `skills.platform_disabled`: the names disabled on each platform besides `disabledSkills` (§4). */
  readonly platformDisabledSkills: ReadonlyMap<string, readonly string[]>;
  /** `skills.external_dirs` as written (externalSkillDirs resolves them) (§4). */
  readonly externalSkillDirs: readonly string[];
  /** `agent.disabled_toolsets`: toolsets Hermes leaves out of every session's tools, read as `skills.disabled` is. */
  readonly disabledToolsets: readonly string[];
  /** A problem reading the file, for diagnostics and the CLI. */
  readonly problem: string | undefined;
}

export const DEFAULT_CONFIG: ProfileConfig = {
  databaseBackend: 'sqlite',
  cacheTtl: '5m',
  contextFileMaxChars: undefined,
  agentSystemPrompt: undefined,
  disabledSkills: [],
  platformDisabledSkills: new Map(),
  externalSkillDirs: [],
  disabledToolsets: [],
  problem: undefined,
};

/** config.yaml through `fs` (the disk unless the caller records or overlays it). */
export function readProfileConfig(file: string, fs: SourceFs = diskFs): ProfileConfig {
  let text: string;
  try {
    text = utf8Of(fs.read(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_CONFIG;
    return { ...DEFAULT_CONFIG, problem: `Cannot read ${file} (${(error as Error).message}); using defaults. Check the file and its permissions (Hermes reads it too).` };
  }
  return parseProfileConfig(text, file);
}

export function parseProfileConfig(text: string, file: string): ProfileConfig {
  // Plain block YAML (most config files) is read without the library, to the same value.
  let raw = readPlainYaml(text);
  try {
    // logLevel 'error': warnings (an unknown tag) would go to stderr quoting the line, config text included.
    if (raw === undefined) raw = yamlLibrary().parse(text, { prettyErrors: true, logLevel: 'error' });
  } catch (error) {
    const first = (error as Error).message.split('\n')[0];
    return { ...DEFAULT_CONFIG, problem: `${file} is not valid YAML (${first}); using defaults. Fix the file for Hermes too.` };
  }
  const root = asRecord(raw);
  const database = asRecord(root.database);
  const caching = asRecord(root.prompt_caching);
  const agent = asRecord(root.agent);
  const skills = asRecord(root.skills);
  const maxChars = Number(root.context_file_max_chars ?? agent.context_file_max_chars);
  return {
    databaseBackend: String(database.backend ?? '').toLowerCase() === 'postgres' ? 'postgres' : 'sqlite',
    cacheTtl: cacheTtlOf('cache_ttl' in caching ? caching.cache_ttl : '5m'),
    contextFileMaxChars: Number.isFinite(maxChars) && maxChars > 0 ? maxChars : undefined,
    agentSystemPrompt: typeof agent.system_prompt === 'string' && agent.system_prompt ? agent.system_prompt : undefined,
    disabledSkills: configNames(skills.disabled),
    platformDisabledSkills: platformLists(skills.platform_disabled),
    externalSkillDirs: externalDirEntries(skills.external_dirs),
    disabledToolsets: configNames(agent.disabled_toolsets),
    problem: undefined,
  };
}

/**
 * `skills.platform_disabled`: a list per platform. A key whose value is null adds nothing (Hermes
 * tests `is not None`); a lone string is one name.
 */
function platformLists(value: unknown): ReadonlyMap<string, readonly string[]> {
  const lists = new Map<string, readonly string[]>();
  for (const [platform, names] of Object.entries(asRecord(value))) {
    if (names === null || names === undefined) continue;
    lists.set(platform, configNames(names));
  }
  return lists;
}

/** `skills.external_dirs`: a list, or one string; each entry's `str()`, stripped, empty ones dropped. */
function externalDirEntries(value: unknown): string[] {
  if (!value) return [];
  const entries = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return entries.map((entry) => pythonStr(entry).trim()).filter(Boolean);
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

// What turns Hermes' prompt caching off, compared with the value's text in lower case (`cache_ttl_means_disabled`).
const CACHING_OFF = new Set(['off', 'false', 'disabled', 'no', 'none']);

/**
 * `prompt_caching.cache_ttl` as Hermes reads it: exactly `5m` or `1h` (and `auto`, which later builds
 * add); null or false, or one of CACHING_OFF in any case (untrimmed), turns caching off; anything
 * else is the default `5m`. Checked against Hermes' own readers (test/fixtures/hermes-builds/config-readings.json).
 */
function cacheTtlOf(value: unknown): CacheTtlSetting {
  if (value === '5m' || value === '1h' || value === 'auto') return value;
  if (value === null || value === undefined || value === false) return 'off';
  return CACHING_OFF.has(String(value).toLowerCase()) ? 'off' : '5m';
}
