// Bundles the entry points (the CLI in two parts), the tokenizer, the server's token-count helper and the
// prompt anatomy webview's script with esbuild,
// and puts the SQLite bindings' native binaries next to the bundles, where the store
// (server/hermes/store/connection.ts) loads them (VS Code's own runtime cannot resolve node_modules
// inside a packaged extension): better-sqlite3's, built for this machine's Node, and
// @photostructure/sqlite's prebuilt N-API binaries for every platform (docs/SQLITE-BINDINGS.md).
import * as esbuild from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, existsSync, chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), '..');
const production = process.argv.includes('--production');

// Libraries most runs never need are bundles of their own, required at run time only when needed:
// the tokenizer (only when a count misses its caches), the price list (only for a lookup not
// remembered on disk), the yaml library (only for YAML the plain readers cannot take). The code
// requires each as './<name>.js', which stays a runtime require next to the requiring bundle.
const APART = ['o200kEncoder', 'genaiPrices', 'yamlBundle'];
const librariesApart = {
  name: 'libraries-apart',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^\\./(${APART.join('|')})\\.js$`) }, (args) => ({ path: args.path, external: true }));
  },
};

// prices.ts keys the price answers it remembers on disk by the library's version, known without
// loading the library (its package.json is not among its exports).
const pricesManifest = join(dirname(require.resolve('@pydantic/genai-prices')), '..', 'package.json');
const pricesVersion = JSON.parse(readFileSync(pricesManifest, 'utf8')).version;

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // node:sqlite is optional (Node >= 22.5); it is required lazily and must stay a runtime require.
  // The store finds @photostructure/sqlite's package only where nothing was copied next to the bundle.
  external: ['vscode', 'node:sqlite', '@photostructure/sqlite/package.json'],
  plugins: [librariesApart],
  define: { __GENAI_PRICES_VERSION__: JSON.stringify(pricesVersion) },
};

const [, , cliMain] = await Promise.all([
  esbuild.build({ ...common, entryPoints: [join(root, 'server/server.ts')], outfile: join(root, 'dist/server.js') }),
  // The CLI is a small executable that loads the bundle of the commands through V8's code cache
  // (server/cli/codeCache.ts); the bundle also runs on its own (`node dist/cliMain.js`).
  esbuild.build({
    ...common,
    entryPoints: [join(root, 'server/cli/launch.ts')],
    outfile: join(root, 'dist/cli.js'),
    banner: { js: '#!/usr/bin/env node' },
  }),
  esbuild.build({ ...common, entryPoints: [join(root, 'server/cli/main.ts')], outfile: join(root, 'dist/cliMain.js'), metafile: true }),
  esbuild.build({ ...common, entryPoints: [join(root, 'client/extension.ts')], outfile: join(root, 'dist/extension.js') }),
  // Its vocabulary is dist/o200kRanks.bin (below), not gpt-tokenizer's arrays.
  esbuild.build({ ...common, external: [...common.external, 'gpt-tokenizer/bpeRanks/*'], entryPoints: [join(root, 'server/hermes/cost/o200kEncoder.ts')], outfile: join(root, 'dist/o200kEncoder.js') }),
  esbuild.build({ ...common, entryPoints: [join(root, 'server/hermes/cost/genaiPrices.ts')], outfile: join(root, 'dist/genaiPrices.js') }),
  esbuild.build({ ...common, entryPoints: [join(root, 'server/hermes/text/yamlBundle.ts')], outfile: join(root, 'dist/yamlBundle.js') }),
  // The language server counts uncached text through a relay thread in a helper process (helperTokenCounter.ts).
  esbuild.build({ ...common, entryPoints: [join(root, 'server/tokenHelper/tokenCountRelay.ts')], outfile: join(root, 'dist/tokenCountRelay.js') }),
  esbuild.build({ ...common, entryPoints: [join(root, 'server/tokenHelper/tokenCountHelper.ts')], outfile: join(root, 'dist/tokenCountHelper.js') }),
  // The prompt anatomy webview's script and style: a page in the editor, not Node (the panel's only local resource root).
  esbuild.build({
    entryPoints: [join(root, 'client/webview/anatomy.ts'), join(root, 'client/webview/anatomy.css')],
    outdir: join(root, 'dist/webview'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: production,
    sourcemap: false,
    logLevel: 'warning',
  }),
]);
chmodSync(join(root, 'dist/cli.js'), 0o755);

// The tokenizer's vocabulary as a ready hash table (server/hermes/cost/o200kRanks.ts), read by
// dist/o200kEncoder.js: o200kRanks.ts is run through esbuild to pack it with the code out/ uses.
const ranksPacker = await esbuild.build({ entryPoints: [join(root, 'server/hermes/cost/o200kRanks.ts')], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'warning' });
const packer = { exports: {} };
new Function('module', 'exports', 'require', ranksPacker.outputFiles[0].text)(packer, packer.exports, require);
writeFileSync(join(root, 'dist/o200kRanks.bin'), packer.exports.packedRanks());

// The tool-schema tables are data read when a run first prices a tool (server/hermes/cost/toolSchemas.ts),
// next to the bundles that read them.
copyFileSync(join(root, 'server/hermes/cost/tool-schemas.json'), join(root, 'dist/tool-schemas.json'));

// The code imports Node's modules as `import fs = require('node:fs')`, not `import * as fs from
// 'node:fs'`: for a namespace import of a CommonJS module esbuild copies every export into a new
// object (__toESM) at each importing file, about fifty copies of fs and path before a cold
// `hermes-lens status` does anything (5 ms of it).
for (const bundle of ['cli.js', 'cliMain.js', 'server.js']) {
  const copied = /__toESM\(require\("(node:[^"]+)"\)\)/.exec(readFileSync(join(root, 'dist', bundle), 'utf8'));
  if (copied) throw new Error(`dist/${bundle} copies ${copied[1]} at load: import it as \`import x = require('${copied[1]}')\`.`);
}

// The CLI speaks no LSP: a value imported from shared/protocol.ts brings the LSP libraries (≈290 kB)
// into the bundle every command loads (its constants also live in modules of their own).
const lspInCli = Object.keys(cliMain.metafile.inputs).find((input) => /node_modules\/vscode-(jsonrpc|languageserver)/.test(input));
if (lspInCli) throw new Error(`dist/cliMain.js holds ${lspInCli}: import what the CLI needs from a module without LSP imports, not from shared/protocol.ts.`);

mkdirSync(join(root, 'dist/native'), { recursive: true });
const binary = join(dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node');
if (existsSync(binary)) copyFileSync(binary, join(root, 'dist/native/better_sqlite3.node'));
else console.warn(`better-sqlite3 native binary not found at ${binary}; run "npm rebuild better-sqlite3".`);
// The package's own layout (prebuilds/<platform>-<arch>/@photostructure+sqlite.<glibc|musl>.node) and its licence.
const photostructure = dirname(require.resolve('@photostructure/sqlite/package.json'));
const shippedPhotostructure = join(root, 'dist/native/photostructure-sqlite');
rmSync(shippedPhotostructure, { recursive: true, force: true });
cpSync(join(photostructure, 'prebuilds'), join(shippedPhotostructure, 'prebuilds'), { recursive: true });
copyFileSync(join(photostructure, 'LICENSE'), join(shippedPhotostructure, 'LICENSE'));
