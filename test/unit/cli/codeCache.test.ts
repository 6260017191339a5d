// The CLI loads its bundle through V8's code cache (server/cli/codeCache.ts). A cache may only speed
// a run up: what the bundle does is the same with a cache, without one, with a damaged or foreign
// one, and with caches turned off; and the files live only where the lens keeps its caches.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome } from '../../../server/demo/demoHome';
import { countWithTokenizer } from '../../../server/hermes/cost/countWithTokenizer';
import { removeDir, tempDir } from '../demo/support';
import { cliBinary } from './support';

const CODE_CACHE = path.resolve(__dirname, '../../../server/cli/codeCache.js');
/** Where the generation byte sits in a cache file (after the magic line). */
const GENERATION_AT = 'hermes-lens code cache 1\n'.length;

/** Runs `bundle` in a fresh node through requireWithCodeCache and returns what it printed. */
function runThroughCache(bundle: string, cacheDir: string | undefined, variant = 'status'): string {
  const script = `const { requireWithCodeCache } = require(${JSON.stringify(CODE_CACHE)});
    const m = requireWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)}, ${JSON.stringify(variant)});
    console.log(m.answer());`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

function cacheFiles(cacheDir: string): string[] {
  const dir = path.join(cacheDir, 'code-cache');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

function writeBundle(dir: string, answer: string): string {
  const bundle = path.join(dir, 'bundle.js');
  fs.writeFileSync(bundle, `// a bundle\nexports.answer = () => ${JSON.stringify(answer)} + ' ' + __filename + ' ' + (require.main === module);\n`);
  return bundle;
}

describe('cli: the code cache of the CLI bundle', function () {
  this.timeout(60000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-code-cache-')));
  afterEach(() => removeDir(dir));

  it('runs the bundle as require would, saves the cache after the run and keeps improving it a few times', () => {
    const bundle = writeBundle(dir, 'forty-two');
    const cacheDir = path.join(dir, 'cache');
    const expected = `forty-two ${bundle} false`;
    assert.equal(runThroughCache(bundle, cacheDir), expected);
    const [file] = cacheFiles(cacheDir);
    assert.match(file ?? '', /^cli-status-v\d+\.\d+\.\d+-[a-z0-9]+-[0-9a-f]{8}-[0-9a-f]{32}\.bin$/);
    const full = path.join(cacheDir, 'code-cache', file!);
    assert.equal(fs.statSync(full).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(full)).mode & 0o777, 0o700);
    const generations = [fs.readFileSync(full)[GENERATION_AT]];
    for (let run = 0; run < 5; run++) {
      assert.equal(runThroughCache(bundle, cacheDir), expected);
      generations.push(fs.readFileSync(full)[GENERATION_AT]);
    }
    assert.deepEqual(generations, [0, 1, 2, 3, 3, 3]);
    assert.deepEqual(cacheFiles(cacheDir), [file]);
  });

  it('keys the cache by the bundle: a changed bundle gets a new file and the old one goes', () => {
    const cacheDir = path.join(dir, 'cache');
    const bundle = writeBundle(dir, 'first');
    runThroughCache(bundle, cacheDir);
    const before = cacheFiles(cacheDir);
    writeBundle(dir, 'other'); // the same length, other content
    assert.equal(runThroughCache(bundle, cacheDir), `other ${bundle} false`);
    const after = cacheFiles(cacheDir);
    assert.equal(after.length, 1);
    assert.notDeepEqual(after, before);
    // Another command has a cache of its own.
    runThroughCache(bundle, cacheDir, 'diff');
    assert.equal(cacheFiles(cacheDir).length, 2);
  });

  it('two copies of the CLI (a global install, the extension\'s) keep a cache each, and an old-style name is replaced', () => {
    const cacheDir = path.join(dir, 'cache');
    const folder = path.join(cacheDir, 'code-cache');
    const here = writeBundle(dir, 'same');
    fs.mkdirSync(path.join(dir, 'elsewhere'));
    const there = writeBundle(path.join(dir, 'elsewhere'), 'same');
    runThroughCache(here, cacheDir);
    const [mine] = cacheFiles(cacheDir);
    // A file named as builds before the copy's place was in the name: of no use to any copy now.
    const old = path.join(folder, mine!.replace(/-[0-9a-f]{8}-([0-9a-f]{32}\.bin)$/, '-$1'));
    fs.copyFileSync(path.join(folder, mine!), old);
    assert.equal(runThroughCache(there, cacheDir), `same ${there} false`);
    const theirs = cacheFiles(cacheDir).find((f) => f !== mine && path.join(folder, f) !== old)!;
    assert.ok(theirs, cacheFiles(cacheDir).join(', '));
    assert.ok(!fs.existsSync(old), 'the old-style file was removed');
    for (let round = 0; round < 2; round++) {
      assert.equal(runThroughCache(here, cacheDir), `same ${here} false`);
      assert.equal(runThroughCache(there, cacheDir), `same ${there} false`);
    }
    assert.deepEqual(cacheFiles(cacheDir), [mine, theirs].sort());
    // Each copy took its own cache on every later run: neither was deleted by the other.
    assert.equal(fs.readFileSync(path.join(folder, mine!))[GENERATION_AT], 2);
    assert.equal(fs.readFileSync(path.join(folder, theirs))[GENERATION_AT], 2);
  });

  it('ignores a damaged cache, and one that another user could have written', () => {
    const cacheDir = path.join(dir, 'cache');
    const bundle = writeBundle(dir, 'answer');
    const expected = `answer ${bundle} false`;
    runThroughCache(bundle, cacheDir);
    runThroughCache(bundle, cacheDir);
    const file = path.join(cacheDir, 'code-cache', cacheFiles(cacheDir)[0]!);
    assert.equal(fs.readFileSync(file)[GENERATION_AT], 1);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 10] ^= 0xff;
    fs.writeFileSync(file, bytes);
    assert.equal(runThroughCache(bundle, cacheDir), expected);
    assert.equal(fs.readFileSync(file)[GENERATION_AT], 0, 'made anew');
    fs.chmodSync(file, 0o666);
    assert.equal(runThroughCache(bundle, cacheDir), expected);
    assert.equal(fs.readFileSync(file)[GENERATION_AT], 0, 'made anew rather than used');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    fs.writeFileSync(file, 'not a cache');
    assert.equal(runThroughCache(bundle, cacheDir), expected);
  });

  it('writes nothing when caches are off, and runs where the cache folder cannot be made', () => {
    const bundle = writeBundle(dir, 'plain');
    assert.equal(runThroughCache(bundle, undefined), `plain ${bundle} false`);
    const notAFolder = path.join(dir, 'file');
    fs.writeFileSync(notAFolder, '');
    assert.equal(runThroughCache(bundle, notAFolder), `plain ${bundle} false`);
    assert.equal(fs.readFileSync(notAFolder, 'utf8'), '');
    const xdg = path.join(dir, 'xdg');
    const run = spawnSync(process.execPath, [cliBinary(), '--help'], { encoding: 'utf8', env: { ...process.env, HERMES_LENS_TOKEN_CACHE: 'off', XDG_CACHE_HOME: xdg } });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!fs.existsSync(xdg), 'no cache folder');
  });

  it('the executable prints the same status with a cold cache, a warm one, none, and from the bundle itself', () => {
    // The launcher with its code cache is the bundle's (npm test and test:unit build it first).
    const cli = cliBinary();
    assert.equal(path.basename(cli), 'cli.js', 'dist/cli.js is missing: run `npm run build`');
    const home = generateDemoHome(path.join(dir, 'demo'), { now: 1_795_000_000 }).root;
    const status = (script: string, cache: string) => {
      const run = spawnSync(process.execPath, [script, 'status', '--json', '--all-profiles', '--home', home], { encoding: 'utf8', env: { ...process.env, HERMES_LENS_TOKEN_CACHE: cache } });
      assert.equal(run.status, 0, run.stderr);
      return run.stdout;
    };
    const cacheDir = path.join(dir, 'cache');
    const cold = status(cli, cacheDir);
    assert.equal(cacheFiles(cacheDir).filter((f) => f.startsWith('cli-status-')).length, 1);
    assert.equal(status(cli, cacheDir), cold);
    assert.equal(status(cli, 'off'), cold);
    assert.equal(status(path.join(path.dirname(cli), 'cliMain.js'), cacheDir), cold);
  });

  it('the executable loads the tokenizer through the code cache too, when text never counted needs it', () => {
    const cli = cliBinary();
    const demo = generateDemoHome(path.join(dir, 'demo'), { now: 1_795_000_000 });
    const cacheDir = path.join(dir, 'cache');
    const status = () => {
      const run = spawnSync(process.execPath, [cli, 'status', '--json', '--home', demo.root], { encoding: 'utf8', env: { ...process.env, HERMES_LENS_TOKEN_CACHE: cacheDir } });
      assert.equal(run.status, 0, run.stderr);
      return JSON.parse(run.stdout) as { profiles: Array<{ sessions: Array<{ deltaTokens: number }> }> };
    };
    const tokenizerCache = () => cacheFiles(cacheDir).filter((f) => /^cli-o200k-v/.test(f));
    // An empty cache folder: every paragraph is counted, so the tokenizer loads and its code is kept.
    status();
    assert.equal(tokenizerCache().length, 1);
    const file = path.join(cacheDir, 'code-cache', tokenizerCache()[0]!);
    assert.equal(fs.readFileSync(file)[GENERATION_AT], 0);
    // A sentence never counted: the tokenizer loads again, from the kept code (V8 accepted it: the generation moves on).
    const soul = path.join(demo.profiles.find((p) => p.name === 'default')!.dir, 'SOUL.md');
    fs.appendFileSync(soul, '\nName the file and line of every claim about code.\n');
    const after = status();
    assert.equal(fs.readFileSync(file)[GENERATION_AT], 1);
    assert.ok(after.profiles[0]!.sessions.some((s) => s.deltaTokens !== 0));
  });

  it('the token-count helper of the language server loads the tokenizer through a code cache of its own', () => {
    const helper = path.join(path.dirname(cliBinary()), 'tokenCountHelper.js');
    const cacheDir = path.join(dir, 'cache');
    const texts = ['## Rules\n\nNever guess a path.', 'x'.repeat(1500)];
    // One start of the helper: a count, then stdin closes as the server closes it after a quiet spell.
    const count = () => {
      const run = spawnSync(process.execPath, [helper], { input: JSON.stringify({ texts }) + '\n', encoding: 'utf8', env: { ...process.env, HERMES_LENS_TOKEN_CACHE: cacheDir } });
      assert.equal(run.status, 0, run.stderr);
      return JSON.parse(run.stdout) as unknown;
    };
    const expected = { counts: texts.map(countWithTokenizer).map((c) => [c.tokens, c.sliced ? 1 : 0]) };
    assert.deepEqual(count(), expected);
    const files = cacheFiles(cacheDir).filter((f) => f.startsWith('cli-o200k-helper-'));
    assert.equal(files.length, 1, cacheFiles(cacheDir).join(', '));
    const file = path.join(cacheDir, 'code-cache', files[0]!);
    assert.equal(fs.readFileSync(file)[GENERATION_AT], 0);
    // The next start takes the kept code (V8 accepted it: the generation moves on), same counts.
    assert.deepEqual(count(), expected);
    assert.equal(fs.readFileSync(file)[GENERATION_AT], 1);
  });
});
