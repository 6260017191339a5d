// The skills index of the prompt (docs/HERMES-FORMATS.md §4): one line per visible skill, its
// frontmatter name and description cut to 60 characters, grouped by category. Only those fields
// reach the prompt, so editing a skill's body changes nothing here.
import path = require('node:path');
import type { ProfileConfig } from '../profile/config';
import { frontmatterValueSpan, parseFrontmatter } from '../text/frontmatter';
import { isJsWhitespace } from '../text/jsWhitespace';
import { lineRange, positionsOf } from '../text/positions';
import { codePointLength, compareCodePoints, pyStr, pyStrip, sliceCodePoints, unitOffset } from '../text/pyText';
import { isFolder, readText } from '../fs/readText';
import { utf8Of, type SourceFs } from '../fs/sourceFs';
import { externalSkillDirs } from './externalSkillDirs';
import { findSkillFiles, ORG_MIRROR_DIR } from './skillTree';
import type { SkillEntry, SkillsIndex, SourceProblem } from './types';

const DESCRIPTION_LIMIT = 60;
/** `{B}` of the block: the tool list of a session is unknown here, so Hermes' default wording. */
const BASIC_TOOLS = 'web_search or terminal';
const PLATFORM_ALIASES: Readonly<Record<string, string>> = { macos: 'darwin', linux: 'linux', windows: 'win32' };

/** A skill as the index sees it: its text's fields and, for an org mirror's skill, the org's author. */
interface Candidate extends SkillText {
  readonly orgAuthor: string;
}

/**
 * The index as Hermes renders it on this machine (`platform`, its `sys.platform`) for a session
 * whose Hermes platform is `sessionPlatform` (skillsPlatformOf; none for the CLI).
 */
export function readSkillsIndex(
  fs: SourceFs,
  skillsDir: string,
  config: Pick<ProfileConfig, 'disabledSkills'> & Partial<Pick<ProfileConfig, 'platformDisabledSkills' | 'externalSkillDirs'>>,
  platform: string = process.platform,
  sessionPlatform?: string,
  /** What `~` and `$VAR` in `skills.external_dirs` are expanded from. */
  env: NodeJS.ProcessEnv = process.env,
): SkillsIndex {
  const problems: SourceProblem[] = [];
  const disabled = disabledSet(config, sessionPlatform);
  const files = findSkillFiles(fs, skillsDir);
  const placeOf = walkedPlaces(skillsDir);
  const candidates = files.skills.map((file) => readCandidate(fs, skillsDir, file, placeOf(file), disabled, platform, problems));
  const descriptions = readCategoryDescriptions(fs, skillsDir, files.descriptions, problems);
  // `skills.external_dirs`, in order: their skills come after the profile's own, whose names win.
  const external: Candidate[] = [];
  const externalDirs = externalSkillDirs(fs, path.dirname(path.resolve(skillsDir)), config.externalSkillDirs ?? [], env);
  for (const dir of externalDirs) {
    const found = findSkillFiles(fs, dir);
    const placeIn = walkedPlaces(dir);
    for (const file of found.skills) external.push(externalCandidate(readCandidate(fs, dir, file, placeIn(file), disabled, platform, problems)));
    descriptions.push(...readCategoryDescriptions(fs, dir, found.descriptions, problems).map((d) => ({ ...d, external: true })));
  }
  const inputs: IndexInputs = { candidates, external, externalDirs, descriptions, disabled };
  return assembled(inputs, problems, problems);
}

/**
 * The index of a session whose project Hermes trusts (projectSkillDirs): `index` (the profile's,
 * for that session's platform) with the skills of the project's folders listed first, as Hermes
 * from 0.20.3 lists them (`PB._build_skills_system_prompt_inner`): each with its description
 * tagged `[project] `, the first of a name among them winning, and a profile or external skill of
 * that name left out. The index keeps `index` as `withoutProject`, what older builds list.
 */
export function withProjectSkills(fs: SourceFs, index: SkillsIndex, dirs: readonly string[], platform: string = process.platform): SkillsIndex {
  const inputs = inputsOf.get(index);
  if (!inputs || dirs.length === 0) return index;
  const problems = [...index.problems];
  const project: Candidate[] = [];
  for (const dir of dirs) {
    const found = findSkillFiles(fs, dir);
    const placeIn = walkedPlaces(dir);
    // Filed by its path below that folder, never as an org mirror's (Hermes labels none of them).
    for (const file of found.skills) project.push(externalCandidate(readCandidate(fs, dir, file, placeIn(file), inputs.disabled, platform, problems)));
  }
  // The profile's own clashes are the profile index's problems already: only the project's are added.
  return assembled({ ...inputs, project, projectDirs: dirs, withoutProject: index }, [], problems, problems);
}

