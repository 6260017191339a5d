// Diagnostics on the text of an open document, saved or not: what Hermes will do with this text
// (drop a middle, block the file, cut a description, ignore the file, …) and how to fix it. The
// domain layer does the work on text (analyze*Text, discovery through an OverlayFs); this file finds out
// what the document is to Hermes and turns SourceProblems into LSP diagnostics.
import path = require('node:path');
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { OverlayFs } from '../../hermes/fs/overlayFs';
import { DEFAULT_CONFIG } from '../../hermes/profile/config';
import { canonicalPath } from '../../hermes/canonicalPath';
import { frontmatterYamlSpan } from '../../hermes/text/frontmatter';
import { analyzeMemoryText } from '../../hermes/sources/memory';
import { positionsOf, type ProblemRange } from '../../hermes/text/positions';
import { analyzeContextFileText, contextFileKind, discoverProjectContext, shadowedMessage } from '../../hermes/sources/projectContext';
import { analyzeCategoryText, analyzeSkillText, skillNameClashes, skillsRootOf } from '../../hermes/sources/skills';
import { analyzeSoulText } from '../../hermes/sources/soul';
import { contextFileCap } from '../../hermes/sources/truncate';
import type { SourceProblem } from '../../hermes/sources/types';
import type { HermesModel } from '../../workspace/hermesModel';
import type { SourceTarget } from '../../workspace/sourceKind';
import { relativeInside } from '../../hermes/pathFlavour';
import { uriToPath } from '../uri';
import { prefixSplitProblems } from './prefixSplit';

/**
 * Past these sizes (UTF-16 units) a document is not analysed, so that a 50 MB buffer cannot stall
 * the server on every keystroke; it gets one diagnostic saying so. Hermes' own caps are far below:
 * at most 500,000 characters of a context file load, and memory is meant to stay near 2,200.
 */
export const MAX_DIAGNOSED_CHARS = 2_000_000;
/** Memory is scanned entry by entry (about 10 µs per short entry). */
export const MAX_DIAGNOSED_MEMORY_CHARS = 256_000;
/** The YAML between a skill's fences is parsed twice per keystroke (about 12 µs per key). */
export const MAX_DIAGNOSED_FRONTMATTER_CHARS = 64_000;
/** Session working directories re-discovered per keystroke for one context file, at most. */
const MAX_CONTEXT_CWDS = 8;
/** Diagnostics published for one document, at most (a file full of matches needs no thousands). */
const MAX_DIAGNOSTICS = 200;

const SEVERITY: Record<SourceProblem['code'], DiagnosticSeverity> = {
  blocked: DiagnosticSeverity.Error,
  'frontmatter-invalid': DiagnosticSeverity.Error,
  unreadable: DiagnosticSeverity.Error,
  binary: DiagnosticSeverity.Error,
  truncated: DiagnosticSeverity.Warning,
  'description-cut': DiagnosticSeverity.Warning,
  'frontmatter-missing': DiagnosticSeverity.Warning,
  'duplicate-skill': DiagnosticSeverity.Warning,
  shadowed: DiagnosticSeverity.Warning,
  'per-profile-text': DiagnosticSeverity.Information,
  'prefix-split': DiagnosticSeverity.Information,
  'memory-over-limit': DiagnosticSeverity.Warning,
};

/** The diagnostics of `document`'s current text; [] for a document that is not a Hermes source. Never throws. */
export function diagnoseDocument(model: HermesModel, document: TextDocument): Diagnostic[] {
  try {
    const docPath = uriToPath(document.uri);
    if (!docPath) return [];
    const target = model.classify(docPath);
    if (!target) return [];
    const raw = document.getText();
    const over = tooLarge(target, raw);
    if (over) return [over];
    // Editors hide a BOM; should one be in the buffer, analyse the text without it and shift back.
    const bom = raw.charCodeAt(0) === 0xfeff && target.kind !== 'memory' && target.kind !== 'user' ? 1 : 0;
    const text = bom ? raw.slice(1) : raw;
    const problems = problemsOf(model, target, text).filter((p) => p.file === target.file);
    const firstLine = positionsOf(text).line(0);
    return dedupe(problems)
      .slice(0, MAX_DIAGNOSTICS)
      .map((p) => toDiagnostic(p, shift(p.range ?? firstLine, bom)));
  } catch {
    return [];
  }
}

function problemsOf(model: HermesModel, target: SourceTarget, text: string): readonly SourceProblem[] {
  if (target.kind === 'project-context') return contextProblems(model, target.file, text);
  const { analysis, file } = target;
  switch (target.kind) {
    case 'soul': {
      const soul = analyzeSoulText(file, text, analysis.profile.dir, analysis.config);
      return [...soul.problems, ...prefixSplitProblems(model, target, text, soul.block)];
    }
    case 'memory':
    case 'user':
      return analyzeMemoryText(file, text, target.kind).problems;
    case 'skill-category':
      return analyzeCategoryText(file, text).problems;
    case 'skill': {
      const index = target.projectIndex ?? analysis.sourcesFor(undefined).skills;
      const skill = analyzeSkillText(analysis.fs, skillsRootOf(index, path.join(analysis.profile.dir, 'skills'), file), file, text, analysis.config);
      return [...skill.problems, ...skillNameClashes(skill, text, index)];
    }
  }
}

/**
 * Whether `document`'s diagnostics can change when only Hermes' sessions changed: a context file's
 * do (it is analysed from the live sessions' cwds); a profile file's depend on its text and the
 * profile's files alone.
 */
export function diagnosticsFollowSessions(model: HermesModel, document: TextDocument): boolean {
  const docPath = uriToPath(document.uri);
  return docPath !== undefined && model.classify(docPath)?.kind === 'project-context';
}

