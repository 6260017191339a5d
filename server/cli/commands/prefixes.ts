// `hermes-lens prefixes`: which live sessions share a prompt-cache entry, across profiles,
// platforms and homes; where those that could share part, why, and what the split costs a day.
import { analyzeProfile } from '../../hermes/engine/analyzeProfile';
import { diskVerdicts } from '../../hermes/engine/diskVerdicts';
import { profilePaths } from '../../hermes/profile/home';
import { openHome, selectedProfiles } from '../../hermes/profile/selection';
import { familiesJson } from '../../hermes/families/familiesJson';
import { prefixFamiliesReport } from '../../hermes/families/prefixFamilies';
import { storeReading } from '../../hermes/families/readings';
import type { FamiliesReport, Parting, PrefixFamily } from '../../hermes/families/types';
import { formatUsd } from '../../hermes/cost/refreshCost';
import { UsageError, parse } from '../args';
import { printable, shortCount, table } from '../format';
import { outJson, type CommandIO } from '../io';

export const prefixesUsage = 'hermes-lens prefixes [--home DIR …] [-p NAME …] [--json]';

export function prefixesCommand(argv: string[], io: CommandIO): number {
  const args = parse(argv, {
    home: { type: 'string', multiple: true },
    profile: { type: 'string', short: 'p', multiple: true },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (args.help) return io.out(prefixesUsage), 0;
  const homes = (args.home?.length ? args.home : [undefined]).map((home) => openHome({ home }, io.env));
  if (new Set(homes.map((h) => h.root)).size !== homes.length) throw new UsageError('the same home was given twice');
  const now = io.now();
  const readings = homes.flatMap((home) =>
    selectedProfiles(home, args.profile?.length ? { profiles: args.profile } : { allProfiles: true }).map((profile) =>
      storeReading(home.root, analyzeProfile(profile, { now, verdicts: diskVerdicts(profilePaths(profile).stateDb) })),
    ),
  );
  try {
    const report = prefixFamiliesReport(readings);
    if (args.json) outJson(io, familiesJson(report));
    else io.out(renderReport(report));
  } finally {
    for (const reading of readings) reading.close();
  }
  return 0;
}

function renderReport(report: FamiliesReport): string {
  const stable = report.families.filter((f) => f.breakpoint === 'stable');
  const sessions = new Set(stable.flatMap((f) => f.members.map((m) => `${m.profileDir}\u0000${m.report.id}`))).size;
  if (sessions === 0) return 'No live session holds a stored prompt: there is nothing to share yet.';
  const profiles = new Set(stable.flatMap((f) => f.members.map((m) => `${m.home}\u0000${m.profile}`))).size;
  const label = (f: PrefixFamily) => `${f.homes.length > 1 || report.homes.length > 1 ? `${f.homes.join(', ')}: ` : ''}${f.profiles.join(', ')}`;
  const out = [
    `Prefix sharing: ${sessions} live session${sessions === 1 ? '' : 's'} in ${profiles} profile${profiles === 1 ? '' : 's'} write ${stable.length} stable-tier cache entr${stable.length === 1 ? 'y' : 'ies'} (${report.families.filter((f) => f.breakpoint === 'tools').length} tools arrays).`,
    '',
    table([
      ['ENTRY', 'PROFILES', 'PLATFORMS', 'MODEL', 'SESSIONS', 'TOKENS', 'MARKED', 'CACHE'],
      ...stable.map((f) => [f.id, label(f), f.platforms.join(', '), f.model, String(f.members.length), `${f.tokensExact ? '' : '≈'}${shortCount(f.tokens)}`, f.marked, f.warm ? 'warm' : 'cold']),
    ]),
  ];
  if (stable.some((f) => f.toolsInferred)) out.push('', '  Tools inferred from each session\'s platform, config and Hermes build: this state.db names none (sessions.tool_names).');
  if (report.partings.length > 0) {
    out.push('', `Where they part (requests of ${report.activity.days} day${report.activity.days === 1 ? '' : 's'}):`);
    const byId = new Map(report.families.map((f) => [f.id, f]));
    for (const p of report.partings) out.push(...renderParting(p, byId.get(p.a)!, byId.get(p.b)!));
  }
  return out.join('\n');
}

function renderParting(p: Parting, a: PrefixFamily, b: PrefixFamily): string[] {
  const side = (f: PrefixFamily) => `${f.profiles.join(', ')} · ${f.platforms.join(', ')}`;
  const where = (place: Parting | NonNullable<Parting['then']>) =>
    place.tier === 'tools' ? `tools${place.offset === undefined ? '' : ` (byte ${place.offset.toLocaleString('en-US')})`}` : `${place.tier} tier, system prompt byte ${place.systemOffset?.toLocaleString('en-US') ?? '?'}`;
  const lines = [`  ${side(a)}  ↔  ${side(b)}  (${a.id} ↔ ${b.id})`, `    ${where(p)}: ${printable(p.source)} — ${printable(p.reason)}.`];
  if (p.then) lines.push(`    then ${where(p.then)}: ${printable(p.then.source)} — ${printable(p.then.reason)}.`);
  const usd = p.extraUsdPerDay === undefined ? 'cost unknown (no prices)' : formatUsd(p.extraUsdPerDay, true);
  lines.push(`    split: ${p.extraWritesPerDay.toFixed(1)} extra cache write${p.extraWritesPerDay === 1 ? '' : 's'} a day, ${shortCount(Math.round(p.extraTokensPerDay))} tokens, ${usd} a day${savingWords(p)}`);
  return lines;
}

function savingWords(p: Parting): string {
  if (p.fix === 'update-hermes' || p.then?.fix === 'update-hermes') {
    if (p.savingUsdPerDay !== undefined && p.fix === 'update-hermes') return `; updating Hermes would save it (${formatUsd(p.savingUsdPerDay, true)} a day)`;
    return '; a newer Hermes alone would not save it: the tools still part them';
  }
  return '';
}
