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
import type { PrefixMember } from './types';

/** Members made before, by the row and prompt facts they were made from. */
const made = new WeakMap<SessionRecord, { facts: PromptFacts; ttl: number; member: PrefixMember }>();

/** The live sessions holding a stored prompt, as members of `home`'s families. */
export function membersOf(home: string, analysis: ProfileAnalysis, priceOverrides?: PriceOverrides): PrefixMember[] {
  const out: PrefixMember[] = [];
  const prices = new Map<string, ModelPrices | null>();
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
    const member: PrefixMember = {
      home,
      profile: analysis.profile.name,
      profileDir: analysis.profile.dir,
      report,
      platform,
      model,
      provider,
      layout: cacheLayoutOf(model, provider, report.ttlSeconds),
      tools: memberTools(toolsBasisOf(report), platform, analysis.profile.dir),
      print: prompt.prefix,
      identity,
      prices: memo(prices, `${model}\u0000${provider}`, () => lookupPrices(model || undefined, provider || undefined, priceOverrides) ?? null) ?? undefined,
    };
    made.set(record, { facts: prompt, ttl: report.ttlSeconds, member });
    out.push(member);
  }
  return out;
}
