// `hermes-lens demo`: builds the embedded demo Hermes home and shows its status, so the product can
// be seen without a real Hermes.
import os = require('node:os');
import path = require('node:path');
import fs = require('node:fs');
import type * as DemoHome from '../../demo/demoHome';
import { parse } from '../args';
import type { CommandIO } from '../io';
import { statusCommand } from './status';

export const demoUsage = 'hermes-lens demo [--dir DIR] [--json]';

export function demoCommand(argv: string[], io: CommandIO): number {
  const args = parse(argv, { dir: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (args.help) return io.out(demoUsage), 0;
  const dir = path.resolve(args.dir ?? path.join(os.tmpdir(), 'hermes-lens-demo'));
  fs.rmSync(dir, { recursive: true, force: true });
  // Loaded here: the demo's generators (and the yaml library they write with) are no cost of other commands.
  const { generateDemoHome } = require('../../demo/demoHome') as typeof DemoHome;
  const manifest = generateDemoHome(dir, { now: io.now() });
  if (!args.json) io.out(`Demo Hermes home written to ${manifest.root}\n`);
  return statusCommand(['--home', manifest.root, '--all-profiles', ...(args.json ? ['--json'] : [])], io);
}
