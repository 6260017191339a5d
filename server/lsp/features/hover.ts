// Hover anywhere in a source file: the tier it lands in, the size of this file's contribution and
// its share of the prompt, how many sessions and profiles carry it, and what refreshing them costs
// now. On a skill: the exact index line (description) or that the body is not in the prompt.
import path = require('node:path');
import { MarkupKind, type Hover, type HoverParams } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { countTokens } from '../../hermes/cost/tokens';
import { formatUsd } from '../../hermes/cost/refreshCost';
import { parseFrontmatter } from '../../hermes/text/frontmatter';
import type { HermesModel, SourceRole } from '../../workspace/hermesModel';
import { summarizeRole } from '../../workspace/roleSummary';
import { soulPartingLines } from './soulPartingsHover';
import { uriToPath } from '../uri';
import { ClientCommands, OTHER_BUILD, type SavePreviewDto } from '../../../shared/protocol';
import { adoptionCountsText, CLEAR_INSTEAD, NOT_ADOPTED } from '../../hermes/refresh/adoptionWords';
import { byRecentActivity } from '../../../shared/sessionOrder';

const TIER_WHY: Record<string, string> = {
  stable: 'the prefix Hermes marks for new sessions to share, after the tool schemas; an edit here re-writes the whole cache',
  context: 'per project and profile, after the stable tier',
  volatile: 'the last tier: memory, skills index, date and model lines',
};

/**
 * `preview`: what saving the document's unsaved text would do (savePreviews.ts), when it has any.
 * `commandLinks`: the client runs ClientCommands from `command:` links (HermesInitializationOptions.hoverCommandLinks).
 */
export function provideHover(model: HermesModel, document: TextDocument | undefined, params: HoverParams, preview?: SavePreviewDto, commandLinks = false): Hover | null {
  const file = uriToPath(params.textDocument.uri);
  const role = file ? model.roleOf(file) : undefined;
  if (!role) return null;
  // Markdown paragraphs: each figure on its own line in the hover.
  const lines = [
    ...headline(role, document, params.position.line),
    '',
    ...(preview ? [previewLine(preview), ''] : []),
    ...soulPartingLines(model, role, params.position.line).flatMap((line) => [line, '']),
    ...figures(role).flatMap((line) => [line, '']),
    ...adoptionLines(role, commandLinks).flatMap((line) => [line, '']),
  ];
  if (commandLinks) lines.push(...anatomyLinks(role));
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n').trimEnd() } };
}

function headline(role: SourceRole, document: TextDocument | undefined, line: number): string[] {
  if (role.shadowedBy) {
    return [`**Hermes: not in any prompt.** No session loads this file: \`${role.shadowedBy}\` wins the project-context discovery (only the first kind found is loaded).`];
  }
  const tier = role.tier ? `**Hermes · ${role.tier} tier** — ${TIER_WHY[role.tier]}` : '**Hermes**';
  if (role.kind === 'skill' && document) {
    const front = parseFrontmatter(document.getText());
    const rendered = role.uses[0]?.contribution?.rendered ?? '';
    if (front.data && line >= front.bodyStartLine) {
      return [
        tier,
        '',
        "This is the skill's **body**: it is not in the system prompt (Hermes loads it only when the model calls `skill_view`). Editing it changes no session.",
      ];
    }
    const skillMd = Buffer.byteLength(document.getText(), 'utf8').toLocaleString('en-US');
    if (!rendered) return [tier, '', 'This skill is not in the index (hidden by platform, conditions or `skills.disabled`).'];
    // What `hermes prompt-size` sets side by side: listing the skill, on every request, against loading it once.
    const cost = `Listing it costs **${Buffer.byteLength(rendered, 'utf8').toLocaleString('en-US')} bytes** of the skills index on every request; loading it (\`skill_view\`) reads this SKILL.md, **${skillMd} bytes**, once.`;
    return [tier, '', 'Enters the prompt as this skills-index line:', '```text', rendered, '```', '', cost];
  }
  return [tier];
}

/** The unsaved text's effect, before the figures of the file as saved. */
function previewLine(preview: SavePreviewDto): string {
  const already = preview.stale > 0 && preview.alreadyStale > 0 ? ` ${preview.alreadyStale} of them are stale already because of the saved file.` : '';
  return `**Preview (unsaved):** ${preview.sentence}${already} The figures below are of the file as saved.`;
}

