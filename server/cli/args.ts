// Argument parsing on node:util's parseArgs; a usage problem exits 2 with a one-line reason.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;

export const commonOptions = {
  home: { type: 'string' },
  profile: { type: 'string', short: 'p' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** `--hermes-install DIR`: the Hermes installation that serves the home, where the lens would not find it. */
export const buildOptions = {
  'hermes-install': { type: 'string' },
} as const satisfies Options;

export function parse<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
}
