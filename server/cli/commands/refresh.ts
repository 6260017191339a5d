// `hermes-lens refresh`: records a refresh request as `hermes sessions refresh-prompts` does.
import { readProfileConfig } from '../../hermes/profile/config';
import { openHome, selectedProfiles } from '../../hermes/profile/selection';
import { HermesError } from '../../hermes/errors';
import { profilePaths } from '../../hermes/profile/home';
import { requestRefresh, type RefreshStrategy } from '../../hermes/refresh/requestRefresh';
import { requestBlockedBy, requestRefused } from '../../hermes/refresh/refreshWording';
import { buildSummary } from '../../hermes/install/describeBuild';
import { adoptionFiles, memoryAdoptionFiles } from '../../hermes/refresh/adoptionFiles';
import { adoptionCountsText } from '../../hermes/refresh/adoptionWords';
import { hermesJson, refreshProtocolOf } from '../../hermes/refresh/refreshProtocol';
import { watchedRefresh } from '../requestWatch';
import { buildOptions, commonOptions, parse, UsageError } from '../args';
import { hermesBuildOf } from '../hermesBuild';
import { outJson, type CommandIO } from '../io';
import { refreshWhenFree } from './refreshWhenFree';

export const refreshUsage =
  'hermes-lens refresh [--session ID] [-p NAME] [--home DIR] [--dry-run] [--strategy epoch|clear-prompt] [--when-free [--schedule-only]] [--hermes-install DIR] [--json]';

export function refreshCommand(argv: string[], io: CommandIO): number | Promise<number> {
  const args = parse(argv, {
    ...commonOptions,
    ...buildOptions,
    session: { type: 'string' },
    'dry-run': { type: 'boolean' },
    strategy: { type: 'string' },
    'when-free': { type: 'boolean' },
    'schedule-only': { type: 'boolean' },
  });
  if (args.help) return io.out(refreshUsage), 0;
  const strategy = (args.strategy ?? 'epoch') as RefreshStrategy;
  if (strategy !== 'epoch' && strategy !== 'clear-prompt') throw new UsageError(`--strategy must be epoch or clear-prompt, not "${args.strategy}"`);
  const home = openHome({ home: args.home }, io.env);
  const [profile] = selectedProfiles(home, { profile: args.profile });
  const paths = profilePaths(profile!);
  if (readProfileConfig(paths.config).databaseBackend === 'postgres') {
    throw new HermesError('postgres-backend', `${paths.config} sets database.backend: postgres; run "hermes sessions refresh-prompts" there instead.`, paths.config);
  }
  const build = hermesBuildOf(home, args, io);
  const files = adoptionFiles() ?? memoryAdoptionFiles();
  const protocol = refreshProtocolOf(build, files.learned(home.root));
  if (args['schedule-only'] && !args['when-free']) throw new UsageError('--schedule-only goes with --when-free');
  if (args['when-free']) {
    if (args['dry-run']) throw new UsageError('--when-free --schedule-only prints what --dry-run would; use that');
    // Refused before anything is scheduled, not at each write: a build that cannot read the request never will.
    const blocked = strategy === 'epoch' ? requestBlockedBy(build) : undefined;
    if (blocked) throw new HermesError('hermes-build', requestRefused(blocked));
    const target = {
      profile: profile!,
      dbFile: paths.stateDb,
      homeRoot: home.root,
      sessionId: args.session,
      strategy,
      build,
      keys: protocol.keys,
      scheduleOnly: args['schedule-only'] === true,
      json: args.json === true,
    };
    return refreshWhenFree(target, io);
  }
  const write = () =>
    requestRefresh({
      dbFile: paths.stateDb,
      profileName: profile!.name,
      sessionIds: args.session ? [args.session] : undefined,
      strategy,
      dryRun: args['dry-run'],
      profileDir: profile!.dir,
      homeRoot: home.root,
      build,
      keys: protocol.keys,
    });
  // Refused before anything is read: a build that cannot read the request never will.
  const blocked = strategy === 'epoch' ? requestBlockedBy(build) : undefined;
  if (blocked) throw new HermesError('hermes-build', requestRefused(blocked));
  const watched = strategy === 'epoch' && !args['dry-run'] ? watchedRefresh(profile!, build, protocol, files, io.now(), write) : { result: write(), adoption: undefined };
  const result = watched.result;
  if (args.json) {
    outJson(io, {
      profile: result.profile,
      scope: result.scope,
      sessionId: result.sessionIds[0] ?? null,
      requestedSessionId: args.session && result.redirected.has(args.session) ? args.session : null,
      epoch: result.epoch ?? null,
      storedPromptSessions: result.storedPromptSessions,
      strategy: result.strategy,
      dryRun: result.dryRun,
      adoption: watched.adoption ?? null,
      hermes: hermesJson(build, protocol),
    });
  } else {
    for (const [named, tip] of result.redirected) io.out(`Session ${named} was compacted; its conversation continues in ${tip}.`);
    io.out(result.lines.join('\n'));
    const counts = watched.adoption && adoptionCountsText(watched.adoption);
    if (counts) io.out(`The lens watches each session it concerns: ${counts}. "hermes-lens status" tells how each took it up.`);
    // Hermes may run elsewhere (a remote gateway): the request is recorded, and the user told why it is the default.
    if (build.kind === 'not-found' && result.strategy === 'epoch') io.out(buildSummary(build));
  }
  return 0;
}
