// The `hermes-lens` executable (dist/cli.js): a few lines that load the CLI bundle (dist/cliMain.js,
// built from main.ts) through V8's code cache, so a cold run does not compile it again, and run it.
// It must stay small: whatever it imports is compiled on every run.
import * as path from 'node:path';
import { tokenCacheDir } from '../hermes/cost/tokenCountStore';
import { requireWithCodeCache } from './codeCache';
import type * as Main from './main';

const COMMANDS = new Set(['status', 'refresh', 'prompt-size', 'diff', 'demo']);

const argv = process.argv.slice(2);
const variant = COMMANDS.has(argv[0] ?? '') ? argv[0]! : 'other';
const cli = requireWithCodeCache(path.join(__dirname, 'cliMain.js'), tokenCacheDir(process.env), variant) as typeof Main;
process.exitCode = cli.runCli(argv);
