// The custom requests behind the read-only prompt document, the diff editor and the prompt anatomy view.
import { toolBlockSize, toolsetsBySize, toolTableNamed, toolTableTitle } from '../../hermes/cost/toolSchemas';
import { skillCosts } from '../../hermes/engine/promptBreakdown';
import { diffPrompt } from '../../hermes/engine/promptDiff';
import { promptMap } from '../../hermes/engine/promptMap';
import { reasonJson } from '../../hermes/engine/reportJson';
import type { SessionReport } from '../../hermes/engine/types';
import { HermesError } from '../../hermes/errors';
import type { PromptAnatomyDto, PromptDiffDto, PromptMapDto, PromptToolsDto, SessionRef } from '../../../shared/protocol';
import type { HermesModel } from '../../workspace/hermesModel';
import { skillsAsReadBy } from '../../hermes/sources/skillsAsRead';

function sessionAnatomy(model: HermesModel, ref: SessionRef) {
  const analysis = model.profileByName(ref.profile);
  const anatomy = analysis?.anatomyOf(ref.sessionId);
  if (!analysis || !anatomy) {
    throw new HermesError('session-missing', `Session ${ref.sessionId} of profile ${ref.profile} holds no stored prompt (or is not live).`);
  }
  return { analysis, anatomy, session: analysis.report.sessions.find((s) => s.id === ref.sessionId) };
}

export function anatomyDto(model: HermesModel, ref: SessionRef): PromptAnatomyDto {
  const { anatomy, session } = sessionAnatomy(model, ref);
  return {
    ...ref,
    text: anatomy.text,
    bytes: anatomy.bytes,
    tokens: anatomy.tokens,
    // The session's: a count is exact for its model or not (the anatomy is shared by every session holding the text).
    tokensExact: session?.tokensExact ?? false,
    tiers: anatomy.tiers.map((t) => ({ name: t.name, start: t.start, end: t.end, bytes: t.bytes, tokens: t.tokens })),
    blocks: anatomy.blocks.map((b) => ({ kind: b.kind, tier: b.tier, start: b.start, end: b.end, bytes: b.bytes, tokens: b.tokens, label: b.label })),
  };
}

export function diffDto(model: HermesModel, ref: SessionRef): PromptDiffDto {
  const { analysis, anatomy, session } = sessionAnatomy(model, ref);
  const diff = diffPrompt(anatomy, analysis.sourcesFor(session?.cwd, session?.source));
  return { ...ref, before: diff.before, after: diff.after, sections: diff.sections.map((s) => ({ ...s, hunks: [...s.hunks] })) };
}

/** The prompt as parts with their files, sizes and stale marks: sizes, labels and paths, never its text. */
export function mapDto(model: HermesModel, ref: SessionRef): PromptMapDto {
  const { analysis, anatomy, session } = sessionAnatomy(model, ref);
  const sources = analysis.sourcesFor(session?.cwd, session?.source);
  const map = promptMap({ anatomy, reasons: session?.reasons ?? [], sources, profileDir: analysis.profile.dir, cwd: session?.cwd, fs: analysis.fs });
  const costs = new Map(skillCosts(anatomy, skillsAsReadBy(sources.skills, anatomy), analysis.fs).map((c) => [c.name, c]));
  return {
    ...ref,
    bytes: map.bytes,
    tokens: map.tokens,
    tokensExact: session?.tokensExact ?? false,
    tiers: map.tiers.map((t) => ({ ...t })),
    parts: map.parts.map((p) => ({
      kind: p.kind,
      tier: p.tier,
      label: p.label,
      origin: p.origin,
      path: p.path ?? null,
      line: p.line ?? null,
      start: p.start,
      end: p.end,
      bytes: p.bytes,
      tokens: p.tokens,
      shareTenths: p.shareTenths,
      stale: p.stale.map(reasonJson),
      entries: p.entries.map((e) => ({
        name: e.name,
        category: e.category,
        path: e.path ?? null,
        line: e.line ?? null,
        stale: e.stale ? reasonJson(e.stale) : null,
        indexBytes: costs.get(e.name)?.index_line_bytes ?? null,
        skillMdBytes: costs.get(e.name)?.skill_md_bytes ?? null,
      })),
    })),
    unplaced: map.unplaced.map(reasonJson),
    tools: session ? toolsDto(session) : null,
  };
}

/** The session's tool block by the table its report priced it with. */
function toolsDto(session: SessionReport): PromptToolsDto {
  const { build, by, recorded, names, estimated } = session.toolTable;
  const table = toolTableNamed(build)!;
  const size = toolBlockSize(table, names, session.source);
  return {
    tokens: size.tokens,
    bytes: size.bytes,
    count: size.count,
    build,
    buildTitle: toolTableTitle(table),
    by,
    recorded,
    estimated,
    toolsets: toolsetsBySize(table, names, session.source).map((t) => ({ toolset: t.toolset, tools: t.toolCount, tokens: t.tokens, bytes: t.bytes })),
  };
}
