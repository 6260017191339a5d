// A stored prompt as a corpus build writes it (corpusBuilds.ts): the blocks today's sources render
// (SOUL.md, the skills list, the project context, MEMORY.md, USER.md; server/hermes/sources), placed
// and surrounded as that build places and surrounds them. The tier order follows
// docs/HERMES-FORMATS.md §1 and the test/fixtures/hermes-builds README ("How the prompts differ").
import { SKILLS_CLOSE, SKILLS_OPEN, PROJECT_CONTEXT_PREFIX } from '../server/hermes/literals/containers';
import { activeProfileLine, trailer, type ActiveProfile } from '../server/hermes/sources/promptLines';
import { isParentFolderLabel } from '../server/hermes/sources/projectContext';
import type { ProjectContext, RenderedSources } from '../server/hermes/sources/types';
import { pyStrip } from '../server/hermes/text/pyText';
import type { BuildLayout } from './corpusBuilds';

/** What a session of the prompt brings: where it ran, on what, and when. */
export interface LayoutSession {
  /** The folder Hermes worked in (the user's home for gateway sessions). */
  readonly cwd: string;
  /** The workspace snapshot's facts, when the folder is in a git root or holds a context file. */
  readonly workspace?: { readonly root: string; readonly git: boolean; readonly contextFiles: readonly string[] };
  readonly host: string;
  readonly userHome: string;
  readonly activeProfile: ActiveProfile;
  readonly model: string;
  readonly provider: string;
  readonly platform: string;
  readonly startedAt: number;
  /** config.yaml's `timezone`, which 0.20.3 names after the start date. */
  readonly timeZone: string;
  readonly callerSystemMessage?: string;
}

export function buildLayoutPrompt(layout: BuildLayout, sources: RenderedSources, session: LayoutSession): string {
  const skills = skillsBlock(layout, sources.skills.block);
  const hint = layout.platformHints[session.platform];
  const closing = [layout.toolchain, activeProfileLine(session.activeProfile), hint];
  const ws = session.workspace;
  const host = `Host: ${session.host}\nUser home directory: ${session.userHome}\nCurrent working directory: ${session.cwd}`;
  const stable = [
    sources.soul.block,
    layout.guidance,
    session.model.includes('gpt') ? layout.gptGuidance : '',
    layout.skillsTier === 'stable' ? skills : '',
    host,
    ...(ws ? [layout.codingBrief] : closing),
  ];
  const context = [...(ws ? [workspaceSnapshot(layout, ws), ...closing] : []), session.callerSystemMessage, projectContext(layout, sources.projectContext)];
  const volatile = [layout.skillsTier === 'volatile' ? skills : '', sources.memory.block, sources.user.block, trailerOf(layout, session)];
  return [stable, context, volatile].map(joinTier).filter(Boolean).join('\n\n');
}

/** Today's list of skills inside the build's own heading, instructions and closing sentence. */
function skillsBlock(layout: BuildLayout, rendered: string): string {
  if (!rendered) return '';
  const list = rendered.slice(rendered.indexOf(SKILLS_OPEN) + SKILLS_OPEN.length, rendered.lastIndexOf(`\n${SKILLS_CLOSE}`));
  return `${layout.skillsHead}${SKILLS_OPEN}${list}\n${layout.skillsTail}`;
}

/** Builds before 0.20.3 load the session folder's own context file only, never its parents'. */
function projectContext(layout: BuildLayout, today: ProjectContext): string {
  if (layout.readsParentFolders) return today.block;
  const own = today.files.filter((f) => !isParentFolderLabel(f.label ?? ''));
  if (own.length === today.files.length) return today.block;
  return own.length === 0 ? '' : PROJECT_CONTEXT_PREFIX + own.map((f) => f.rendered).join('\n\n');
}

function workspaceSnapshot(layout: BuildLayout, ws: NonNullable<LayoutSession['workspace']>): string {
  const lines = [layout.workspaceHeading, `- Root: ${ws.root}`];
  if (ws.git) lines.push('- Branch: main', '- Status: clean');
  if (ws.contextFiles.length) lines.push(`- Context files: ${ws.contextFiles.join(', ')}`);
  return lines.join('\n');
}

/** Builds before 0.20.3 write the start date alone, without the zone in parentheses. */
function trailerOf(layout: BuildLayout, session: LayoutSession): string {
  const text = trailer({ startedAt: session.startedAt, now: session.startedAt, timeZone: session.timeZone, model: session.model, provider: session.provider, platform: session.platform });
  return layout.zoneInTrailer ? text : text.replace(/^([^\n]*?) \([^)\n]*\)/, '$1');
}

/** `SP._join_tier`: the stripped, non-empty parts, a blank line apart. */
function joinTier(parts: ReadonlyArray<string | undefined>): string {
  return parts.map((p) => pyStrip(p ?? '')).filter(Boolean).join('\n\n');
}
