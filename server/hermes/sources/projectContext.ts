// Project context discovery (docs/HERMES-FORMATS.md §3): from the session's cwd, only the first
// kind that exists loads — `.hermes.md`/`HERMES.md`, the AGENTS chain, `CLAUDE.md`, `.cursorrules`.
// We also list the files that load nothing because another file won, since Hermes ignores them
// silently. Paths are joined and compared in the cwd's own flavour (pathFlavour.ts): a session
// Hermes ran on Windows has `C:\…\repo\pkg` as its cwd and `..\AGENTS.md` as a label, on any
// machine the lens runs on.
//
// Rendering works on "runs" (pieces of text that remember which file offset they came from) so a
// truncation's dropped middle and a BLOCKED match can be pointed at in the file's own lines.
import { flavourOf, upperDrive, type PathFlavour } from '../pathFlavour';
import { stripHermesMdFrontmatter } from '../text/frontmatter';
import { blockedMessage, locateFindings, scanContextContent } from './injectionScan';
import { PROJECT_CONTEXT_PREFIX } from '../literals/containers';
import { positionsOf } from '../text/positions';
import { pyLstrip, pyRstrip, pyStrip } from '../text/pyText';
import { OverlayFs } from '../fs/overlayFs';
import { isFile, readTextIfPresent } from '../fs/readText';
import type { SourceFs } from '../fs/sourceFs';
import { truncateContextText, truncationFix, type Truncation } from './truncate';
import type { FileContribution, ProjectContext, ProjectContextKind, SourceProblem } from './types';

export interface DiscoverOptions {
  /** The per-file cap (`contextFileCap`). */
  readonly maxChars: number;
  /** The highest directory the upward searches may visit (tests use it to stay inside a temp dir). */
  readonly stopAt?: string;
}

/**
 * How a Hermes build reads a folder's `AGENTS.override.md`: releases from 0.20.3 load it instead of
 * that folder's AGENTS.md; earlier ones ignore it; a fork loads both, the overrides after the chain.
 */
export type AgentsOverrideReading = 'instead' | 'ignored' | 'appended';

interface LoadedFile {
  readonly path: string;
  /** The file's text as an editor shows it (BOM dropped). */
  readonly text: string;
  /** The stripped text Hermes uses, and where it starts in `text`. */
  readonly content: string;
  readonly contentStart: number;
  /** Identity of the file on disk (case-insensitive file systems give one file two names). */
  readonly id: string;
}

interface Run {
  readonly text: string;
  readonly file?: LoadedFile;
  /** Offset in `file.text` of this run's first character, when the run is file text. */
  readonly at?: number;
  /** Set on a section's `## <label>\n\n` header run. */
  readonly label?: string;
}

interface Loaded {
  readonly kind: ProjectContextKind;
  readonly runs: Run[];
  /** Files that contribute, in order, with their labels. */
  readonly files: Array<{ file: LoadedFile; label: string }>;
}

const AGENTS_OVERRIDE = 'AGENTS.override.md';
const AGENTS_NAMES = [AGENTS_OVERRIDE, 'AGENTS.md', 'agents.md'];
/** The names a build reading no override tries in each folder, in order. */
const AGENTS_PLAIN_NAMES = AGENTS_NAMES.slice(1);
const HERMES_NAMES = ['.hermes.md', 'HERMES.md'];
const CLAUDE_NAMES = ['CLAUDE.md', 'claude.md'];

/**
 * The project context a session in `cwd` loads, read through `fs` (an OverlayFs puts an editor's
 * unsaved buffers in). Where an `AGENTS.override.md` takes part, also what the builds that read it
 * otherwise load (`otherReadings`).
 */
export function discoverProjectContext(fs: SourceFs, cwd: string, options: DiscoverOptions): ProjectContext {
  const context = discoverAs(fs, cwd, options, 'instead');
  if (!context.files.some((f) => flavourOf(f.path).basename(f.path) === AGENTS_OVERRIDE)) return context;
  return { ...context, otherReadings: { ignored: discoverAs(fs, cwd, options, 'ignored'), appended: discoverAs(fs, cwd, options, 'appended') } };
}

