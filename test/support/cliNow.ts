// `runCli` for the commands that answer at once (all but `refresh --when-free`, which waits).
import type { CommandIO } from '../../server/cli/io';
import { runCli } from '../../server/cli/main';

export function runCliNow(argv: string[], io: CommandIO): number {
  const code = runCli(argv, io);
  if (typeof code !== 'number') throw new Error(`hermes-lens ${argv.join(' ')} waits: await runCli instead`);
  return code;
}
