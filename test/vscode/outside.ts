// Work the in-host suite does outside the extension host, in a plain Node.js child process: read
// Hermes' state.db with better-sqlite3 (readonly), play Hermes' side (adopt a refresh), and ask the
// CLI. The extension host may be Electron (desktop VS Code), where a better-sqlite3 built for Node
// does not load, and the test must not read through the extension it tests anyway.
//
//   node out/test/vscode/outside.js <operation> '<JSON array of arguments>'   → JSON on stdout
import { spawnSync } from 'node:child_process';

export type Operation = 'stateMeta' | 'modelConfig' | 'adoptRefresh' | 'cliStatus';

/** The Node.js that runs the child (the runner passes its own as HERMES_LENS_NODE). */
export function nodeExecutable(): string {
  return process.env.HERMES_LENS_NODE || (process.versions.electron ? 'node' : process.execPath);
}

/** Runs `operation` in a Node child process and returns its JSON result (throws with its stderr). */
export function outside<T>(operation: Operation, ...args: unknown[]): T {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const r = spawnSync(nodeExecutable(), [__filename, operation, JSON.stringify(args)], { encoding: 'utf8', timeout: 60_000, env });
  if (r.status !== 0) throw new Error(`outside ${operation} failed (exit ${r.status}, ${r.error ?? ''}):\n${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

async function main(operation: string, args: unknown[]): Promise<unknown> {
  // Loaded only in the child: they need a better-sqlite3 that loads in this Node.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hermes = require('../e2e/support/hermesHome') as typeof import('../e2e/support/hermesHome');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const writer = require('../../server/demo/hermes') as typeof import('../../server/demo/hermes');
  switch (operation as Operation) {
    case 'stateMeta':
      return Object.fromEntries(hermes.readStateMeta(args[0] as string));
    case 'modelConfig':
      return hermes.readModelConfig(args[0] as string, args[1] as string);
    case 'adoptRefresh': {
      const [dbFile, sessionId, profileDir] = args as [string, string, string];
      return writer.adoptRefresh(dbFile, sessionId, profileDir).epoch;
    }
    case 'cliStatus':
      return hermes.cliStatus(args[0] as string);
    default:
      throw new Error(`unknown operation ${operation}`);
  }
}

if (require.main === module) {
  main(process.argv[2] ?? '', JSON.parse(process.argv[3] ?? '[]') as unknown[]).then(
    (result) => process.stdout.write(JSON.stringify(result ?? null)),
    (error) => {
      process.stderr.write(String((error as Error)?.stack ?? error));
      process.exit(1);
    },
  );
}
