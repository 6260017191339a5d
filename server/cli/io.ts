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

let readerWatched = false;

/**
 * Standard output, line-terminated. A reader that stops early (`hermes-lens status --json | head`)
 * closes the pipe, and the rest has nowhere to go: that ends the run quietly, as it ends `cat` or
 * `git log`, instead of with an unhandled EPIPE error and its stack.
 */
function toStdout(text: string): void {
  if (!readerWatched) {
    readerWatched = true;
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit();
    });
  }
  process.stdout.write(asLine(text));
}

function asLine(text: string): string {
  return text.endsWith('\n') ? text : text + '\n';
}

export const processIO: CommandIO = {
  out: toStdout,
  err: (text) => void process.stderr.write(asLine(text)),
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
