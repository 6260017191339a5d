// Reads the extension's package.json (and other files at the root) for the client's schema tests.
// Works from the TypeScript sources and from out/ alike. No vscode import.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function rootDir(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate) && JSON.parse(fs.readFileSync(candidate, 'utf8')).name === 'hermes-prompt-lens') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json of hermes-prompt-lens not found above ' + __dirname);
    dir = parent;
  }
}

export function readRootFile(name: string): string {
  return fs.readFileSync(path.join(rootDir(), name), 'utf8');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function packageJson(): any {
  return JSON.parse(readRootFile('package.json'));
}