function discoverAs(fs: SourceFs, cwd: string, options: DiscoverOptions, override: AgentsOverrideReading): ProjectContext {
  const problems: SourceProblem[] = [];
  const here = realpath(fs, cwd);
  if (here === undefined) return { kind: 'none', files: [], shadowed: [], block: '', problems };
  const p = flavourOf(here);
  const stopAt = options.stopAt === undefined ? undefined : realpath(fs, options.stopAt) ?? p.resolve(options.stopAt);
  const gitRoot = findGitRoot(fs, p, here, stopAt);
  const ctx: Ctx = { fs, path: p, cwd: here, gitRoot, cap: options.maxChars, problems, cache: new Map() };

  const hermesDirs = gitRoot ? ancestors(p, here, gitRoot) : [here];
  const chainDirs = gitRoot && gitRoot !== here ? [...ancestors(p, here, gitRoot)].reverse() : [here];
  const loaded = loadHermesMd(ctx, hermesDirs) ?? loadAgentsChain(ctx, chainDirs, override) ?? loadClaudeMd(ctx) ?? loadCursorRules(ctx);
  // The other readings judge what an older or other build loaded: the files' problems are told by the first alone.
  const shadowed = override === 'instead' ? findShadowed(ctx, loaded, hermesDirs, chainDirs) : [];
  for (const s of shadowed) {
    const text = ctx.cache.get(s.path)?.text ?? '';
    problems.push({ file: s.path, code: 'shadowed', message: shadowedMessage(s.winner), range: positionsOf(text).line(0) });
  }
  if (!loaded) return { kind: 'none', files: [], shadowed, block: '', problems };

  const body = loaded.runs.map((r) => r.text).join('');
  // The tier join strips every block (the cursor sections end with a blank line).
  const block = pyRstrip(PROJECT_CONTEXT_PREFIX + body);
  return { kind: loaded.kind, files: contributions(loaded, block), shadowed, block, problems: override === 'instead' ? problems : [] };
}

interface Ctx {
  readonly fs: SourceFs;
  /** The cwd's path flavour: every path below is joined in it. */
  readonly path: PathFlavour;
  readonly cwd: string;
  readonly gitRoot: string | undefined;
  readonly cap: number;
  readonly problems: SourceProblem[];
  readonly cache: Map<string, LoadedFile | undefined>;
}

/** What Hermes does with a context file that another one beats (docs/HERMES-FORMATS.md §3), and the fix. */
/**
 * Whether a context file's label names a parent folder's file (`../AGENTS.md`): Hermes reads
 * those only from 0.20.1 on (the AGENTS chain from the git root down).
 */
export function isParentFolderLabel(label: string): boolean {
  return label.startsWith('../') || label.startsWith('..\\');
}

export function shadowedMessage(winner: string): string {
  return (
    `No session loads this file: Hermes loads only the first kind of project context it finds (.hermes.md/HERMES.md, then the AGENTS chain, ` +
    `then CLAUDE.md, then .cursorrules), and ${winner} wins. Move these instructions into ${winner}, or remove that file if this one should load.`
  );
}

/** The real path, a Windows drive letter in upper case as Hermes' `Path.resolve()` writes it. */
function realpath(fs: SourceFs, p: string): string | undefined {
  try {
    // One realpath(3) call where the JavaScript version lstat()s every component; on Windows the
    // native call resolves drives and shares differently, so there the JavaScript one stays.
    return upperDrive(fs.realPath(p));
  } catch {
    return undefined;
  }
}

/** Nearest directory from `start` up (to `stopAt` at most) holding `.git`, a directory or a file. */
function findGitRoot(fs: SourceFs, p: PathFlavour, start: string, stopAt: string | undefined): string | undefined {
  for (let dir = start; ; dir = p.dirname(dir)) {
    try {
      if (fs.stat(p.join(dir, '.git'))) return dir;
    } catch {
      // not here (ENOTDIR, EACCES)
    }
    if (dir === stopAt || p.dirname(dir) === dir) return undefined;
  }
}