/** What an index was built from: what `withSkillText` and `withCategoryText` need to build it again with one file's text. */
interface IndexInputs {
  /** The skills of the trusted project folders, listed before all others (withProjectSkills), and those folders. */
  readonly project?: readonly Candidate[];
  readonly projectDirs?: readonly string[];
  /** With `project`: the index without them. */
  readonly withoutProject?: SkillsIndex;
  readonly candidates: readonly Candidate[];
  /** The skills of `skills.external_dirs`, after the profile's own, and those folders. */
  readonly external: readonly Candidate[];
  readonly externalDirs: readonly string[];
  /** Each DESCRIPTION.md read, in the order Hermes reads them (the profile's, then each external folder's). */
  readonly descriptions: readonly CategoryText[];
  /** The skills.disabled names, and its platform_disabled list for a platform's index. */
  readonly disabled: ReadonlySet<string>;
}

/** One DESCRIPTION.md: the category it describes and its description (undefined when it gives none). */
interface CategoryText {
  readonly file: string;
  readonly category: string;
  readonly description: string | undefined;
  /** From an external folder: it describes a category only where none has a description yet. */
  readonly external?: boolean;
}

/**
 * The index `inputs` make; `labelProblems` receives the name clashes found on the way among the
 * profile's and external skills, `projectProblems` those among the project's.
 */
function assembled(inputs: IndexInputs, labelProblems: SourceProblem[], problems: readonly SourceProblem[], projectProblems: SourceProblem[] = labelProblems): SkillsIndex {
  const project = inputs.project ? projectEntries(inputs.project, projectProblems) : [];
  const own = labelEntries(inputs.candidates, labelProblems, project.length > 0 ? new Set(project.filter((e) => e.visible).map((e) => e.name)) : undefined);
  const entries = project.length > 0 ? [...project, ...own] : own;
  if (inputs.external.length > 0) entries.push(...externalEntries(inputs.external, entries, labelProblems));
  const categories = categoriesOf(inputs.descriptions);
  let index: SkillsIndex = { entries, categories, block: renderSkillsIndex(entries, categories), problems };
  if (inputs.externalDirs.length > 0) index = { ...index, externalDirs: inputs.externalDirs };
  if (inputs.projectDirs && inputs.withoutProject) index = { ...index, projectDirs: inputs.projectDirs, withoutProject: inputs.withoutProject };
  return remembered(index, inputs);
}

/** The tag Hermes puts before a project skill's description in the index. */
export const PROJECT_SKILL_TAG = '[project]';

/**
 * The entries of the project folders' skills: each listed, its description tagged, unless it is
 * left out on this platform, an earlier one of the project has its name, or skills.disabled names it.
 */
function projectEntries(project: readonly Candidate[], problems: SourceProblem[]): SkillEntry[] {
  const claimed = new Map<string, string>();
  return project.map((c) => {
    const first = c.compatible ? claimed.get(c.name) : undefined;
    if (first !== undefined) problems.push({ file: c.file, code: 'duplicate-skill', message: shadowedProjectMessage(c.name, first), range: lineRange(0) });
    const visible = c.compatible && first === undefined && !c.disabled;
    if (visible) claimed.set(c.name, c.file);
    return { name: c.name, category: c.category, description: c.description, promptDescription: pyStrip(`${PROJECT_SKILL_TAG} ${c.indexDescription}`), file: c.file, visible, eligible: visible };
  });
}

function shadowedProjectMessage(name: string, first: string): string {
  return `A project skill named "${name}" comes first (${first}); Hermes lists only that one, so this one is not in the prompt. Give one of them another name.`;
}

// Kept beside the index rather than in it: nothing else needs them, and the index's shape stays as it is.
const inputsOf = new WeakMap<SkillsIndex, IndexInputs>();

function remembered(index: SkillsIndex, inputs: IndexInputs): SkillsIndex {
  inputsOf.set(index, inputs);
  return index;
}

/**
 * The index as it would be with `skill` (analyzeSkillText of an unsaved buffer, as the saved file
 * would be) in place of its file: the other skills as `index` read them, without reading them again.
 * A file the walk did not list (an excluded folder) changes nothing, as in Hermes. The skill is
 * hidden by the lists `index` was read with: a platform's index hides its platform_disabled skills.
 */
