// `hermes-lens status`: which sessions are stale, why, and what refreshing them costs now.
import { analyzeProfile } from '../../hermes/engine/analyzeProfile';
import { diskVerdicts } from '../../hermes/engine/diskVerdicts';
import { memoryVerdicts } from '../../hermes/engine/verdictStore';
import type { Profile } from '../../hermes/model';
import { profilePaths } from '../../hermes/profile/home';
import { profileSummaryJson, sessionJson } from '../../hermes/engine/reportJson';
import type { ProfileReport } from '../../hermes/engine/types';
import { openHome, selectedProfiles } from '../../hermes/profile/selection';
import { formatUsd } from '../../hermes/cost/refreshCost';
import { buildSummary, UNADOPTABLE_REQUEST } from '../../hermes/install/describeBuild';
import { adoptsRefreshRequests } from '../../hermes/install/hermesBuild';
import { AdoptionLedger } from '../../hermes/refresh/adoptionLedger';
import { adoptionFiles, memoryAdoptionFiles } from '../../hermes/refresh/adoptionFiles';
import { adoptionCountsText } from '../../hermes/refresh/adoptionWords';
import { hermesJson, protocolSummary, refreshProtocolOf } from '../../hermes/refresh/refreshProtocol';
import { buildOptions, commonOptions, parse } from '../args';
import { hermesBuildOf } from '../hermesBuild';
import { adoptionLines, cacheText, costText, printable, relativeTime, table, tokensText, truncate } from '../format';
import { OTHER_BUILD } from '../../../shared/otherBuild';
import { outJson, type CommandIO } from '../io';
import { MappedItems } from '../jsonPieces';
import { sharingSentence, sharingSummary } from '../../hermes/families/sharingSummary';
import { sqliteDriverStatus } from '../../hermes/store/connection';

export const statusUsage = 'hermes-lens status [--home DIR] [-p NAME | --all-profiles] [--all] [--hermes-install DIR] [--json]';

export function statusCommand(argv: string[], io: CommandIO): number {
  const args = parse(argv, { ...commonOptions, ...buildOptions, 'all-profiles': { type: 'boolean' }, all: { type: 'boolean' } });
  if (args.help) return io.out(statusUsage), 0;
  const home = openHome({ home: args.home }, io.env);
  const profiles = selectedProfiles(home, { profile: args.profile, allProfiles: args['all-profiles'] });
  const build = hermesBuildOf(home, args, io);
  const now = io.now();
  // What an earlier status worked out and still holds is taken from the lens's cache; with --all
  // (ended sessions, whose compaction tips depend on every session) everything is worked out now.
  const adopts = adoptsRefreshRequests(build);
  const verdictsOf = (p: Profile) => (args.all ? memoryVerdicts : diskVerdicts(profilePaths(p).stateDb, undefined, undefined, io.env));
  const hermesVersion = build.kind === 'found' ? build.version : undefined;
  // The watches of refresh requests the lens keeps (its editor windows and earlier runs), brought up to date and kept again.
  const files = adoptionFiles(io.env) ?? memoryAdoptionFiles();
  let protocol = refreshProtocolOf(build, files.learned(home.root));
  const analyses = profiles.map((p) => {
    const ledger = new AdoptionLedger(profilePaths(p).stateDb, files);
    const analysis = analyzeProfile(p, { includeEnded: args.all, now, verdicts: verdictsOf(p), adoptsRefreshRequests: adopts, refreshKeys: protocol.keys, adoption: ledger, hermesVersion, env: io.env });
    const report = analysis.report;
    if (ledger.stampSeen && ledger.stampSeen.stampKey !== protocol.keys.stampKey) {
      files.learn(home.root, { ...ledger.stampSeen, profile: p.name, at: now });
      protocol = refreshProtocolOf(build, files.learned(home.root));
    }
    if (!report.unavailable) ledger.persist(new Set(report.sessions.filter((s) => s.state !== 'ended').map((s) => s.id)));
    return analysis;
  });
  const reports = analyses.map((a) => a.report);
  // Which of these sessions share a cached prefix, in a line (hermes-lens prefixes says where they part).
  const sharing = sharingSummary(home.root, analyses);
  if (args.json) {
    // Each session's JSON is made as it is written out, and is garbage right after.
    outJson(io, { home: home.root, hermes: hermesJson(build, protocol), sqlite: sqliteJson(), prefixSharing: sharing, profiles: reports.map((r) => ({ ...profileSummaryJson(r), sessions: new MappedItems(r.sessions, sessionJson) })) });
  } else {
    io.out([[printable(buildSummary(build)), printable(protocolSummary(protocol))].join('\n'), ...reports.map((r) => renderProfile(r, now)), sharingSentence(sharing)].join('\n\n'));
  }
  return 0;
}

