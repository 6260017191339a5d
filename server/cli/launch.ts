// The `hermes-lens` executable (dist/cli.js): a few lines that load the CLI bundle (dist/cliMain.js,
// built from main.ts) through V8's code cache, so a cold run does not compile it again, and run it.
// It must stay small: whatever it imports is compiled on every run.
import path = require('node:path');
import { lensCacheFolder } from '../hermes/cacheFolder';
import { requireWithCodeCache } from './codeCache';
import type * as Main from './main';

// No V8 flag is set: each runtime's own tiering decides (a flag one Node.js has and another lacks
// prints on stderr there, and tunes one release alone). V8 11 (Node 20) optimizes every function a
// cold status runs once per session, on another core; what those functions do is kept small
// instead, so there is little to compile (bench/history.md).

const COMMANDS = new Set(['status', 'refresh', 'prompt-size', 'diff', 'demo']);

const argv = process.argv.slice(2);
const variant = COMMANDS.has(argv[0] ?? '') ? argv[0]! : 'other';
const cacheDir = lensCacheFolder(process.env);
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
