// A profile's live sessions as prefix families see them: each with its tools array, its stored
// prompt's prefix print and identity, its route's cache layout and its prices. Made from what the
// analysis already holds (no prompt is read); kept per session row and prompt facts, which stay the
// same objects while neither changes, so a re-evaluation after a save makes none again.
import type { ProfileAnalysis } from '../engine/analyzeProfile';
import type { PromptFacts } from '../engine/promptFacts';
import { lookupPrices, type ModelPrices, type PriceOverrides } from '../cost/prices';
import type { SessionRecord } from '../model';
import { memo } from '../memo';
import { cacheLayoutOf } from './cacheLayout';
import { memberTools, toolsBasisOf } from './memberTools';
import type { MemberTools, PrefixMember } from './types';
import type { SessionReport } from '../engine/types';

/** Members made before, by the row and prompt facts they were made from. */
const made = new WeakMap<SessionRecord, { facts: PromptFacts; ttl: number; member: PrefixMember }>();

/** Tools arrays by the names list (shared by the sessions of one list: toolSchemas.ts, DecodedColumns), then build, platform and profile. */
const toolsMade = new WeakMap<readonly string[], Map<string, Map<string, Map<string, MemberTools>>>>();

/** The live sessions holding a stored prompt, as members of `home`'s families. */
export function membersOf(home: string, analysis: ProfileAnalysis, priceOverrides?: PriceOverrides): PrefixMember[] {
  const out: PrefixMember[] = [];
  const prices = new Map<string, ModelPrices | null>();
  const profileDir = analysis.profile.dir;
  for (const report of analysis.report.sessions) {
    if (report.state === 'ended' || report.state === 'no-prompt') continue;
    const inputs = analysis.inputsOf(report.id);
    if (!inputs?.prompt || inputs.identity === undefined) continue;
    const { record, prompt, identity } = inputs;
    const kept = made.get(record);
    if (kept && kept.facts === prompt && kept.ttl === report.ttlSeconds && kept.member.report === report && kept.member.home === home) {
      out.push(kept.member);
      continue;
    }
    const model = report.model ?? '';
    const provider = report.provider ?? '';
    const platform = report.source ?? 'unknown';
    const tools = toolsOf(report, platform, profileDir);
    const member: PrefixMember = {
      home,
      profile: analysis.profile.name,
      profileDir,
      report,
      platform,
      model,
      provider,
      layout: cacheLayoutOf(model, provider, report.ttlSeconds),
      tools,
      toolsKey: `${model}\u0000${provider}\u0000${tools.digest}`,
      print: prompt.prefix,
      identity,
      // Only what a split costs needs prices: looked up when first asked.
      get prices() {
        return memo(prices, `${model}\u0000${provider}`, () => lookupPrices(model || undefined, provider || undefined, priceOverrides) ?? null) ?? undefined;
      },
    };
    made.set(record, { facts: prompt, ttl: report.ttlSeconds, member });
    out.push(member);
  }
  return out;
}

/** A session's tools array, made once per names list, platform and profile. */
export function toolsOf(report: SessionReport, platform: string, profileDir: string): MemberTools {
  // Maps in maps, not a key joined per session: a status asks this of 2,000 sessions.
  const use = report.toolTable;
  let byBuild = toolsMade.get(use.names);
  if (!byBuild) toolsMade.set(use.names, (byBuild = new Map()));
  const byPlatform = memo(byBuild, use.build, newMap<string, Map<string, MemberTools>>);
  const byProfile = memo(byPlatform, platform, newMap<string, MemberTools>);
  let tools = byProfile.get(profileDir);
  if (!tools) byProfile.set(profileDir, (tools = memberTools(toolsBasisOf(report), platform, profileDir)));
  return tools;
}

function newMap<K, V>(): Map<K, V> {
  return new Map();
}