function figures(role: SourceRole): string[] {
  if (role.shadowedBy) return [];
  const contribution = role.uses.find((u) => u.contribution)?.contribution;
  const text = contribution?.rendered ?? '';
  const bytes = Buffer.byteLength(text, 'utf8');
  const sessions = role.uses.flatMap((u) => u.sessions);
  const model = sessions[0]?.model ?? undefined;
  const tokens = countTokens(text, model);
  const promptTokens = sessions.length ? sessions.reduce((n, s) => n + s.systemPromptTokens, 0) / sessions.length : 0;
  const share = promptTokens > 0 ? ` · ${Math.round((tokens.tokens / promptTokens) * 100)}% of the system prompt` : '';
  const summary = summarizeRole(role);
  const out = [`This file puts **${bytes.toLocaleString('en-US')} bytes** (${tokens.exact ? '' : '≈'}${tokens.tokens.toLocaleString('en-US')} tokens) into the prompt${share}.`];
  out.push(`Carried by **${summary.sessions}** live session${summary.sessions === 1 ? '' : 's'} in ${summary.profiles} profile${summary.profiles === 1 ? '' : 's'}.`);
  out.push(...buildDifferences(role));
  if (summary.stale > 0) {
    const cold = summary.stale - summary.warm;
    out.push(
      `**${summary.stale} stale** because of this file · refreshing them now: **${formatUsd(summary.costUsd, true)}**` +
        (summary.unknownCost ? ` (+ ${summary.unknownCost} of unknown cost)` : '') +
        ` · ${summary.warm} warm cache${summary.warm === 1 ? '' : 's'}, ${cold} already expired (free but for the prompt change).`,
    );
  } else {
    if (summary.sessions > 0) out.push('Every session that carries it already holds this version.');
  }
  if (summary.otherBuild > 0) {
    out.push(`${summary.otherBuild} of them ${summary.otherBuild === 1 ? 'was' : 'were'} ${OTHER_BUILD}: Hermes' own text in ${summary.otherBuild === 1 ? 'its prompt' : 'their prompts'}, or the files that build loads, differ from the newest session's (not stale; a refresh would bring the newer text too).`);
  }
  return out;
}

/** How the refresh requests of the sessions carrying the file stand; an offer to clear the prompt of those that did not adopt theirs. */
function adoptionLines(role: SourceRole, commandLinks: boolean): string[] {
  const summary = summarizeRole(role);
  const watched = adoptionCountsText(summary.adoption);
  if (!watched) return [];
  const out = [`Refresh requests of these sessions: ${watched}.`];
  const n = summary.notAdopted.length;
  if (n > 0) {
    const names = summary.notAdopted.slice(0, 3).map(({ session }) => markdownText(session.title ?? session.id)).join(', ');
    out.push(`**${n === 1 ? 'One session' : `${n} sessions`} ${NOT_ADOPTED}** (${names}${n > 3 ? ', …' : ''}). ${CLEAR_INSTEAD}`);
    if (commandLinks) {
      out.push(
        summary.notAdopted
          .slice(0, 3)
          .map(({ profile, session }) => {
            const args = encodeURIComponent(JSON.stringify([{ profile, sessionId: session.id }]));
            return `[$(trash) Clear the stored prompt of ${markdownText(session.title ?? session.id)}](command:${ClientCommands.clearSessionPrompt}?${args})`;
          })
          .join(' · '),
      );
    }
  }
  return out;
}

/** A session's title as Markdown text: its punctuation escaped, so a title cannot open a link, a code span or a heading. */
function markdownText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, '\\$&');
}

/** Where Hermes builds load different files from the folder (AGENTS.override.md beside AGENTS.md). */
function buildDifferences(role: SourceRole): string[] {
  const out: string[] = [];
  if (role.todayLoadsInstead) {
    out.push(`Hermes from 0.20.3 on loads \`${path.basename(role.todayLoadsInstead)}\` instead; these sessions were started by a build that loads this file.`);
  }
  const n = role.notLoadedByTheirBuild ?? 0;
  if (n > 0) {
    out.push(`${n} other live session${n === 1 ? '' : 's'} in its folder ${n === 1 ? 'was' : 'were'} started by a Hermes build that does not load it: editing it leaves ${n === 1 ? 'that one as it is' : 'them as they are'}.`);
  }
  return out;
}

/**
 * A link per profile to the prompt anatomy view of the newest live session carrying the file,
 * with the file's part selected.
 */
function anatomyLinks(role: SourceRole): string[] {
  const links = role.uses.flatMap((use) => {
    const newest = use.sessions.reduce<(typeof use.sessions)[number] | undefined>((a, s) => (!a || byRecentActivity(s, a) < 0 ? s : a), undefined);
    if (!newest) return [];
    const args = encodeURIComponent(JSON.stringify([{ profile: use.analysis.profile.name, sessionId: newest.id, path: role.file }]));
    const where = role.uses.length > 1 ? ` (${use.analysis.profile.name})` : '';
    return [`[$(pie-chart) Show the prompt anatomy${where}](command:${ClientCommands.showPromptAnatomy}?${args})`];
  });
  return links.length ? [links.join(' · ')] : [];
}
