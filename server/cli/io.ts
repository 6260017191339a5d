// What a command may touch of the outside world, so tests can run commands in-process.
export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Epoch seconds. */
  now(): number;
}

export const processIO: CommandIO = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
  env: process.env,
  now: () => Date.now() / 1000,
};
