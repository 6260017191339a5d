// `hermes-lens demo`: builds the embedded demo Hermes home and shows its status, so the product can
// be seen without a real Hermes.
import os = require('node:os');
import path = require('node:path');
import fs = require('node:fs');
import type * as DemoHome from '../../demo/demoHome';
import { parse } from '../args';
import { claimDemoFolder } from '../demoFolder';
import type { CommandIO } from '../io';
import { statusCommand } from './status';

export const demoUsage = 'hermes-lens demo [--dir DIR] [--json]';

export function demoCommand(argv: string[], io: CommandIO): number {
  const args = parse(argv, { dir: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (args.help) return io.out(demoUsage), 0;
  // Held while the home is written and read: another demo at the same time writes elsewhere.
  const folder = claimDemoFolder(path.resolve(args.dir ?? path.join(os.tmpdir(), 'hermes-lens-demo')), args.dir !== undefined);
  try {
    fs.rmSync(folder.dir, { recursive: true, force: true });
    // Loaded here: the demo's generators (and the yaml library they write with) are no cost of other commands.
    const { generateDemoHome } = require('../../demo/demoHome') as typeof DemoHome;
    const manifest = generateDemoHome(folder.dir, { now: io.now() });
    if (!args.json) io.out(`Demo Hermes home written to ${manifest.root}${folder.busy ? ` (another demo is using ${folder.busy})` : ''}\n`);
    return statusCommand(['--home', manifest.root, '--all-profiles', ...(args.json ? ['--json'] : [])], io);
  } finally {
    folder.release();
  }
}