/** The SQLite binding that read state.db (the bindings are tried in a fixed order), or why none loads. */
function sqliteJson(): { driver: string | null; version: string | null; problem: string | null } {
  const status = sqliteDriverStatus();
  return { driver: status.driver ?? null, version: status.sqliteVersion ?? null, problem: status.problem ?? null };
}

function renderProfile(report: ProfileReport, now: number): string {
  const title = `Profile ${report.name}${report.isActive ? ' (active)' : ''} — ${report.home}`;
  if (report.unavailable) return `${title}\n  ${printable(report.unavailable)}`;
  const watched = adoptionCountsText(report.adoption);
  const header = `${title}\n  ${report.storedPromptSessions} session(s) with a stored prompt · requested refresh epoch ${report.requestedEpoch}${watched ? `\n  Refresh requests: ${watched}` : ''}`;
  const problems = report.problems.map((p) => `  ! ${printable(p)}`);
  if (report.sessions.length === 0) return [header, ...problems, '  No live sessions (use --all to include ended ones).'].join('\n');
  const rows: string[][] = [['STATE', 'SESSION', 'TITLE', 'SOURCE', 'MODEL', 'ACTIVE', 'PREFIX', 'CACHE', 'REFRESH NOW']];
  const lines: string[] = [];
  for (const s of report.sessions) {
    rows.push([
      s.state,
      s.id,
      truncate(s.title ?? '', 28),
      s.source ?? '',
      truncate(s.model ?? '', 22),
      relativeTime(s.lastActivityAt, now),
      tokensText(s),
      s.state === 'ended' ? '' : cacheText(s, now),
      s.state === 'ended' ? (s.tipSessionId ? `continues in ${s.tipSessionId}` : '') : costText(s),
    ]);
  }
  const rendered = table(rows).split('\n');
  // Reasons go under their session's row.
  report.sessions.forEach((s, i) => {
    lines.push(rendered[i + 1]!);
    for (const r of s.reasons) lines.push(printable(`      ↳ ${r.source} ${r.change}: ${r.detail} (${r.path})`));
    if (s.unadoptableRequest) lines.push(`      ↳ ${UNADOPTABLE_REQUEST}`);
    for (const line of adoptionLines(s)) lines.push(printable(`      ↳ ${line}`));
    if (s.otherBuild) lines.push(printable(`      · ${OTHER_BUILD}: ${s.otherBuild}`));
  });
  const t = report.totals;
  const unknown = t.unknownCost ? ` + ${t.unknownCost} of unknown cost` : '';
  const otherBuilds = report.sessions.filter((s) => s.otherBuild).length;
  const others = otherBuilds ? ` · ${otherBuilds} ${OTHER_BUILD} (not stale)` : '';
  const totals = `  Totals: ${t.sessions} session(s) · ${t.stale} stale (${formatUsd(t.staleRefreshCostUsd, true)} to refresh now${unknown}) · ${t.pending} pending · ${t.fresh} fresh${others}`;
  return [header, ...problems, rendered[0]!, ...lines, totals].join('\n');
}