export function withSkillText(index: SkillsIndex, skill: SkillText): SkillsIndex {
  const inputs = inputsOf.get(index);
  if (!inputs) return index;
  // skillFromText's test: `name` is the frontmatter name, or the folder's when that is empty (no list holds '').
  const disabled = inputs.disabled.has(skill.name) || inputs.disabled.has(skill.dirName);
  const replaced = (list: readonly Candidate[], external: boolean): readonly Candidate[] | undefined => {
    const at = list.findIndex((c) => c.file === skill.file);
    if (at < 0) return undefined;
    const copy = list.slice();
    // The file's place is the one it was read at (an external folder's skill is filed below that folder).
    const was = list[at]!;
    const candidate = { ...skill, category: was.category, orgId: was.orgId, disabled, orgAuthor: was.orgAuthor };
    copy[at] = external ? externalCandidate(candidate) : candidate;
    return copy;
  };
  const candidates = replaced(inputs.candidates, false);
  const external = candidates ? undefined : replaced(inputs.external, true);
  const project = candidates || external || !inputs.project ? undefined : replaced(inputs.project, true);
  if (!candidates && !external && !project) return index;
  // The profile's own skill changes what older builds list too; a project's, only what 0.20.3 lists.
  const withoutProject = inputs.withoutProject && !project ? withSkillText(inputs.withoutProject, skill) : inputs.withoutProject;
  return assembled({ ...inputs, candidates: candidates ?? inputs.candidates, external: external ?? inputs.external, project: project ?? inputs.project, withoutProject }, [], index.problems);
}

/** The index as it would be with `text` as the category's DESCRIPTION.md `file` (see withSkillText). */
export function withCategoryText(index: SkillsIndex, file: string, text: string): SkillsIndex {
  const inputs = inputsOf.get(index);
  const at = inputs ? inputs.descriptions.findIndex((d) => d.file === file) : -1;
  if (!inputs || at < 0) return index;
  const descriptions = inputs.descriptions.slice();
  descriptions[at] = { ...descriptions[at]!, description: analyzeCategoryText(file, text).description };
  const categories = categoriesOf(descriptions);
  const edited: SkillsIndex = { ...index, categories, block: renderSkillsIndex(index.entries, categories) };
  if (!inputs.withoutProject) return remembered(edited, { ...inputs, descriptions });
  // A project's index describes its categories with the profile's DESCRIPTION.md files.
  const withoutProject = withCategoryText(inputs.withoutProject, file, text);
  return remembered({ ...edited, withoutProject }, { ...inputs, descriptions, withoutProject });
}

/** The category descriptions: a later profile DESCRIPTION.md replaces an earlier one; an external one only fills a gap. */
function categoriesOf(texts: readonly CategoryText[]): Map<string, { description: string; file: string }> {
  const categories = new Map<string, { description: string; file: string }>();
  for (const { file, category, description, external } of texts) {
    if (description === undefined || (external && categories.has(category))) continue;
    categories.set(category, { description, file });
  }
  return categories;
}

/** The skills folder of `skills.external_dirs` or of a trusted project that holds `file`, else `skillsDir` (the profile's own). */
export function skillsRootOf(index: Pick<SkillsIndex, 'externalDirs' | 'projectDirs'>, skillsDir: string, file: string): string {
  return externalFolderOf(index, file) ?? projectFolderOf(index, file) ?? skillsDir;
}

/** The trusted project skills folder (withProjectSkills) that holds `file`, if any. */
export function projectFolderOf(index: Pick<SkillsIndex, 'projectDirs'>, file: string): string | undefined {
  return index.projectDirs?.find((dir) => file.startsWith(dir + path.sep));
}

/** The folder of `skills.external_dirs` that holds `file`, if any. */
export function externalFolderOf(index: Pick<SkillsIndex, 'externalDirs'>, file: string): string | undefined {
  return index.externalDirs?.find((dir) => file.startsWith(dir + path.sep));
}

/** An external folder's skill: filed by its path below that folder, never as an org mirror's. */
function externalCandidate(candidate: Candidate): Candidate {
  return candidate.orgId === undefined ? candidate : { ...candidate, orgId: undefined, orgAuthor: '' };
}

/**
 * The entries of the external folders' skills (`PB._build_skills_system_prompt_inner`): each shown
 * unless a skill of that name is already listed, by the profile or an earlier external folder.
 */
function externalEntries(external: readonly Candidate[], own: readonly SkillEntry[], problems: SourceProblem[]): SkillEntry[] {
  const listed = new Map<string, string>();
  for (const e of own) if (e.eligible && !listed.has(e.name)) listed.set(e.name, e.file);
  return external.map((c) => {
    const first = c.compatible ? listed.get(c.name) : undefined;
    if (first !== undefined) problems.push({ file: c.file, code: 'duplicate-skill', message: shadowedExternalMessage(c.name, first), range: lineRange(0) });
    const visible = c.compatible && first === undefined && !c.disabled;
    if (visible) listed.set(c.name, c.file);
    return { name: c.name, category: c.category, description: c.description, promptDescription: c.indexDescription, file: c.file, visible, eligible: visible };
  });
}