/** `from`, its parent, … up to and including `to` (which must be an ancestor of `from`). */
function ancestors(p: PathFlavour, from: string, to: string): string[] {
  const dirs = [from];
  for (let dir = from; dir !== to && p.dirname(dir) !== dir; ) {
    dir = p.dirname(dir);
    dirs.push(dir);
  }
  return dirs;
}

/** `PB._read_context_file`: the stripped text, '' when empty; undefined when missing or unusable. */
function load(ctx: Ctx, file: string): LoadedFile | undefined {
  if (ctx.cache.has(file)) return ctx.cache.get(file);
  const read = readTextIfPresent(ctx.fs, file, { dropBom: true });
  let result: LoadedFile | undefined;
  if (read.ok) {
    const content = pyStrip(read.text);
    result = { path: file, text: read.text, content, contentStart: read.text.length - pyLstrip(read.text).length, id: fileId(ctx.fs, file) };
  } else if (!read.missing) {
    ctx.problems.push(read.problem);
  }
  ctx.cache.set(file, result);
  return result;
}

function fileId(fs: SourceFs, file: string): string {
  try {
    const st = fs.stat(file);
    return st ? `${st.dev}:${st.ino}` : file;
  } catch {
    return file;
  }
}

/** `## <label>\n\n` + the scanned text (`PB._context_section` before its truncation). */
function sectionRuns(ctx: Ctx, file: LoadedFile, label: string, text: string, at: number): Run[] {
  const header: Run = { text: `## ${label}\n\n`, file, label };
  const scanFrom = at + (text.charCodeAt(0) === 0xfeff ? 1 : 0);
  const scanned = scanContextContent(text, label);
  if (scanned.findings.length === 0) return [header, { text: scanned.text, file, at: scanFrom }];
  const message = blockedMessage(label, scanned.findings);
  const located = locateFindings(file.text.slice(scanFrom), scanned.findings, 'context');
  const where = positionsOf(file.text);
  if (located.length === 0) ctx.problems.push({ file: file.path, code: 'blocked', message });
  for (const hit of located) {
    ctx.problems.push({ file: file.path, code: 'blocked', message, range: where.range(scanFrom + hit.start, scanFrom + hit.end) });
  }
  return [header, { text: scanned.text }];
}

/** `PB._truncate_content` over runs: keeps the head and tail runs, reports what each file loses. */
function truncateRuns(ctx: Ctx, runs: Run[], warnName: string, readPath: string, what: string): Run[] {
  const joined = runs.map((r) => r.text).join('');
  const t = truncateContextText(joined, ctx.cap, warnName, readPath);
  if (!t.truncated) return runs;
  reportDropped(ctx, runs, t, what);
  return [...cut(runs, 0, t.dropped.start), { text: t.marker }, ...cut(runs, t.tailFrom, joined.length)];
}

function cut(runs: readonly Run[], from: number, to: number): Run[] {
  const out: Run[] = [];
  let start = 0;
  for (const run of runs) {
    const end = start + run.text.length;
    const a = Math.max(start, from);
    const b = Math.min(end, to);
    if (a < b) {
      const whole = a === start && b === end;
      out.push({
        text: run.text.slice(a - start, b - start),
        ...(run.file ? { file: run.file } : {}),
        ...(run.at !== undefined ? { at: run.at + (a - start) } : {}),
        ...(whole && run.label !== undefined ? { label: run.label } : {}),
      });
    }
    start = end;
  }
  return out;
}

function reportDropped(ctx: Ctx, runs: readonly Run[], t: Truncation, what: string): void {
  const message =
    `${what} is longer than the context-file cap (${t.length} characters with its "## " heading, cap ${ctx.cap}): Hermes keeps the first ` +
    `${t.head} and last ${t.tail} characters and drops the middle, which includes the marked part. ${truncationFix(ctx.cap)}`;
  let start = 0;
  for (const run of runs) {
    const end = start + run.text.length;
    const a = Math.max(start, t.dropped.start);
    const b = Math.min(end, t.dropped.end);
    if (a < b && run.file && run.at !== undefined) {
      const where = positionsOf(run.file.text);
      ctx.problems.push({ file: run.file.path, code: 'truncated', message, range: where.range(run.at + (a - start), run.at + (b - start)) });
    }
    start = end;
  }
}

