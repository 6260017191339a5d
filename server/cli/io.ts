// What a command may touch of the outside world, so tests can run commands in-process.
export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Epoch seconds. */
  now(): number;
  /** Whether `out` goes to a terminal (a person reads it) rather than a pipe or a file. */
  readonly terminal?: boolean;
}

export const processIO: CommandIO = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
  env: process.env,
  now: () => Date.now() / 1000,
  get terminal() {
    return process.stdout.isTTY === true;
  },
};

/**
 * `--json` output: indented at a terminal, compact into a pipe (as `gh` and `kubectl` do). A status
 * of 2,000 sessions is 1.7 MB indented and 1.1 MB compact, and the program reading it (jq, a
 * script, an editor) has no use for the whitespace.
 */
export function outJson(io: CommandIO, value: unknown): void {
  io.out(io.terminal ? JSON.stringify(value, null, 2) : JSON.stringify(value));
}