function shadowedExternalMessage(name: string, first: string): string {
  return `A skill named "${name}" is listed already (${first}); Hermes skips this one from skills.external_dirs, so it is not in the prompt. Give one of them another name.`;
}

function readCandidate(fs: SourceFs, skillsDir: string, file: string, place: SkillPlace, disabled: ReadonlySet<string>, platform: string, problems: SourceProblem[]): Candidate {
  const read = readText(fs, file, { dropBom: true });
  if (!read.ok) {
    // Hermes catches the error and still lists the skill, by directory name and without description.
    const { dirName, category, orgId } = place;
    problems.push(read.missing ? { file, code: 'unreadable', message: `${file} cannot be read (a broken link?); Hermes lists the skill as "${dirName}" with no description.` } : read.problem);
    return { file, dirName, category, orgId, orgAuthor: orgId ? orgAuthor(fs, skillsDir, orgId) : '', name: dirName, description: '', indexDescription: '', compatible: true, disabled: disabled.has(dirName), problems: [] };
  }
  const skill = skillFromText(fs, place, file, read.text, disabled, platform);
  for (const problem of skill.problems) problems.push(problem);
  // Extended in place rather than copied: object spreads were a tenth of a thousand-skill index.
  return Object.assign(skill, { orgAuthor: skill.orgId ? orgAuthor(fs, skillsDir, skill.orgId) : '' });
}

/** A SKILL.md as its text makes it: what the index line is built from, and the text's problems. */
export interface SkillText {
  readonly file: string;
  readonly dirName: string;
  /** Frontmatter `name`, else the directory name. */
  readonly name: string;
  /** The category from the path (`org:<id>` is added by the index for org mirrors). */
  readonly category: string;
  readonly orgId: string | undefined;
  /** Full description ('' when platforms or environments leave the skill out). */
  readonly description: string;
  /** The description as the index line shows it: cut to 60 characters. */
  readonly indexDescription: string;
  /** False when `platforms`/`environments` leave it out on this machine. */
  readonly compatible: boolean;
  /** Listed in `skills.disabled` (by frontmatter name or directory name). */
  readonly disabled: boolean;
  /** Frontmatter and description-cut problems, with ranges in the text. */
  readonly problems: readonly SourceProblem[];
}

/**
 * SKILL.md from its text (as an editor shows it: BOM dropped), e.g. an unsaved buffer: the fields
 * of its index line and the problems of that text. Clashes with other skills need the index:
 * see `skillNameClashes`.
 */
export function analyzeSkillText(
  fs: SourceFs,
  skillsDir: string,
  file: string,
  text: string,
  config: Pick<ProfileConfig, 'disabledSkills'>,
  platform: string = process.platform,
): SkillText {
  return skillFromText(fs, skillPlace(skillsDir, file), file, text, disabledSet(config), platform);
}

function disabledSet(config: Pick<ProfileConfig, 'disabledSkills'> & Partial<Pick<ProfileConfig, 'platformDisabledSkills'>>, sessionPlatform?: string): Set<string> {
  const forPlatform = sessionPlatform === undefined ? undefined : config.platformDisabledSkills?.get(sessionPlatform);
  return new Set([...config.disabledSkills, ...(forPlatform ?? [])].map((n) => pyStrip(n)).filter(Boolean));
}

/**
 * Sources of sessions for which Hermes binds no session platform: the CLI, the TUI, ACP editors and
 * cron (which clears it). Gateway sessions carry their platform as their source.
 */
const NO_SESSION_PLATFORM = new Set(['cli', 'tui', 'acp', 'cron']);

/**
 * The platform whose `skills.platform_disabled` list applies to a session of `source` (the session
 * row's column), or undefined when none does: Hermes reads the list of the platform the gateway
 * bound to the message, never in the CLI (docs/HERMES-FORMATS.md §4).
 */
export function skillsPlatformOf(config: Pick<ProfileConfig, 'platformDisabledSkills'>, source: string | undefined): string | undefined {
  if (source === undefined || config.platformDisabledSkills.size === 0 || NO_SESSION_PLATFORM.has(source)) return undefined;
  return config.platformDisabledSkills.has(source) ? source : undefined;
}

interface SkillPlace {
  readonly dirName: string;
  readonly category: string;
  readonly orgId: string | undefined;
}

/** Directory name, category and org of a SKILL.md, from its path under `skills/`. */
function skillPlace(skillsDir: string, file: string): SkillPlace {
  return placeFromParts(path.relative(path.resolve(skillsDir), file).split(path.sep), path.basename(path.dirname(file)));
}

/**
 * `skillPlace` for the files `findSkillFiles(skillsDir)` found: their paths are the resolved
 * folder plus the names walked, so the relative part is what follows it and the folder's name is
 * the last but one of those names (path.relative and path.basename resolved and split every path
 * again for each of a thousand skills).
 */
