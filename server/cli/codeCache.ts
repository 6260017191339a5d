// Loads a CommonJS bundle through V8's code cache: the CLI runs in a fresh process each time, and
// compiling its 1 MB bundle (and, while running, the functions it calls) was a good part of a cold
// `hermes-lens status`; the CLI and the language server's token-count helper load the tokenizer's
// bundle this way too. Node 20 has no module.enableCompileCache; this is the approach of the
// v8-compile-cache package: compile with `vm.Script` and `cachedData`, and after the first run save
// what V8 compiled (functions compiled lazily included) for the next one.
//
// The cache lives in the lens's user cache folder, never a Hermes home or a workspace; a file is
// keyed by the bundle's content, Node's version and flags and the command, carries a hash of its
// own bytes, is written atomically (temp file + rename, mode 0600) and is used only when this user
// owns it and nobody else may write it or its folder. Any problem means the bundle is loaded as
// plain `require` would load it.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import fs = require('node:fs');
import { createRequire, wrap } from 'node:module';
import path = require('node:path');
import vm = require('node:vm');
import { writeCacheFile } from '../hermes/cacheFiles';

const MAGIC = Buffer.from('hermes-lens code cache 1\n');
const DIGEST_BYTES = 32;
/** Where the V8 data starts: the magic, a generation byte, the data's SHA-256. */
const HEADER_BYTES = MAGIC.length + 1 + DIGEST_BYTES;
/**
 * A cache holds what its run compiled; the next runs add what they compile to it, this many
 * times, so a first run that did little (an empty profile, `--help`) does not fix the cache's
 * reach. Then it is left alone: making one takes a few milliseconds.
 */
export const CODE_CACHE_GENERATIONS = 4;
const FOLDER = 'code-cache';

/**
 * The cache file of `bundle`'s current source for `variant` (the command), and the prefix of its
 * stale siblings: earlier builds at the same place. Another copy of the CLI (a global install and
 * the extension's own, say) has a prefix of its own, so the two do not delete each other's file on
 * every run.
 */
function cacheFileOf(cacheDir: string, bundle: string, source: Buffer, variant: string): { file: string; prefix: string; legacy: RegExp } {
  const runtime = `${process.version}-${process.arch}`;
  const key = createHash('sha256')
    .update(source)
    .update(`\0${runtime}\0${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`)
    .digest('hex')
    .slice(0, 32);
  const place = createHash('sha256').update(path.resolve(bundle)).digest('hex').slice(0, 8);
  const shared = `cli-${variant}-${runtime}-`;
  const prefix = `${shared}${place}-`;
  // Files named before the place was part of the name (any copy's): replaced like stale siblings.
  const legacy = new RegExp(`^${shared.replace(/[.]/g, '\\.')}[0-9a-f]{32}\\.bin$`);
  return { file: path.join(cacheDir, FOLDER, `${prefix}${key}.bin`), prefix, legacy };
}

/**
 * `require(bundle)`, compiled through the code cache in `cacheDir` (undefined: caches are off,
 * plain require). `variant` names the kind of run: each command compiles different functions.
 */
export function requireWithCodeCache(bundle: string, cacheDir: string | undefined, variant: string): unknown {
  if (!cacheDir) return require(bundle);
  let script: vm.Script;
  let cache: ReturnType<typeof cacheFileOf>;
  let cached: { data: Buffer; generation: number } | undefined;
  try {
    const bytes = fs.readFileSync(bundle);
    cache = cacheFileOf(cacheDir, bundle, bytes, variant);
    cached = readCache(cache.file);
    // An ASCII bundle (the minified one) decodes as a plain copy; UTF-8 decoding takes a few ms more.
    const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    script = new vm.Script(wrap(source), { filename: bundle, ...(cached ? { cachedData: cached.data } : {}) });
  } catch {
    return require(bundle);
  }
  const generation = !cached || script.cachedDataRejected ? 0 : cached.generation + 1;
  if (generation < CODE_CACHE_GENERATIONS) {
    // After the run, so the functions the command needed are in the cache too.
    process.once('exit', () => writeCache(script, generation, cache));
  }
  // The bundle's own errors are its own: not caught here.
  const run = script.runInThisContext() as (exports: unknown, require: NodeRequire, module: unknown, filename: string, dirname: string) => void;
  const mod = { exports: {} as unknown };
  run.call(mod.exports, mod.exports, createRequire(bundle), mod, bundle, path.dirname(bundle));
  return mod.exports;
}

/** The V8 data of a cache file and its generation, or undefined when it is missing, not ours, or damaged. */
function readCache(file: string): { data: Buffer; generation: number } | undefined {
  try {
    if (!ownedAndPrivate(path.dirname(file)) || !ownedAndPrivate(file)) return undefined;
    const bytes = fs.readFileSync(file);
    if (bytes.length <= HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const data = bytes.subarray(HEADER_BYTES);
    const digest = createHash('sha256').update(data).digest();
    return digest.equals(bytes.subarray(MAGIC.length + 1, HEADER_BYTES)) ? { data, generation: bytes[MAGIC.length]! } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Code is executed from this file: it must be this user's and writable by nobody else (a cache
 * folder under a shared directory must not let another user plant one). Windows has no such modes.
 */
function ownedAndPrivate(file: string): boolean {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return true;
  const stat = fs.lstatSync(file);
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0 && !stat.isSymbolicLink();
}

function writeCache(script: vm.Script, generation: number, { file, prefix, legacy }: ReturnType<typeof cacheFileOf>): void {
  try {
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Where nothing can be written (a read-only home, a user without one), no data is made either.
    if (!ownedAndPrivate(dir)) return;
    fs.accessSync(dir, fs.constants.W_OK);
    const data = script.createCachedData();
    writeCacheFile(file, Buffer.concat([MAGIC, Buffer.of(generation), createHash('sha256').update(data).digest(), data]));
    // Caches of earlier builds of this copy's command on this runtime are of no use any more.
    for (const name of fs.readdirSync(dir)) {
      const stale = (name.startsWith(prefix) && name.endsWith('.bin')) || legacy.test(name);
      if (stale && path.join(dir, name) !== file) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // A read-only or full disk: the bundle is compiled again next time.
  }
}
