// Hermes' opt-in focus mode (`agent.coding_context: focus`, every build we read) lists the skills
// of non-coding categories by name only in a coding session's index: `  <category> [names only]:
// a, b`. Such a line carries the names, not the descriptions, so a refresh writes today's names
// the same way (the session's posture does not change with the files).
import { skillIndexLines } from '../anatomy/sections';
import { sortByCodePoints } from '../text/pyText';

/** `coding_context._NON_CODING_SKILL_CATEGORIES` (0.19.1 to 0.20.3 alike): matched on a category's first segment. */
const NON_CODING_CATEGORIES = new Set([
  'apple', 'communication', 'cooking', 'creative', 'email', 'finance', 'gaming', 'gifs', 'health', 'media', 'music',
  'note-taking', 'productivity', 'shopping', 'smart-home', 'social-media', 'travel', 'yuanbao',
]);

/** The categories a stored skills block lists by name only (none: the session's posture demotes nothing). */
export function namesOnlyCategories(storedBlock: string): Set<string> {
  return new Set(skillIndexLines(storedBlock).lines.filter((line) => line.namesOnly).map((line) => line.category));
}

/**
 * Today's index list (the lines between the tags, as renderSkillsIndex writes them) as a session
 * that demoted the `stored` categories writes it: those, and any other non-coding category, by name only.
 */
export function demotedList(list: string, stored: ReadonlySet<string>): string {
  if (stored.size === 0) return list;
  const demoted = (category: string) => stored.has(category) || NON_CODING_CATEGORIES.has(category.split('/')[0]!);
  // Category by category: its line, then its skills' lines.
  const groups: Array<{ header: string; category: string; skills: string[] }> = [];
  for (const line of list.split('\n')) {
    if (line.startsWith('    - ') && groups.length > 0) groups[groups.length - 1]!.skills.push(line);
    else groups.push({ header: line, category: line.slice(2).split(': ', 1)[0]!.replace(/:$/, ''), skills: [] });
  }
  return groups
    .map(({ header, category, skills }) => {
      if (!demoted(category)) return [header, ...skills].join('\n');
      const names = sortByCodePoints([...new Set(skills.map((line) => line.slice(6).split(': ', 1)[0]!))]);
      return `  ${category} [names only]: ${names.join(', ')}`;
    })
    .join('\n');
}