function walkedPlaces(skillsDir: string): (file: string) => SkillPlace {
  const root = path.resolve(skillsDir);
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return (file) => {
    if (!file.startsWith(prefix)) return skillPlace(skillsDir, file);
    const parts = file.slice(prefix.length).split(path.sep);
    return placeFromParts(parts, parts.length >= 2 ? parts[parts.length - 2]! : path.basename(root));
  };
}

/** The place of a SKILL.md in folder `dirName` from its path's names below `skills/` (the file name last). */
function placeFromParts(relative: string[], dirName: string): SkillPlace {
  let parts = relative;
  let orgId: string | undefined;
  if (parts.length >= 3 && parts[0] === ORG_MIRROR_DIR) {
    orgId = parts[1];
    parts = parts.slice(2);
  }
  // `skills/a/b/x/SKILL.md` is filed under `a/b`; a skill directly under skills/ under its own
  // directory name; only a SKILL.md at the root itself under `general` (docs/HERMES-FORMATS.md §4).
  const category = parts.length > 2 ? parts.slice(0, -2).join('/') : parts.length === 2 ? parts[0]! : 'general';
  return { dirName, category, orgId };
}

function skillFromText(fs: SourceFs, place: SkillPlace, file: string, text: string, disabled: ReadonlySet<string>, platform: string): SkillText {
  const { dirName, category, orgId } = place;
  const problems: SourceProblem[] = [];
  const fm = parseFrontmatter(text);
  const data = fm.data ?? {};
  if (fm.data === undefined && !fm.problem) {
    problems.push({
      file,
      code: 'frontmatter-missing',
      message: `This SKILL.md has no frontmatter, so Hermes lists the skill as "${dirName}" with no description. Start the file with a "---" block holding name: and description:, closed by another "---" line.`,
      range: positionsOf(text).line(0),
    });
  } else if (fm.problem) {
    const listed = fm.data === undefined ? ` Hermes lists the skill as "${dirName}" with no description.` : '';
    problems.push({ file, code: 'frontmatter-invalid', message: fm.problem.message + listed, range: positionsOf(text).line(fm.problem.line) });
  }
  const frontmatterName = 'name' in data ? pyStr(data.name) : dirName;
  const name = frontmatterName || dirName;
  const compatible = matchesPlatform(data.platforms, platform) && matchesEnvironment(fs, data.environments);
  const description = compatible ? normalizeDescription(data.description) : '';
  const cut = cutDescription(description);
  if (compatible && cut !== description) problems.push(descriptionCutProblem(file, text, name, description, cut));
  return {
    file,
    dirName,
    name,
    category,
    orgId,
    description,
    indexDescription: cut,
    compatible,
    disabled: disabled.has(frontmatterName) || disabled.has(dirName),
    problems,
  };
}

/** `SU._normalize_skill_description`: stripped, then stripped of quote characters. */
function normalizeDescription(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '' || raw === false || raw === 0) return '';
  if (Array.isArray(raw) && raw.length === 0) return '';
  if (typeof raw === 'object' && !Array.isArray(raw) && !(raw instanceof Date) && Object.keys(raw).length === 0) return '';
  return pyStrip(pyStrip(pyStr(raw)), '\'"');
}

/** `SU.extract_skill_description`: longer than 60 code points → the first 57 + `...`. */
export function cutDescription(description: string): string {
  return codePointLength(description) > DESCRIPTION_LIMIT ? `${sliceCodePoints(description, 0, DESCRIPTION_LIMIT - 3)}...` : description;
}

function descriptionCutProblem(file: string, text: string, name: string, description: string, cut: string): SourceProblem {
  const message =
    `The skills index keeps only the first ${DESCRIPTION_LIMIT - 3} of this description's ${codePointLength(description)} characters plus "...": ` +
    `the prompt shows "- ${name}: ${cut}", and the marked text never reaches it. Shorten the description to ${DESCRIPTION_LIMIT} characters or fewer.`;
  const lost = lostSpan(text, description);
  return lost ? { file, code: 'description-cut', message, range: positionsOf(text).range(lost.start, lost.end) } : { file, code: 'description-cut', message };
}

/** Where, in the `description:` value as written, the characters past the 57th are. */
function lostSpan(text: string, description: string): { start: number; end: number } | undefined {
  const span = frontmatterValueSpan(text, 'description');
  if (!span) return undefined;
  const source = text.slice(span.start, span.end);
  const from = unitOffset(description, DESCRIPTION_LIMIT - 3);
  const verbatim = source.indexOf(description);
  if (verbatim >= 0) return { start: span.start + verbatim + from, end: span.start + verbatim + description.length };
  // Folded, multi-line or escaped: follow the value through its source, a line break or run of
  // spaces standing for the space YAML folds it into.
  const at = alignOffsets(source, description);
  return { start: span.start + at[from]!, end: span.start + at[description.length - 1]! + 1 };
}

