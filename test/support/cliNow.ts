// `runCli` for the commands that answer at once (all but `refresh --when-free`, which waits), and
// the environment a command run in-process is given.
import type { CommandIO } from '../../server/cli/io';
import { runCli } from '../../server/cli/main';

export function runCliNow(argv: string[], io: CommandIO): number {
  const code = runCli(argv, io);
  if (typeof code !== 'number') throw new Error(`hermes-lens ${argv.join(' ')} waits: await runCli instead`);
  return code;
}

/**
 * `env` for a command run in this process: its caches (all of them follow the command's
 * environment) in the test run's cache folder (isolatedCache.ts, or a test's own), unless `env`
 * names another.
 */
export function commandEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { HERMES_LENS_TOKEN_CACHE: process.env.HERMES_LENS_TOKEN_CACHE, ...env };
}
