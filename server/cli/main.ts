// hermes-lens: the engine on the command line, so everything works headless.
import { describeError, HermesError } from '../hermes/errors';
import { UsageError } from './args';
import { demoCommand, demoUsage } from './commands/demo';
import { diffCommand, diffUsage } from './commands/diff';
import { prefixesCommand, prefixesUsage } from './commands/prefixes';
import { promptSizeCommand, promptSizeUsage } from './commands/promptSize';
import { refreshCommand, refreshUsage } from './commands/refresh';
import { statusCommand, statusUsage } from './commands/status';
import { processIO, type CommandIO } from './io';
import { processCacheEnv, useProcessCacheEnv } from '../hermes/cacheFolder';

export { loadTokenizerWith } from '../hermes/cost/countWithTokenizer';
export { outputPending } from './io';

// A command answers its exit code, or a promise of it when it waits (`refresh --when-free`).
const commands: Record<string, (argv: string[], io: CommandIO) => number | Promise<number>> = {
  status: statusCommand,
  refresh: refreshCommand,
  'prompt-size': promptSizeCommand,
  prefixes: prefixesCommand,
  diff: diffCommand,
  demo: demoCommand,
};

const usage = ['Usage:', ...[statusUsage, refreshUsage, promptSizeUsage, prefixesUsage, diffUsage, demoUsage].map((u) => `  ${u}`)].join('\n');

/** Runs one command line; returns the exit code (0 ok, 1 error, 2 bad usage), or its promise for a command that waits. */
export function runCli(argv: string[], io: CommandIO = processIO): number | Promise<number> {
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
  // Every cache the command touches, the process's own too, is in the folder its environment names
  // while it runs (a process running commands in turn, as the tests do, gives each its own).
  const before = processCacheEnv();
  useProcessCacheEnv(io.env);
  const done = () => useProcessCacheEnv(before);
  try {
    const code = command(rest, io);
    if (typeof code === 'number') return done(), code;
    return code.catch((error: unknown) => failed(name, error, io)).finally(done);
  } catch (error) {
    done();
    return failed(name, error, io);
  }
}

/** The exit code of a command that threw, after one line saying why. */
function failed(name: string, error: unknown, io: CommandIO): number {
  if (error instanceof UsageError) {
    io.err(`hermes-lens ${name}: ${error.message}`);
    return 2;
  }
  // Expected problems are one line; anything else is a bug worth a stack in the debug log only.
  io.err(`hermes-lens ${name}: ${error instanceof HermesError ? error.message : describeError(error)}`);
  if (!(error instanceof HermesError) && io.env.HERMES_LENS_DEBUG) io.err(String((error as Error)?.stack));
  return 1;
}

if (require.main === module) {
  void Promise.resolve(runCli(process.argv.slice(2))).then((code) => (process.exitCode = code));
}