/** For each UTF-16 unit of `value`, the offset of the unit of `source` it comes from (best effort). */
function alignOffsets(source: string, value: string): number[] {
  const at: number[] = [];
  let i = 0;
  for (let j = 0; j < value.length; j++) {
    const c = value.charCodeAt(j);
    const space = isJsWhitespace(c);
    let k = i;
    while (k < source.length && (space ? !isJsWhitespace(source.charCodeAt(k)) : source.charCodeAt(k) !== c)) k++;
    if (k < source.length) {
      at.push(k);
      i = k + 1;
      if (space) while (i < source.length && isJsWhitespace(source.charCodeAt(i)) && !(j + 1 < value.length && source.charCodeAt(i) === value.charCodeAt(j + 1))) i++;
    } else {
      at.push(Math.max(0, Math.min(i, source.length - 1))); // an escape (\u00e9, \n) has no unit of its own
    }
  }
  return at;
}

/** `SU.skill_matches_platform_list`: kept when `sys.platform` starts with any listed platform. */
function matchesPlatform(platforms: unknown, current: string): boolean {
  if (!platforms || (Array.isArray(platforms) && platforms.length === 0)) return true;
  const list = Array.isArray(platforms) ? platforms : [platforms];
  return list.some((p) => {
    const normalized = pyStrip(pyStr(p).toLowerCase());
    return current.startsWith(PLATFORM_ALIASES[normalized] ?? normalized);
  });
}

/** `SU.skill_matches_environment`: unknown tags pass; known ones are detected on this machine. */
function matchesEnvironment(fs: SourceFs, environments: unknown): boolean {
  if (!environments || (Array.isArray(environments) && environments.length === 0)) return true;
  const list = Array.isArray(environments) ? environments : [environments];
  for (const env of list) {
    const normalized = pyStrip(pyStr(env).toLowerCase());
    if (!normalized) continue;
    if (!['kanban', 'docker', 's6'].includes(normalized)) return true;
    if (environmentActive(fs, normalized)) return true;
  }
  return false;
}

function environmentActive(fs: SourceFs, env: string): boolean {
  if (env === 'docker') return exists(fs, '/.dockerenv') || exists(fs, '/run/.containerenv');
  if (env === 's6') return isFolder(fs, '/run/s6') || isFolder(fs, '/package/admin/s6-overlay');
  return kanbanWorker();
}

/** kanban: a dispatcher-spawned worker; a profile opted into the kanban toolset is not visible here. */
function kanbanWorker(): boolean {
  return Boolean(process.env.HERMES_KANBAN_TASK || process.env.HERMES_KANBAN_BOARD);
}

/**
 * What the skills index depends on besides the files it reads (a RecordingFs notes those): the
 * platform and the process environment it consults. Equal keys and equal reads render alike.
 */
export function skillsEnvironmentKey(platform: string = process.platform): string {
  return `${platform}:kanban=${kanbanWorker()}`;
}

function exists(fs: SourceFs, file: string): boolean {
  try {
    return fs.stat(file) !== undefined;
  } catch {
    return false;
  }
}

function orgAuthor(fs: SourceFs, skillsDir: string, orgId: string): string {
  try {
    const raw = utf8Of(fs.read(path.join(skillsDir, ORG_MIRROR_DIR, orgId, '.org-provenance.json'))).replace(/^\uFEFF/, '');
    const prov = JSON.parse(raw) as Record<string, unknown>;
    return String(prov.author_device || '') || String(prov.author_user_id || '');
  } catch {
    return '';
  }
}

/**
 * `PB._label_visible_entries` and the render's per-category dedupe: org entries get their
 * `org:<id>` category and prefix, personal/org name clashes are flagged on both sides, and a name
 * repeated within one category keeps its first entry (in path order).
 */