/** Kind 1: the nearest `.hermes.md`/`HERMES.md` from cwd up to the git root (cwd only without one). */
function loadHermesMd(ctx: Ctx, dirs: readonly string[]): Loaded | undefined {
  const found = nearestHermesMd(ctx, dirs);
  const file = found ? load(ctx, found) : undefined;
  if (!file || !file.content) return undefined;
  const label = ctx.path.basename(file.path);
  return { kind: 'hermes-md', runs: fileSection(ctx, file, 'hermes-md', label), files: [{ file, label }] };
}

/**
 * One file's `## <label>` section, scanned and truncated as its kind is (the cursor rules are cut
 * together by loadCursorRules; alone, one `.cursorrules` section is cut the same way).
 */
function fileSection(ctx: Ctx, file: LoadedFile, kind: Exclude<ProjectContextKind, 'none'>, label: string): Run[] {
  switch (kind) {
    case 'hermes-md': {
      const body = stripHermesMdFrontmatter(file.content);
      const at = file.contentStart + (file.content.length - body.length);
      return truncateRuns(ctx, sectionRuns(ctx, file, label, body, at), '.hermes.md', file.path, label);
    }
    case 'agents-chain':
      return truncateRuns(ctx, sectionRuns(ctx, file, label, file.content, file.contentStart), label, file.path, label);
    case 'claude-md':
      return truncateRuns(ctx, sectionRuns(ctx, file, label, file.content, file.contentStart), 'CLAUDE.md', file.path, label);
    case 'cursorrules':
      return truncateRuns(ctx, [...sectionRuns(ctx, file, label, file.content, file.contentStart), { text: '\n\n' }], '.cursorrules', ctx.path.join(ctx.cwd, '.cursorrules'), label);
  }
}

/** The kind of project context a file is by its name, and the directory it is loaded from as cwd's own. */
export function contextFileKind(file: string): { kind: Exclude<ProjectContextKind, 'none'>; cwd: string; label: string } | undefined {
  const path = flavourOf(file);
  const name = path.basename(file);
  const dir = path.dirname(file);
  if (HERMES_NAMES.includes(name)) return { kind: 'hermes-md', cwd: dir, label: name };
  if (AGENTS_NAMES.includes(name)) return { kind: 'agents-chain', cwd: dir, label: name };
  if (CLAUDE_NAMES.includes(name)) return { kind: 'claude-md', cwd: dir, label: name };
  if (name === '.cursorrules') return { kind: 'cursorrules', cwd: dir, label: name };
  if (name.endsWith('.mdc') && path.basename(dir) === 'rules' && path.basename(path.dirname(dir)) === '.cursor') {
    return { kind: 'cursorrules', cwd: path.dirname(path.dirname(dir)), label: `.cursor/rules/${name}` };
  }
  return undefined;
}

/**
 * One context file from its text (e.g. an unsaved buffer), as it loads when a session's cwd is its
 * own directory and no other file takes part: its section and the problems of that text (blocked,
 * truncated), with ranges in `text`. Discovery through an OverlayFs gives the same for a real cwd.
 */
export function analyzeContextFileText(
  fs: SourceFs,
  file: string,
  text: string,
  options: { readonly maxChars: number; readonly label?: string },
): { rendered: string; problems: SourceProblem[] } {
  const problems: SourceProblem[] = [];
  const kind = contextFileKind(file);
  const content = pyStrip(text);
  if (!kind || !content) return { rendered: '', problems };
  const ctx: Ctx = { fs: new OverlayFs(fs, new Map([[file, text]])), path: flavourOf(file), cwd: kind.cwd, gitRoot: undefined, cap: options.maxChars, problems, cache: new Map() };
  const loaded: LoadedFile = { path: file, text, content, contentStart: text.length - pyLstrip(text).length, id: file };
  const runs = fileSection(ctx, loaded, kind.kind, options.label ?? kind.label);
  return { rendered: pyRstrip(runs.map((r) => r.text).join('')), problems };
}

