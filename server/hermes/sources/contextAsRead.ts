// Today's project context as the build that wrote a stored prompt reads it. Builds differ in what
// they make of a folder's AGENTS.override.md (AgentsOverrideReading), and a prompt is judged against
// what its own build would load today: an override it never reads does not make it stale.
import { readsNoAgentsOverride } from '../anatomy/hermesProse';
import type { PromptAnatomy } from '../anatomy/types';
import { labelBasename, labelDirname } from '../pathFlavour';
import type { AgentsOverrideReading } from './projectContext';
import type { ProjectContext } from './types';

/** What a stored prompt shows of its build's reading of AGENTS.override.md. */
export interface StoredContextReading {
  /** The labels of the prompt's project-context sections (`AGENTS.md`, `../AGENTS.override.md`). */
  readonly labels: readonly string[];
  /** Its prose is that of a build up to 0.20.1, which reads no override (readsNoAgentsOverride). */
  readonly readsNoOverride: boolean;
}

/** What a parsed prompt's project-context sections and prose show of its build's reading. */
export function storedReadingOf(stored: PromptAnatomy): StoredContextReading {
  return { labels: stored.projectSections.map((s) => s.label), readsNoOverride: readsNoAgentsOverride(stored.blocks) };
}

/** contextAsRead for a parsed prompt, reading the prompt only where builds differ (most folders hold no override). */
export function contextAsReadBy(today: ProjectContext, stored: PromptAnatomy): ProjectContext {
  return today.otherReadings ? contextAsRead(today, storedReadingOf(stored)) : today;
}

/** `today` (read as Hermes from 0.20.3 does), or what the prompt's build loads instead. */
export function contextAsRead(today: ProjectContext, stored: StoredContextReading): ProjectContext {
  const other = today.otherReadings;
  if (!other) return today;
  const reading = overrideReadingOf(stored);
  return reading === 'instead' ? today : other[reading];
}

/**
 * A prompt carrying a folder's AGENTS.md and its override both was written by a build that appends
 * the override; one whose prose is older than the override reads none. Any other prompt is taken
 * to read it as releases do now (0.20.2 reads none either, but its prose cannot be told from 0.20.3's).
 */
export function overrideReadingOf(stored: StoredContextReading): AgentsOverrideReading {
  const overrideFolders = new Set<string>();
  // Labels are Hermes' relative paths: `../AGENTS.md`, or `..\AGENTS.md` from a Windows session.
  for (const label of stored.labels) if (labelBasename(label) === OVERRIDE) overrideFolders.add(labelDirname(label));
  if (overrideFolders.size > 0 && stored.labels.some((label) => PLAIN.has(labelBasename(label)) && overrideFolders.has(labelDirname(label)))) return 'appended';
  return stored.readsNoOverride ? 'ignored' : 'instead';
}

const OVERRIDE = 'AGENTS.override.md';
const PLAIN = new Set(['AGENTS.md', 'agents.md']);
