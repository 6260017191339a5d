// Today's skills index as the build that wrote a stored prompt lists it. Hermes from 0.20.3 lists
// the skills of a trusted project first (withProjectSkills); older builds list none, so a prompt
// they wrote is judged against the index without them (`withoutProject`): a project skill its
// build never reads does not make it stale. Where the prose cannot tell (0.20.2 writes 0.20.3's),
// a prompt is taken to read them as releases do now, as contextAsRead does for AGENTS.override.md.
import { readsNoProjectSkills, type ProseBlock } from '../anatomy/hermesProse';
import type { PromptAnatomy } from '../anatomy/types';
import type { SkillsIndex } from './types';

/** `today` for a prompt of these blocks: without the project's skills where its build reads none. */
export function skillsAsReadIn(today: SkillsIndex, blocks: readonly ProseBlock[]): SkillsIndex {
  return today.withoutProject && readsNoProjectSkills(blocks) ? today.withoutProject : today;
}

/** skillsAsReadIn for a parsed prompt. */
export function skillsAsReadBy(today: SkillsIndex, stored: PromptAnatomy): SkillsIndex {
  return today.withoutProject ? skillsAsReadIn(today, stored.blocks) : today;
}