/**
 * A context file: discovery from every live session cwd it can take part in, with this text in
 * place of the file's, so blocking, truncation (the AGENTS chain's too) and shadowing are what
 * those sessions would get. A file no session reaches is analysed alone, as if cwd were its folder.
 */
function contextProblems(model: HermesModel, file: string, text: string): SourceProblem[] {
  const kind = contextFileKind(file)!;
  // `.hermes.md` and the AGENTS chain are looked up from cwd upwards; the others in cwd only.
  const upward = kind.kind === 'hermes-md' || kind.kind === 'agents-chain';
  const runs = new Map<string, { cwd: string; cap: number }>();
  // Thousands of sessions share a few cwds: resolve each cwd once.
  const reaches = new Map<string, string | undefined>();
  let capped = false;
  for (const analysis of model.profiles()) {
    const cap = contextFileCap(analysis.config);
    for (const session of analysis.report.sessions) {
      if (!session.cwd || session.state === 'ended' || session.state === 'no-prompt') continue;
      if (!reaches.has(session.cwd)) {
        const cwd = canonicalPath(session.cwd);
        const rel = relativeInside(kind.cwd, cwd);
        reaches.set(session.cwd, rel === undefined || (!upward && rel !== '') ? undefined : cwd);
      }
      const cwd = reaches.get(session.cwd);
      if (cwd === undefined) continue;
      const key = `${cap}\u0000${cwd}`;
      if (runs.has(key)) continue;
      if (runs.size >= MAX_CONTEXT_CWDS) capped = true;
      else runs.set(key, { cwd, cap });
    }
  }
  if (runs.size === 0) {
    if (model.profiles().length === 0) return [];
    const home = model.home;
    const config = (home && model.profileByName(home.activeProfile)?.config) ?? model.profiles()[0]?.config ?? DEFAULT_CONFIG;
    return analyzeContextFileText(model.fs, file, text, { maxChars: contextFileCap(config) }).problems;
  }
  const overlay = new OverlayFs(model.fs, new Map([[file, text]]));
  const problems: SourceProblem[] = [];
  let loaded = false;
  let loadedByOtherBuilds = false;
  for (const { cwd, cap } of runs.values()) {
    const context = discoverProjectContext(overlay, cwd, { maxChars: cap });
    if (context.files.some((f) => f.path === file)) loaded = true;
    const other = context.otherReadings;
    if (other && [...other.ignored.files, ...other.appended.files].some((f) => f.path === file)) loadedByOtherBuilds = true;
    problems.push(...context.problems.filter((p) => p.file === file));
  }
  // An AGENTS.md an override hides from today's Hermes still feeds the sessions older builds started.
  if (!loaded && loadedByOtherBuilds && (model.roleOf(file)?.uses.length ?? 0) > 0) loaded = true;
  // Shadowed means no session loads it: one cwd that loads it is enough to drop the warning.
  if (loaded) return problems.filter((p) => p.code !== 'shadowed');
  if (capped && !problems.some((p) => p.code === 'shadowed')) {
    const shadowedBy = model.roleOf(file)?.shadowedBy;
    if (shadowedBy) problems.push({ file, code: 'shadowed', message: shadowedMessage(shadowedBy), range: positionsOf(text).line(0) });
  }
  return problems;
}

function toDiagnostic(problem: SourceProblem, range: ProblemRange): Diagnostic {
  return {
    range: { start: { line: range.startLine, character: range.startCharacter }, end: { line: range.endLine, character: range.endCharacter } },
    severity: SEVERITY[problem.code] ?? DiagnosticSeverity.Warning,
    source: 'hermes',
    code: problem.code,
    message: problem.message,
  };
}

/** The one diagnostic of a document too large to analyse as the user types, if it is. */
function tooLarge(target: SourceTarget, text: string): Diagnostic | undefined {
  const memory = target.kind === 'memory' || target.kind === 'user';
  const limit = memory ? MAX_DIAGNOSED_MEMORY_CHARS : MAX_DIAGNOSED_CHARS;
  if (text.length > limit) {
    const fix = memory
      ? `Hermes renders only about ${target.kind === 'memory' ? '4,400' : '4,000'} characters of it; consolidate the entries.`
      : 'Hermes loads at most the context-file cap of it; trim the file.';
    return notChecked('This file', text.length, limit, fix);
  }
  if (target.kind !== 'skill' && target.kind !== 'skill-category') return undefined;
  const yaml = frontmatterYamlSpan(text);
  const size = yaml ? yaml.end - yaml.start : 0;
  if (size <= MAX_DIAGNOSED_FRONTMATTER_CHARS) return undefined;
  return notChecked('The frontmatter', size, MAX_DIAGNOSED_FRONTMATTER_CHARS, 'Only its name and description reach the prompt: keep it short.');
}

function notChecked(what: string, size: number, limit: number, fix: string): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    source: 'hermes',
    code: 'too-large',
    message: `${what} is too large for Hermes Prompt Lens to check as you type (${size.toLocaleString('en-US')} characters, limit ${limit.toLocaleString('en-US')}). ${fix}`,
  };
}

/** The same problem found from several session cwds is reported once. */
function dedupe(problems: readonly SourceProblem[]): SourceProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const r = p.range;
    const key = `${p.code}:${r ? `${r.startLine}.${r.startCharacter}-${r.endLine}.${r.endCharacter}` : ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function shift(range: ProblemRange, bom: number): ProblemRange {
  if (!bom) return range;
  return {
    startLine: range.startLine,
    startCharacter: range.startCharacter + (range.startLine === 0 ? bom : 0),
    endLine: range.endLine,
    endCharacter: range.endCharacter + (range.endLine === 0 ? bom : 0),
  };
}
