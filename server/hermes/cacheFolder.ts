// Where the lens keeps what it works out between runs (docs/CACHES.md): one folder, found from one
// environment. A command takes it from its own (the CLI's `CommandIO.env`, which is the process's
// when run from a shell), the language server from its own; the caches of the whole process (token
// counts, price answers) follow the environment of the command the process runs (runCli).
import os = require('node:os');
import path = require('node:path');

/** The cache folder `env` names (`HERMES_LENS_TOKEN_CACHE`, else the platform's), or undefined when turned off. */
export function lensCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  const setting = env.HERMES_LENS_TOKEN_CACHE?.trim();
  if (setting === 'off' || setting === '0' || setting === 'false') return undefined;
  if (setting) return path.resolve(setting);
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'hermes-lens');
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'hermes-lens');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'hermes-lens', 'Cache');
  return path.join(home, '.cache', 'hermes-lens');
}

let processCaches: NodeJS.ProcessEnv = process.env;

/** The environment the process-wide caches take their folder from: the process's, or the command's it runs. */
export function processCacheEnv(): NodeJS.ProcessEnv {
  return processCaches;
}

/** A command runs in this process with `env` (runCli, which gives the last back after it): the process-wide caches use its folder. */
export function useProcessCacheEnv(env: NodeJS.ProcessEnv): void {
  processCaches = env;
}