function labelEntries(candidates: readonly Candidate[], problems: SourceProblem[], claimedByProject?: ReadonlySet<string>): SkillEntry[] {
  // A project skill's name leaves the profile's skill of that name out before the labels are given.
  const shadowed = (c: Candidate) => claimedByProject !== undefined && claimedByProject.has(c.name);
  const shown = candidates.filter((c) => c.compatible && !c.disabled && !shadowed(c));
  const owners = new Map<string, Set<string>>();
  for (const c of shown) owners.set(c.name, (owners.get(c.name) ?? new Set()).add(c.orgId ? 'org' : 'personal'));

  const firstInCategory = new Map<string, Candidate>();
  const firstAnywhere = new Map<string, Candidate>();
  return candidates.map((c) => {
    let desc = c.indexDescription;
    let category = c.category;
    if (c.orgId) {
      desc = pyStrip(`[org-shared${c.orgAuthor ? `: by ${c.orgAuthor}` : ''}] ${desc}`);
      category = `org:${c.orgId}`;
    }
    const visibleBefore = c.compatible && !c.disabled;
    if (visibleBefore && (owners.get(c.name)?.size ?? 0) > 1) {
      desc = pyStrip(`[name collision — also exists ${c.orgId ? 'personally' : 'in your org'}; load via category path] ${desc}`);
    }
    let visible = visibleBefore && !shadowed(c);
    if (visible) {
      const key = `${category}\u0000${c.name}`;
      const first = firstInCategory.get(key);
      if (first) {
        visible = false;
        problems.push({ file: c.file, code: 'duplicate-skill', message: hiddenDuplicateMessage(c.name, category, first.file), range: lineRange(0) });
      } else {
        firstInCategory.set(key, c);
        const elsewhere = firstAnywhere.get(c.name);
        if (elsewhere) {
          problems.push({ file: c.file, code: 'duplicate-skill', message: ambiguousNameMessage(c.name, elsewhere.category, elsewhere.file), range: lineRange(0) });
        } else {
          firstAnywhere.set(c.name, c);
        }
      }
    }
    return { name: c.name, category, description: c.description, promptDescription: desc, file: c.file, visible, eligible: visibleBefore };
  });
}

function hiddenDuplicateMessage(name: string, category: string, first: string): string {
  return `Another skill named "${name}" in category "${category}" comes first (${first}); the index lists only that one, so this skill is not in the prompt. Give one of them another name.`;
}

function ambiguousNameMessage(name: string, category: string, other: string): string {
  return `A skill named "${name}" also exists in category "${category}" (${other}); the index lists both, so loading it by name is ambiguous. Give one of them another name.`;
}

/**
 * The name clashes of one skill (e.g. an unsaved SKILL.md, from `analyzeSkillText`) with the other
 * skills of its profile's index, by the index's rules: in one category the first by path wins.
 */
export function skillNameClashes(skill: SkillText, text: string, index: Pick<SkillsIndex, 'entries' | 'externalDirs' | 'projectDirs'>): SourceProblem[] {
  if (!skill.compatible) return [];
  if (projectFolderOf(index, skill.file) !== undefined) {
    // A project skill is skipped when an earlier one of the project has its name (disabled or not).
    const projectEntries = index.entries.filter((e) => projectFolderOf(index, e.file) !== undefined);
    const at = projectEntries.findIndex((e) => e.file === skill.file);
    const first = projectEntries.find((e, i) => (at < 0 || i < at) && e.file !== skill.file && e.visible && e.name === skill.name);
    const span = frontmatterValueSpan(text, 'name');
    const range = span ? positionsOf(text).range(span.start, span.end) : positionsOf(text).line(0);
    return first ? [{ file: skill.file, code: 'duplicate-skill', message: shadowedProjectMessage(skill.name, first.file), range }] : [];
  }
  if (skill.disabled) return [];
  if (externalFolderOf(index, skill.file) !== undefined) {
    // An external folder's skill is skipped when a skill listed before it has its name.
    const at = index.entries.findIndex((e) => e.file === skill.file);
    const first = index.entries.find((e, i) => (at < 0 || i < at) && e.file !== skill.file && e.eligible && e.name === skill.name);
    const span = frontmatterValueSpan(text, 'name');
    const range = span ? positionsOf(text).range(span.start, span.end) : positionsOf(text).line(0);
    return first ? [{ file: skill.file, code: 'duplicate-skill', message: shadowedExternalMessage(skill.name, first.file), range }] : [];
  }
  const category = skill.orgId ? `org:${skill.orgId}` : skill.category;
  const others = index.entries.filter((e) => e.file !== skill.file && e.name === skill.name);
  const span = frontmatterValueSpan(text, 'name');
  const where = positionsOf(text);
  const range = span ? where.range(span.start, span.end) : where.line(0);
  const problems: SourceProblem[] = [];
  const add = (message: string) => problems.push({ file: skill.file, code: 'duplicate-skill', message, range });
  const sameCategory = others.filter((e) => e.eligible && e.category === category).sort((a, b) => compareCodePoints(a.file, b.file));
  const before = sameCategory.find((e) => compareCodePoints(e.file, skill.file) < 0);
  if (before) {
    add(hiddenDuplicateMessage(skill.name, category, before.file));
    return problems;
  }
  for (const e of sameCategory) {
    add(`Another skill named "${skill.name}" in category "${category}" (${e.file}) comes after this one, so the index leaves it out. Give one of them another name.`);
  }
  const elsewhere = others.find((e) => e.visible && e.category !== category);
  if (elsewhere) add(ambiguousNameMessage(skill.name, elsewhere.category, elsewhere.file));
  return problems;
}

