// The direction imports may run in (docs/ARCHITECTURE.md): each folder of the product may import
// only the folders listed for it, and inside the Hermes domain only the layers below its own.
// A checker of its own, so the test can run it on a tree made to break a rule and see it fail.
import fs = require('node:fs');
import path = require('node:path');
import ts = require('typescript');

/** The domain's layers, lowest first: a layer imports its own folder and the ones before it. */
export const HERMES_LAYERS = ['text', '.', 'literals', 'fs', 'profile', 'cost', 'anatomy', 'sources', 'store', 'install', 'refresh', 'engine', 'families'] as const;

/** What each part of the product may import besides itself. */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  shared: [],
  client: ['shared'],
  'server/hermes': ['shared'],
  'server/demo': ['server/hermes', 'shared'],
  'server/workspace': ['server/hermes', 'shared'],
  'server/lsp': ['server/workspace', 'server/hermes', 'shared'],
  'server/cli': ['server/demo', 'server/hermes', 'shared'],
  // The language server's token-count helper loads the tokenizer through the CLI's code cache.
  'server/tokenHelper': ['server/cli', 'server/hermes', 'shared'],
  // The language server's entry point wires everything.
  'server/server.ts': ['server/lsp', 'server/workspace', 'server/tokenHelper', 'server/hermes', 'shared'],
};

const ROOTS = ['shared', 'client', 'server'];

/** Every import against the direction in the tree at `root`, one line each (none: []). */
export function importViolations(root: string): string[] {
  const out: string[] = [];
  for (const file of ROOTS.flatMap((dir) => sourceFiles(path.join(root, dir)))) {
    const from = partOf(path.relative(root, file));
    if (!from) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = path.relative(root, path.resolve(path.dirname(file), imported.fileName)).split(path.sep).join('/');
      const why = forbidden(path.relative(root, file).split(path.sep).join('/'), from, target);
      if (why) out.push(`${path.relative(root, file).split(path.sep).join('/')} imports ${imported.fileName}: ${why}`);
    }
  }
  return out;
}

/** Which part of the product a repository path belongs to (the keys of ALLOWED). */
function partOf(rel: string): string | undefined {
  const p = rel.split(path.sep).join('/');
  if (p === 'server/server.ts') return p;
  const [top, second] = p.split('/');
  if (top === 'shared' || top === 'client') return top;
  if (top === 'server' && second !== undefined && `server/${second}` in ALLOWED) return `server/${second}`;
  return undefined;
}

/** Why `file` (of the part `from`) may not import `target` (a path without extension), or undefined when it may. */
function forbidden(file: string, from: string, target: string): string | undefined {
  const to = partOf(target) ?? partOf(`${target}.ts`);
  if (!to) return `${from} may import nothing outside the product's folders`;
  if (to !== from && !ALLOWED[from]!.includes(to)) return `${from} may not import ${to}`;
  return from === 'server/hermes' && to === 'server/hermes' ? layerRule(file, target) : undefined;
}

/** Inside the domain: the importing file's layer must not be below the imported one's. */
function layerRule(file: string, target: string): string | undefined {
  const a = layerOf(file);
  const b = layerOf(target);
  if (a === undefined || b === undefined || a === b) return undefined;
  const [ra, rb] = [HERMES_LAYERS.indexOf(a), HERMES_LAYERS.indexOf(b)];
  if (ra < 0) return `server/hermes/${a} is no layer of the domain (HERMES_LAYERS)`;
  if (rb < 0) return `server/hermes/${b} is no layer of the domain (HERMES_LAYERS)`;
  return rb > ra ? `the layer ${a} is below ${b}` : undefined;
}

function layerOf(p: string): (typeof HERMES_LAYERS)[number] | undefined {
  const parts = p.split('/');
  if (parts[0] !== 'server' || parts[1] !== 'hermes') return undefined;
  return (parts.length > 3 ? parts[2] : '.') as (typeof HERMES_LAYERS)[number];
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}
