// hermes-lens: the engine on the command line, so everything works headless.
import { describeError, HermesError } from '../hermes/errors';
import { UsageError } from './args';
import { demoCommand, demoUsage } from './commands/demo';
import { diffCommand, diffUsage } from './commands/diff';
import { promptSizeCommand, promptSizeUsage } from './commands/promptSize';
import { refreshCommand, refreshUsage } from './commands/refresh';
import { statusCommand, statusUsage } from './commands/status';
import { processIO, type CommandIO } from './io';

export { loadTokenizerWith } from '../hermes/cost/countWithTokenizer';
export { outputPending } from './io';

const commands: Record<string, (argv: string[], io: CommandIO) => number> = {
  status: statusCommand,
  refresh: refreshCommand,
  'prompt-size': promptSizeCommand,
  diff: diffCommand,
  demo: demoCommand,
};

const usage = ['Usage:', ...[statusUsage, refreshUsage, promptSizeUsage, diffUsage, demoUsage].map((u) => `  ${u}`)].join('\n');

/** Runs one command line; returns the exit code (0 ok, 1 error, 2 bad usage). */
export function runCli(argv: string[], io: CommandIO = processIO): number {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    io.err(`hermes-lens: unknown command "${name}"\n${usage}`);
    return 2;
  }
  try {
    return command(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`hermes-lens ${name}: ${error.message}`);
      return 2;
    }
    // Expected problems are one line; anything else is a bug worth a stack in the debug log only.
    io.err(`hermes-lens ${name}: ${error instanceof HermesError ? error.message : describeError(error)}`);
    if (!(error instanceof HermesError) && io.env.HERMES_LENS_DEBUG) io.err(String((error as Error)?.stack));
    return 1;
  }
}

if (require.main === module) {
  process.exitCode = runCli(process.argv.slice(2));
}
