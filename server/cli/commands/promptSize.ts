// `hermes-lens prompt-size`: what `hermes prompt-size` reports (the system prompt, the skills index,
// memory and user profile, the tiers, the tool schemas and their toolsets by size, each skill's
// index bytes beside its SKILL.md bytes), in bytes and tokens, for a stored session (`--session`)
// or, without it, for the prompt a new session of the profile would get now
// (engine/newSessionPrompt.ts), and the tiers and blocks of that prompt.
import { promptSizeReport, type PromptSizeReport } from '../../hermes/anatomy/promptSize';
import { proseFingerprint } from '../../hermes/anatomy/hermesProse';
import { toolTableFor, type ToolTableChoice } from '../../hermes/anatomy/buildOfPrompt';
import type { PromptAnatomy } from '../../hermes/anatomy/types';
import { defaultToolsFor, isCliSurface, toolTableNamed, toolTableTitle } from '../../hermes/cost/toolSchemas';
import { countsExactlyFor } from '../../hermes/cost/tokens';
import { analyzeProfile, type ProfileAnalysis } from '../../hermes/engine/analyzeProfile';
import { newSessionPrompt } from '../../hermes/engine/newSessionPrompt';
import { promptBreakdown, type PromptBreakdown } from '../../hermes/engine/promptBreakdown';
import type { SessionReport } from '../../hermes/engine/types';
import { openHome, selectedProfiles } from '../../hermes/profile/selection';
import { HermesError } from '../../hermes/errors';
import { buildOptions, commonOptions, parse } from '../args';
import { hermesBuildOf } from '../hermesBuild';
import { printable, table } from '../format';
import { outJson, type CommandIO } from '../io';
import path = require('node:path');

export const promptSizeUsage = 'hermes-lens prompt-size [--session ID | --platform NAME --cwd DIR] [-p NAME] [--home DIR] [--hermes-install DIR] [--json]';

/** The skills the text table lists (`--json` has them all), as Hermes' own table. */
const SKILLS_SHOWN = 20;

export function promptSizeCommand(argv: string[], io: CommandIO): number {
  const args = parse(argv, { ...commonOptions, ...buildOptions, session: { type: 'string' }, platform: { type: 'string' }, cwd: { type: 'string' } });
  if (args.help) return io.out(promptSizeUsage), 0;
  const home = openHome({ home: args.home }, io.env);
  const [profile] = selectedProfiles(home, { profile: args.profile });
  const build = hermesBuildOf(home, args, io);
  const hermesVersion = build.kind === 'found' ? build.version : undefined;
  const now = io.now();
  const analysis = analyzeProfile(profile!, { includeEnded: true, now, hermesVersion, env: io.env });
  if (analysis.report.unavailable) throw new HermesError('db-unreadable', analysis.report.unavailable, analysis.report.dbFile);
  const measured = args.session ? storedSession(analysis, args.session) : newSession(analysis, args.platform ?? 'cli', path.resolve(args.cwd ?? process.cwd()), now, hermesVersion);
  const breakdown = promptBreakdown({ anatomy: measured.anatomy, platform: measured.platform, tools: measured.tools, skills: analysis.sourcesFor(measured.cwd, measured.platform).skills, fs: analysis.fs });
  const exact = countsExactlyFor(measured.anatomy.model);
  const report = promptSizeReport(measured.anatomy, exact);
  if (args.json) {
    outJson(io, { profile: profile!.name, sessionId: measured.session?.id ?? null, newSession: measured.newSession ?? null, ...breakdown, shares: sharesOf(breakdown), ...report });
    return 0;
  }
  io.out(render(profile!.name, measured, breakdown, report));
  return 0;
}

interface Measured {
  readonly anatomy: PromptAnatomy;
  readonly platform: string;
  readonly cwd: string | undefined;
  readonly session: SessionReport | undefined;
  /** For a new session: the stored prompt it was rendered from. */
  readonly newSession?: { readonly cwd: string | null; readonly fromSession: string; readonly samePlatform: boolean; readonly sameFolder: boolean };
  readonly tools: { readonly choice: ToolTableChoice; readonly names: readonly string[]; readonly recorded: boolean; readonly source: string | undefined };
}

function storedSession(analysis: ProfileAnalysis, id: string): Measured {
  const session = analysis.report.sessions.find((s) => s.id === id);
  if (!session) throw new HermesError('session-missing', `No session ${id} in ${analysis.report.dbFile}. "hermes-lens status --all" lists the sessions.`, analysis.report.dbFile);
  const anatomy = analysis.anatomyOf(session.id);
  if (!anatomy) throw new HermesError('session-missing', `Session ${session.id} holds no stored prompt yet (Hermes builds it on its first turn).`);
  const table = toolTableNamed(session.toolTable.build)!;
  return {
    anatomy,
    platform: session.source ?? 'cli',
    cwd: session.cwd,
    session,
    tools: { choice: { table, by: session.toolTable.by }, names: session.toolTable.names, recorded: session.toolTable.recorded, source: session.source },
  };
}

