// The `hermes-lens` executable (dist/cli.js): a few lines that load the CLI bundle (dist/cliMain.js,
// built from main.ts) through V8's code cache, so a cold run does not compile it again, and run it.
// It must stay small: whatever it imports is compiled on every run.
import path = require('node:path');
import v8 = require('node:v8');
import { tokenCacheDir } from '../hermes/cost/tokenCountStore';
import { requireWithCodeCache } from './codeCache';
import type * as Main from './main';

// A run of the CLI is short, and V8's optimizing compiler pays off in long-running processes. V8 11
// (Node 20) considers a function for TurboFan after a budget of bytecode run; on a cold `status` it
// compiled some 36 functions on background threads that took the other core from the collector and
// the output's reader. Four times that budget (its default is 66 KB there) leaves such a `status`
// unoptimized while long runs still get optimized. V8 12 and later (Node 22, 24) tier up by
// invocation counts and have no such flag (setting it prints on stderr); raising their count changed
// nothing measurable, so they keep their defaults. Paired runs: docs/BENCHMARKS.md. The language
// server keeps V8's defaults.
if (Number(process.versions.v8.split('.')[0]) <= 11) v8.setFlagsFromString(`--interrupt-budget=${4 * 66 * 1024}`);

const COMMANDS = new Set(['status', 'refresh', 'prompt-size', 'diff', 'demo']);

const argv = process.argv.slice(2);
const variant = COMMANDS.has(argv[0] ?? '') ? argv[0]! : 'other';
const cacheDir = tokenCacheDir(process.env);
const cli = requireWithCodeCache(path.join(__dirname, 'cliMain.js'), cacheDir, variant) as typeof Main;
// The tokenizer (a bundle of its own, loaded when a count misses every cache: after an edit of a
// source) through the code cache as well.
cli.loadTokenizerWith((file) => requireWithCodeCache(file, cacheDir, 'o200k'));
const code = cli.runCli(argv);
if (typeof code === 'number') done(code);
else void code.then(done); // a command that waits (`refresh --when-free`)

// A command has done all it does when it returns (its 'exit' handlers, such as the code cache's,
// still run). With the output written out, leave now instead of through Node's teardown of the
// loop and the heap, a few milliseconds of every run (paired cold runs of `status`: about 1%).
// Output still queued (a terminal or a pipe that would block: see io.ts) exits the usual way,
// once it is written.
function done(exitCode: number): void {
  process.exitCode = exitCode;
  if (!cli.outputPending()) process.exit();
}