function nearestHermesMd(ctx: Ctx, dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    for (const name of HERMES_NAMES) if (present(ctx, ctx.path.join(dir, name))) return ctx.path.join(dir, name);
  }
  return undefined;
}

function present(ctx: Ctx, file: string): boolean {
  return isFile(ctx.fs, file);
}

/**
 * Kind 2: per directory from the git root down to cwd, the first non-empty AGENTS file; copies
 * dropped. `override` says where AGENTS.override.md counts (AgentsOverrideReading).
 */
function loadAgentsChain(ctx: Ctx, dirs: readonly string[], override: AgentsOverrideReading): Loaded | undefined {
  const seen = new Set<string>();
  const sections: Run[][] = [];
  const files: Array<{ file: LoadedFile; label: string }> = [];
  // The first non-empty file of `names` in `dir`, unless the same text came earlier in the chain.
  const addFirst = (dir: string, names: readonly string[]) => {
    for (const name of names) {
      const file = load(ctx, ctx.path.join(dir, name));
      if (!file || !file.content) continue;
      if (!seen.has(file.content)) {
        seen.add(file.content);
        // os.path.relpath: `../AGENTS.md`, or `..\AGENTS.md` where Hermes ran on Windows.
        const label = dir === ctx.cwd ? name : ctx.path.relative(ctx.cwd, file.path);
        sections.push(fileSection(ctx, file, 'agents-chain', label));
        files.push({ file, label });
      }
      return;
    }
  };
  for (const dir of dirs) addFirst(dir, override === 'instead' ? AGENTS_NAMES : AGENTS_PLAIN_NAMES);
  if (override === 'appended') for (const dir of dirs) addFirst(dir, [AGENTS_OVERRIDE]);
  if (sections.length === 0) return undefined;
  let runs = sections.flatMap((s, i) => (i === 0 ? s : [{ text: '\n\n' }, ...s]));
  if (sections.length > 1) {
    runs = truncateRuns(ctx, runs, 'AGENTS.md (directory chain)', ctx.path.join(ctx.cwd, 'AGENTS.md'), `The AGENTS chain (${sections.length} files)`);
  }
  return { kind: 'agents-chain', runs, files };
}

/** Kind 3: `CLAUDE.md` or `claude.md`, in cwd only. */
function loadClaudeMd(ctx: Ctx): Loaded | undefined {
  for (const name of CLAUDE_NAMES) {
    const file = load(ctx, ctx.path.join(ctx.cwd, name));
    if (!file || !file.content) continue;
    return { kind: 'claude-md', runs: fileSection(ctx, file, 'claude-md', name), files: [{ file, label: name }] };
  }
  return undefined;
}

/** Kind 4: `.cursorrules` plus `.cursor/rules/*.mdc` (by name), each section ending in a blank line. */
function loadCursorRules(ctx: Ctx): Loaded | undefined {
  const runs: Run[] = [];
  const files: Array<{ file: LoadedFile; label: string }> = [];
  for (const { file: p, label } of cursorCandidates(ctx.fs, ctx.path, ctx.cwd)) {
    const file = load(ctx, p);
    if (!file || !file.content) continue;
    runs.push(...sectionRuns(ctx, file, label, file.content, file.contentStart), { text: '\n\n' });
    files.push({ file, label });
  }
  if (files.length === 0) return undefined;
  return { kind: 'cursorrules', runs: truncateRuns(ctx, runs, '.cursorrules', ctx.path.join(ctx.cwd, '.cursorrules'), 'The cursor rules'), files };
}

