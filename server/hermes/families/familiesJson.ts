// The one definition of the prefix families' JSON: `hermes-lens prefixes --json` and the language
// server's `hermes/prefixFamilies` answer.
import type { PartingDto, PartingPlaceDto, PrefixFamiliesDto, PrefixFamilyDto } from '../../../shared/prefixFamilies';
import type { FamiliesReport, Parting, PartingPlace, PrefixFamily } from './types';

export function familiesJson(report: FamiliesReport): PrefixFamiliesDto {
  return {
    homes: [...report.homes],
    activity: { from: report.activity.from ?? null, to: report.activity.to ?? null, days: report.activity.days },
    families: report.families.map(familyJson),
    partings: report.partings.map(partingJson),
  };
}

export function familyJson(f: PrefixFamily): PrefixFamilyDto {
  return {
    id: f.id,
    breakpoint: f.breakpoint,
    marked: f.marked,
    model: f.model,
    provider: f.provider,
    tokens: f.tokens,
    tokensExact: f.tokensExact,
    bytes: f.bytes ?? null,
    homes: [...f.homes],
    profiles: [...f.profiles],
    platforms: [...f.platforms],
    sessions: f.members.length,
    members: f.members.map((m) => ({ home: m.home, profile: m.profile, sessionId: m.report.id })),
    warm: f.warm,
    toolsInferred: f.toolsInferred,
    parent: f.parent ?? null,
  };
}

function placeJson(p: PartingPlace): PartingPlaceDto {
  return {
    offset: p.offset ?? null,
    systemOffset: p.systemOffset ?? null,
    exact: p.exact,
    block: p.block,
    tier: p.tier,
    source: p.source,
    reason: p.reason,
    choice: p.choice,
    fix: p.fix ?? null,
  };
}

function partingJson(p: Parting): PartingDto {
  return {
    a: p.a,
    b: p.b,
    ...placeJson(p),
    then: p.then ? placeJson(p.then) : null,
    stableTierShared: p.stableTierShared,
    sharedTokens: p.sharedTokens,
    extraWritesPerDay: p.extraWritesPerDay,
    extraTokensPerDay: p.extraTokensPerDay,
    extraUsdPerDay: p.extraUsdPerDay ?? null,
    savingUsdPerDay: p.savingUsdPerDay ?? null,
  };
}