function newSession(analysis: ProfileAnalysis, platform: string, cwd: string, now: number, hermesVersion: string | undefined): Measured {
  // A gateway session's folder is the gateway's, not the shell's: the template's.
  const inFolder = isCliSurface(platform);
  const rendered = newSessionPrompt(analysis, { platform, cwd: inFolder ? cwd : undefined, now });
  if (!rendered) {
    throw new HermesError('session-missing', `No session of profile ${analysis.profile.name} holds a stored prompt yet (${analysis.report.dbFile}): the lens takes Hermes' own text from one. Start a session, then ask again.`, analysis.report.dbFile);
  }
  const choice = toolTableFor(proseFingerprint(rendered.anatomy), hermesVersion);
  const from = rendered.template.session;
  return {
    anatomy: rendered.anatomy,
    platform,
    cwd: inFolder ? cwd : from.cwd,
    session: undefined,
    newSession: { cwd: inFolder ? cwd : null, fromSession: from.id, samePlatform: rendered.template.samePlatform, sameFolder: rendered.template.sameFolder },
    tools: { choice, names: defaultToolsFor(choice.table, platform, analysis.config.disabledToolsets), recorded: false, source: platform },
  };
}

/** Shares of the prefix every request sends before the conversation (tool schemas + system prompt), in tenths of a percent of its tokens. */
function sharesOf(b: PromptBreakdown): Record<string, number> {
  const of = (tokens: number) => (b.prefix_tokens > 0 ? Math.round((tokens / b.prefix_tokens) * 1000) / 10 : 0);
  return { tools: of(b.tools.tokens), system_prompt: of(b.system_prompt.tokens), skills_index: of(b.skills_index.tokens), memory: of(b.memory.tokens), user_profile: of(b.user_profile.tokens) };
}

function render(profile: string, m: Measured, b: PromptBreakdown, report: PromptSizeReport): string {
  const approx = report.tokensExact ? '' : '≈';
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const row = (label: string, bytes: number, tokens: number) => [label, `${bytes.toLocaleString('en-US')} B`, kb(bytes), `${approx}${tokens.toLocaleString('en-US')}`];
  const what = m.session
    ? `System prompt of session ${m.session.id} (${profile}, ${m.platform})`
    : `The prompt a new ${m.platform} session of profile ${profile} would get now${m.newSession!.cwd ? ` in ${m.newSession!.cwd}` : ''}, rendered from today's files and session ${m.newSession!.fromSession}'s stored prompt${m.newSession!.sameFolder ? '' : m.newSession!.samePlatform ? ' (another folder: its workspace lines are that session\'s)' : ` (a session of another platform: its platform lines are that session's)`}`;
  const list = b.tool_sizes.recorded ? `${b.tools.count} tools` : `${b.tools.count} tools, the default list of a ${m.platform} session (state.db names none)`;
  const estimated = b.tools.estimated.length ? `; counted at the average, not measured: ${b.tools.estimated.join(', ')}` : '';
  const sizes = `Tool schemas: ${list}, sized as Hermes' own code measured them for ${toolTableTitle(toolTableNamed(b.tool_sizes.build)!)} (${BASIS[b.tool_sizes.by]})${estimated}.`;
  const parts: string[] = [
    printable(what),
    '',
    table([
      ['PART', 'BYTES', '', 'TOKENS'],
      row('tool schemas', b.tools.json_bytes, b.tools.tokens),
      row('system prompt', b.system_prompt.bytes, b.system_prompt.tokens),
      row('  skills index', b.skills_index.bytes, b.skills_index.tokens),
      row('  memory', b.memory.bytes, b.memory.tokens),
      row('  user profile', b.user_profile.bytes, b.user_profile.tokens),
      ...report.rows.filter((r) => r.label !== 'total' && r.label !== 'memory' && r.label !== 'user profile' && r.label !== 'skills index').map((r) => row(`  ${r.label}`, r.bytes, r.tokens)),
      row('sent before the conversation', b.tools.json_bytes + b.system_prompt.bytes, b.prefix_tokens),
    ]),
    '',
    printable(sizes),
  ];
  if (b.toolsets_breakdown.length) {
    parts.push('', 'Toolsets by size (tool-schema JSON, largest first):', table([['TOOLSET', 'TOOLS', 'BYTES', 'TOKENS'], ...b.toolsets_breakdown.map((t) => [t.toolset, String(t.tool_count), `${t.json_bytes.toLocaleString('en-US')} B`, `${approx}${t.tokens.toLocaleString('en-US')}`])]));
  }
  if (b.skills_breakdown.length) {
    const shown = b.skills_breakdown.slice(0, SKILLS_SHOWN);
    parts.push(
      '',
      'Skills by size (SKILL.md on disk: what loading it costs once; index: what listing it costs every request):',
      table([['SKILL', 'SKILL.MD', 'INDEX'], ...shown.map((s) => [printable(s.name), s.skill_md_bytes === null ? 'n/a' : `${s.skill_md_bytes.toLocaleString('en-US')} B`, `${s.index_line_bytes.toLocaleString('en-US')} B`])]),
    );
    if (b.skills_breakdown.length > shown.length) parts.push(`… and ${b.skills_breakdown.length - shown.length} more (--json lists them all)`);
  }
  return parts.join('\n');
}

const BASIS: Readonly<Record<ToolTableChoice['by'], string>> = {
  prompt: 'the build whose text the prompt carries',
  installed: 'the installed build: the prompt matches no build measured',
  newest: 'the newest release measured: the prompt matches no build measured, nor the installed build',
};
