// Counts the tool schemas measure.py dumped with the tokenizer the lens uses (gpt-tokenizer's
// o200k_base), so the Python side needs no tokenizer, and writes the lens's table of tool-schema
// sizes per Hermes build (server/hermes/cost/tool-schemas.json): sizes only, never the schemas.
//
//   node scripts/hermes-corpus/count-tokens.mjs --measured MEASURED.json --dump DIR --out FILE
//
// MEASURED.json is measure.py's: per build, each tool's toolset and JSON bytes, the tool lists of
// fresh sessions, what could not be loaded. DIR/<build>/<tool>.json holds each schema's JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { countTokens } = require('gpt-tokenizer/encoding/o200k_base');
const tokenizer = `o200k_base, gpt-tokenizer@${require('gpt-tokenizer/package.json').version}`;

function option(name) {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0 || !process.argv[at + 1]) throw new Error(`count-tokens.mjs: --${name} is required`);
  return process.argv[at + 1];
}

const measured = JSON.parse(readFileSync(option('measured'), 'utf8'));
const dump = option('dump');

const builds = measured.builds.map((build) => {
  const tools = {};
  const toolsets = {};
  const notLoadedHere = {};
  for (const [name, tool] of Object.entries(build.tools)) {
    const json = readFileSync(join(dump, build.name, `${name}.json`), 'utf8');
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes !== tool.json_bytes) throw new Error(`${build.name} ${name}: ${bytes} bytes in the dump, ${tool.json_bytes} measured`);
    const tokens = countTokens(json);
    tools[name] = { toolset: tool.toolset, bytes, tokens, ...(tool.loads_here ? {} : { loadsHere: false }) };
    if (!tool.loads_here) (notLoadedHere[tool.measured_with_check_bypassed ?? 'did not load here'] ??= []).push(name);
    const set = (toolsets[tool.toolset] ??= { tools: 0, bytes: 0, tokens: 0 });
    set.tools += 1;
    set.bytes += bytes;
    set.tokens += tokens;
  }
  // A gateway session's tools whose JSON differs from the CLI's (a description that names the
  // surface) or that the CLI lacks: their own sizes, used for the gateway surfaces.
  const gatewayTools = {};
  for (const name of build.sessions.telegram) {
    const json = readFileSync(join(dump, build.name, 'gateway', `${name}.json`), 'utf8');
    const cli = tools[name] ? readFileSync(join(dump, build.name, `${name}.json`), 'utf8') : undefined;
    if (json !== cli) gatewayTools[name] = { toolset: build.tools[name]?.toolset ?? tools[name]?.toolset ?? '(unknown)', bytes: Buffer.byteLength(json, 'utf8'), tokens: countTokens(json) };
  }
  return {
    name: build.name,
    kind: build.kind,
    version: build.version,
    commit: build.commit,
    ...(build.derived ? { derived: { baseBuild: build.derived.base_build, change: build.derived.change, notAHermesRelease: true } } : {}),
    measuredIn: build.measured_in,
    tools,
    toolsets,
    gatewayTools,
    sessionTools: build.sessions,
    promptSizeCliTools: build.prompt_size_cli,
    platformTools: build.platform_tools,
    notLoadedHere,
    notMeasured: build.not_measured,
    modulesNotImported: build.modules_not_imported,
  };
});

const table = {
  $comment: [
    "Tool schemas of each Hermes build the corpus covers, measured by Hermes' own code (scripts/hermes-corpus/measure.py):",
    "each tool's schema as its registry produces it (model_tools.get_tool_definitions, and the tool lists of fresh sessions as",
    "`hermes prompt-size` builds them), in the corpus home of that build, offline. bytes: the tool's JSON as `hermes prompt-size`",
    `measures it (json.dumps, ensure_ascii=False); tokens: that JSON counted with ${tokenizer}.`,
    'A tool with loadsHere false did not load on the measuring machine (its availability check failed: an API key, a binary, a',
    'service); it was measured with that check answered yes. sessionTools: what a fresh session sent there, per platform',
    "(the CLI's first request; telegram's as `hermes prompt-size` builds it); promptSizeCliTools: the CLI list of `hermes prompt-size`;",
    "platformTools: every tool the platform's toolsets name. Never the schemas' text. Regenerate with measure.py.",
  ],
  tokenizer,
  builds,
};
// One line per tool, toolset and list: the file is read by people too, and bundled into the server.
const text = JSON.stringify(table, null, 1).replace(/\{\n\s*([^{}\[\]]*?)\n\s*\}/g, (_, body) => `{ ${body.replace(/,\n\s*/g, ', ')} }`).replace(/\[\n\s*([^{}\[\]]*?)\n\s*\]/g, (_, body) => `[${body.replace(/,\n\s*/g, ', ')}]`);
if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(table)) throw new Error('count-tokens.mjs: the compact form changed the table');
writeFileSync(option('out'), `${text}\n`);
console.log(`${builds.length} builds, ${builds.reduce((n, b) => n + Object.keys(b.tools).length, 0)} tool schemas counted`);