function cursorCandidates(fs: SourceFs, path: PathFlavour, cwd: string): Array<{ file: string; label: string }> {
  const out = [{ file: path.join(cwd, '.cursorrules'), label: '.cursorrules' }];
  const rulesDir = path.join(cwd, '.cursor', 'rules');
  let names: string[] = [];
  try {
    // pathlib's glob matches dot-files too, case-sensitively except on Windows (a Windows cwd).
    const mdc = path.sep === '\\' ? /\.mdc$/i : /\.mdc$/;
    names = fs.listNames(rulesDir).filter((n) => mdc.test(n));
  } catch {
    names = [];
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) out.push({ file: path.join(rulesDir, name), label: `.cursor/rules/${name}` });
  return out;
}

/**
 * What each contributing file puts in the final block: from its `## <label>` header to the next
 * surviving header. A file whose header fell into a truncated middle contributes no section.
 */
function contributions(loaded: Loaded, block: string): FileContribution[] {
  const headers: Array<{ file: LoadedFile; label: string; offset: number }> = [];
  let offset = PROJECT_CONTEXT_PREFIX.length;
  for (const run of loaded.runs) {
    if (run.label !== undefined && run.file) headers.push({ file: run.file, label: run.label, offset });
    offset += run.text.length;
  }
  return headers.map((h, i) => ({
    kind: 'project-context' as const,
    path: h.file.path,
    label: h.label,
    rendered: pyRstrip(block.slice(h.offset, headers[i + 1]?.offset ?? block.length), '\n'),
  }));
}

/** Context files that exist and hold text but load nothing, each with the file that won. */
function findShadowed(ctx: Ctx, loaded: Loaded | undefined, hermesDirs: readonly string[], chainDirs: readonly string[]) {
  const shadowed: Array<{ path: string; winner: string }> = [];
  const used = new Set((loaded?.files ?? []).map((f) => f.file.id));
  const listed = new Set<string>();
  const add = (file: LoadedFile | undefined, winner: string) => {
    if (!file || !file.content || used.has(file.id) || listed.has(file.id)) return;
    listed.add(file.id);
    shadowed.push({ path: file.path, winner });
  };
  const winner = loaded?.files[0]?.file.path;
  const kinds: ProjectContextKind[] = ['hermes-md', 'agents-chain', 'claude-md', 'cursorrules'];
  const rank = loaded ? kinds.indexOf(loaded.kind) : kinds.length;

  // Within the winning kind: the files Hermes never reached.
  const nearest = nearestHermesMd(ctx, hermesDirs);
  if (nearest) {
    for (const dir of hermesDirs) for (const name of HERMES_NAMES) {
      const p = ctx.path.join(dir, name);
      if (p !== nearest && present(ctx, p)) add(load(ctx, p), nearest);
    }
  }
  if (loaded?.kind === 'agents-chain') {
    const byContent = new Map(loaded.files.map((f) => [f.file.content, f.file.path]));
    for (const dir of chainDirs) {
      let chosen: string | undefined;
      for (const name of AGENTS_NAMES) {
        const file = load(ctx, ctx.path.join(dir, name));
        if (!file || !file.content) continue;
        if (chosen === undefined) {
          chosen = file.path;
          if (!used.has(file.id)) add(file, byContent.get(file.content) ?? file.path);
        } else {
          add(file, chosen);
        }
      }
    }
  }
  if (loaded?.kind === 'claude-md') for (const name of CLAUDE_NAMES) add(load(ctx, ctx.path.join(ctx.cwd, name)), loaded.files[0]!.file.path);

  // The kinds after the winner.
  if (winner === undefined) return shadowed;
  if (rank < 1) for (const dir of chainDirs) for (const name of AGENTS_NAMES) add(load(ctx, ctx.path.join(dir, name)), winner);
  if (rank < 2) for (const name of CLAUDE_NAMES) add(load(ctx, ctx.path.join(ctx.cwd, name)), winner);
  if (rank < 3) for (const c of cursorCandidates(ctx.fs, ctx.path, ctx.cwd)) add(load(ctx, c.file), winner);
  return shadowed;
}
