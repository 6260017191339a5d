// The Hermes build a command works with: the one `--hermes-install` names, else the one found for
// the home (server/hermes/install/detectBuild.ts), with the command's environment.
import { detectHermesBuild } from '../hermes/install/detectBuild';
import type { HermesBuild } from '../hermes/install/hermesBuild';
import type { HermesHome } from '../hermes/model';
import type { CommandIO } from './io';

export function hermesBuildOf(home: HermesHome, args: { readonly 'hermes-install'?: string }, io: CommandIO): HermesBuild {
  return detectHermesBuild({ homeRoot: home.root, explicit: args['hermes-install'], env: io.env });
}