/** `PB._read_category_descriptions`: each DESCRIPTION.md's frontmatter `description`, with the folder path it describes. */
function readCategoryDescriptions(fs: SourceFs, skillsDir: string, files: readonly string[], problems: SourceProblem[]): CategoryText[] {
  const found: CategoryText[] = [];
  for (const file of files) {
    const read = readText(fs, file, { dropBom: true });
    if (!read.ok) {
      if (!read.missing) problems.push(read.problem);
      continue;
    }
    const category = analyzeCategoryText(file, read.text);
    problems.push(...category.problems);
    found.push({ file, category: categoryFolder(skillsDir, file), description: category.description });
  }
  return found;
}

/** The category a DESCRIPTION.md describes: its folder's path below skills/ (`general` at the root). */
function categoryFolder(skillsDir: string, file: string): string {
  return path.relative(path.resolve(skillsDir), path.dirname(file)).split(path.sep).filter(Boolean).join('/') || 'general';
}

/**
 * A category's DESCRIPTION.md from its text: the description the index shows (undefined when it
 * gives none) and the problems of its frontmatter.
 */
export function analyzeCategoryText(file: string, text: string): { description: string | undefined; problems: SourceProblem[] } {
  const problems: SourceProblem[] = [];
  const fm = parseFrontmatter(text);
  if (fm.data === undefined && !fm.problem) {
    problems.push({
      file,
      code: 'frontmatter-missing',
      message: 'This DESCRIPTION.md has no frontmatter, so its category gets no description in the skills index. Start the file with a "---" block holding description:, closed by another "---" line.',
      range: positionsOf(text).line(0),
    });
  } else if (fm.problem) {
    problems.push({ file, code: 'frontmatter-invalid', message: fm.problem.message, range: positionsOf(text).line(fm.problem.line) });
  }
  const raw = fm.data?.description;
  return { description: raw ? pyStrip(pyStrip(pyStr(raw)), '\'"') : undefined, problems };
}

/** The `## Skills` block exactly as `PB._render_skills_index` writes it; '' with no visible skill. */
export function renderSkillsIndex(
  entries: readonly SkillEntry[],
  categories: ReadonlyMap<string, { readonly description: string }>,
): string {
  const byCategory = new Map<string, SkillEntry[]>();
  for (const entry of entries) {
    if (!entry.visible) continue;
    byCategory.set(entry.category, [...(byCategory.get(entry.category) ?? []), entry]);
  }
  if (byCategory.size === 0) return '';
  const lines: string[] = [];
  for (const category of [...byCategory.keys()].sort(compareCodePoints)) {
    const desc = categories.get(category)?.description ?? '';
    lines.push(desc ? `  ${category}: ${desc}` : `  ${category}:`);
    const seen = new Set<string>();
    // A stable sort by name: the first entry of a name (in path order) wins.
    for (const entry of [...byCategory.get(category)!].sort((a, b) => compareCodePoints(a.name, b.name))) {
      if (seen.has(entry.name)) continue;
      seen.add(entry.name);
      lines.push(entry.promptDescription ? `    - ${entry.name}: ${entry.promptDescription}` : `    - ${entry.name}`);
    }
  }
  return (
    '## Skills\n' +
    'Before replying, scan the skills below. If a skill matches or is even partially relevant to your ' +
    'task, you MUST load it with skill_view(name) and follow its instructions. Err on the side of ' +
    'loading — it is always better to have context you don\'t need than to miss critical steps, pitfalls, ' +
    'or established workflows. Skills contain specialized knowledge — API endpoints, tool-specific ' +
    'commands, and proven workflows that outperform general-purpose approaches. Load the skill ' +
    `even if you think you could handle the task with basic tools like ${BASIC_TOOLS}. ` +
    'Skills also encode the user\'s preferred approach, conventions, and quality standards for tasks like ' +
    'code review, planning, and testing — load them even for tasks you already know how to do, because ' +
    'the skill defines how it should be done here.\n' +
    'If a skill has issues, fix it with skill_manage(action=\'patch\').\n' +
    'After difficult/iterative tasks, offer to save as a skill. If a skill you loaded was missing steps, ' +
    'had wrong commands, or needed pitfalls you discovered, update it before finishing.\n' +
    '\n' +
    '<available_skills>\n' +
    lines.join('\n') +
    '\n' +
    '</available_skills>\n\n' +
    'Only proceed without loading a skill if genuinely none are relevant to the task.'
  );
}
