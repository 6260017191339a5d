// Whether an installed Hermes build has `hermes sessions refresh-prompts`, and the names its code
// gives the protocol, read from its Python sources without running or importing anything
// (docs/HERMES-INSTALLS.md §3). The test is the one the user can make: the CLI offers the
// subcommand (`hermes sessions --help` lists it), so the `hermes_cli` tree is searched for the
// subcommand's registration, however the CLI library spells it. The keys are taken where the code
// next to it names them as string literals (pythonKeys.ts); where it names none, or several, the
// lens keeps its own reading (refresh/epochs.ts) and says why. A reading is kept, and used again
// while stat() says its files are the same (keptProtocolReadings.ts).
import path = require('node:path');
import type { SourceFs } from '../fs/sourceFs';
import { scanPython, type PySource } from '../text/pySource';
import { KeptProtocolReadings } from './keptProtocolReadings';
import { keysNamedIn, type KeyFinding } from './pythonKeys';
import { readSource, sourceFiles, type SourceRead, type UnreadableSource } from './pythonFiles';

/** What shows that the build has refresh-prompts. */
export type ProtocolClue =
  /** The CLI registers the subcommand (argparse's add_parser, click's or typer's command, choices). */
  | 'cli-text'
  /** Only a help or usage text of the CLI names it. */
  | 'help-text'
  /** No CLI text, but the module this project first guessed holds the protocol is there. */
  | 'module'
  /** None of these: the build has no refresh-prompts. */
  | 'none';

export interface ProtocolReading {
  readonly clue: ProtocolClue;
  /** The file that shows it (none for `none`). */
  readonly file: string | undefined;
  /** Names read from the sources; undefined where they name none, or several. */
  readonly requestKey: string | undefined;
  readonly sessionKeyPrefix: string | undefined;
  readonly stampKey: string | undefined;
  /** The files the names were read from. */
  readonly requestKeyFile: string | undefined;
  readonly stampKeyFile: string | undefined;
  /** The files the names were looked for in. */
  readonly keyFiles: readonly string[];
  /** What could not be read or taken, in sentences naming the files (never their text). */
  readonly notes: readonly string[];
  /** Sources that could not be read at all (permissions, I/O): with no clue found, the answer cannot be told. */
  readonly unreadable: readonly UnreadableSource[];
}

/** The subcommand as the user types it, and the Python name a CLI library derives it from. */
const SUBCOMMAND = 'refresh-prompts';
const FUNCTION_NAME = 'refresh_prompts';
/** The module this project first took for the protocol's, before its CLI text was the test. */
export const GUESSED_PROTOCOL_MODULE = path.join('agent', 'prompt_refresh.py');
/** The folder of Hermes' CLI in a checkout and in site-packages alike. */
const CLI_PACKAGE = 'hermes_cli';
/** How many imports away from the CLI text the keys are looked for, and in how many files at most. */
const IMPORT_DEPTH = 2;
const MAX_KEY_FILES = 12;
const REFRESH_NEEDLES = ['refresh', 'Refresh', 'REFRESH'];

// Code right before the subcommand's name that registers it.
const REGISTERS = [
  /\badd_parser\(\s*$/, // argparse: sub.add_parser("refresh-prompts", …)
  /\.command\(\s*(?:name\s*=\s*)?$/, // click / typer: @sessions.command("refresh-prompts")
  /\badd_command\([^()]*\bname\s*=\s*$/, // click: group.add_command(f, name="refresh-prompts")
  /\b(?:aliases|choices)\s*=\s*[[(][^\])]*$/, // argparse: aliases=[…], choices=[…]
];
/** A command named after its function: `@sessions.command()` over `def refresh_prompts(` (click and typer turn `_` into `-`). */
const NAMED_BY_FUNCTION = new RegExp(String.raw`@[\w.]+\.command\(\s*\)\s*(?:@[^\n]*\n\s*)*(?:async\s+)?def\s+${FUNCTION_NAME}\s*\(`);
/** Code before a help text. */
const HELP = /\b(?:help|description|epilog|usage|short_help)\s*=\s*$/;

/** The readings of this process, and of earlier commands in the lens's cache folder. */
const KEPT = new KeptProtocolReadings();

/** The protocol as the installation at `root` (a checkout, or the site-packages holding Hermes' wheel) shows it. */
export function readRefreshProtocol(root: string, kept: KeptProtocolReadings = KEPT): ProtocolReading {
  return kept.reading(root, (fs) => readFrom(root, fs));
}

function readFrom(root: string, fs: SourceFs): ProtocolReading {
  const listed = sourceFiles(path.join(root, CLI_PACKAGE), fs);
  const notes: string[] = [...listed.notes];
  const unreadable: UnreadableSource[] = [...listed.unreadable];
  const skipped = (read: SourceRead) => {
    if (read.kind === 'unreadable') unreadable.push({ file: read.file, code: read.code });
    else if (read.kind === 'skipped') notes.push(read.why);
  };
  // Each source scanned once for all this reading asks of it (Hermes' main.py is 600 kB).
  const scanned = new Map<string, PySource>();
  let help: string | undefined;
  for (const file of listed.files) {
    const read = readSource(file, [SUBCOMMAND, FUNCTION_NAME], fs);
    if (read.kind !== 'text') {
      skipped(read);
      continue;
    }
    const source = scanPython(read.text);
    scanned.set(file, source);
    const shown = cliTextIn(source);
    if (shown === 'cli-text') return withKeys(root, 'cli-text', file, notes, unreadable, scanned, fs);
    if (shown === 'help-text') help ??= file;
  }
  if (help) return withKeys(root, 'help-text', help, notes, unreadable, scanned, fs);
  const module = path.join(root, GUESSED_PROTOCOL_MODULE);
  if (isFile(module, fs)) return withKeys(root, 'module', module, notes, unreadable, scanned, fs);
  return { clue: 'none', file: undefined, ...NO_KEYS, keyFiles: [], notes, unreadable };
}

/** How a source offers the subcommand, if it does. */
export function cliTextIn(source: PySource): 'cli-text' | 'help-text' | undefined {
  let help = false;
  for (const s of source.strings) {
    if (s.prefix.includes('b') || !s.value.includes(SUBCOMMAND)) continue;
    const before = source.code.slice(Math.max(0, s.start - 120), s.start);
    if (s.value.trim() === SUBCOMMAND && REGISTERS.some((r) => r.test(before))) return 'cli-text';
    if (HELP.test(before) || /\bsessions\s+refresh-prompts\b/.test(s.value)) help = true;
  }
  if (NAMED_BY_FUNCTION.test(source.code)) return 'cli-text';
  return help ? 'help-text' : undefined;
}

/** The reading, with the names the code next to `file` gives (the file, what it imports about refreshing, the guessed module). */
function withKeys(
  root: string,
  clue: Exclude<ProtocolClue, 'none'>,
  file: string,
  notes: string[],
  unreadable: UnreadableSource[],
  scanned: Map<string, PySource>,
  fs: SourceFs,
): ProtocolReading {
  const scan = (keyFile: string, needles: readonly string[]): PySource | SourceRead => {
    const known = scanned.get(keyFile);
    if (known) return known;
    const read = readSource(keyFile, needles, fs);
    if (read.kind !== 'text') return read;
    const source = scanPython(read.text);
    scanned.set(keyFile, source);
    return source;
  };
  const files = keyFilesNear(root, file, (from) => scan(from, REFRESH_NEEDLES), fs);
  const found: KeyFinding[] = [];
  for (const keyFile of files) {
    const read = scan(keyFile, [...REFRESH_NEEDLES, 'epoch', 'Epoch', 'EPOCH']);
    if ('strings' in read) found.push(keysNamedIn(read, keyFile));
    else if (read.kind === 'unreadable') notes.push(`${keyFile} could not be read (${read.code}); the names it may hold were not taken.`);
    else if (read.kind === 'skipped') notes.push(read.why);
  }
  const { notes: why, ...keys } = combineFindings(found);
  notes.push(...why);
  return { clue, file, ...keys, keyFiles: files, notes, unreadable };
}

/**
 * The files whose string literals may name the keys: `file` itself, the modules of the
 * installation it imports about refreshing (a module path or an imported name saying "refresh"),
 * theirs in turn, and the guessed protocol module when it is there.
 */
function keyFilesNear(root: string, file: string, scan: (file: string) => PySource | SourceRead, fs: SourceFs): string[] {
  const files = [file];
  let frontier = [file];
  for (let depth = 0; depth < IMPORT_DEPTH && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const from of frontier) {
      const source = scan(from);
      if (!('strings' in source)) continue;
      for (const imported of refreshImports(source.code, root, from, fs)) {
        if (files.length >= MAX_KEY_FILES || files.includes(imported)) continue;
        files.push(imported);
        next.push(imported);
      }
    }
    frontier = next;
  }
  const guessed = path.join(root, GUESSED_PROTOCOL_MODULE);
  if (!files.includes(guessed) && isFile(guessed, fs)) files.push(guessed);
  return files;
}

/** The installation's files that `code` (of the source at `from`) imports where the import is about refreshing. */
function refreshImports(code: string, root: string, from: string, fs: SourceFs): string[] {
  const found: string[] = [];
  // `from a.b import c, d` (also relative: `from .x import y`) and `import a.b`.
  for (const m of code.matchAll(/^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w \t,\n]*)\)?/gm)) {
    const [, dots, name, names] = m as unknown as [string, string, string, string];
    if (!/refresh/i.test(name) && !/refresh/i.test(names)) continue;
    const base = dots ? ascend(path.dirname(from), dots.length - 1) : root;
    const module = moduleFile(base, name, fs);
    if (module) found.push(module);
    // `from pkg import refresh_module`: the name may be a module of the package.
    for (const each of names.split(',').map((n) => n.trim().split(/\s+/)[0]!)) {
      if (!/refresh/i.test(each)) continue;
      const sub = moduleFile(base, name ? `${name}.${each}` : each, fs);
      if (sub) found.push(sub);
    }
  }
  for (const m of code.matchAll(/^[ \t]*import[ \t]+([\w.]+)/gm)) {
    if (!/refresh/i.test(m[1]!)) continue;
    const module = moduleFile(root, m[1]!, fs);
    if (module) found.push(module);
  }
  return found;
}

function ascend(dir: string, levels: number): string {
  for (let i = 0; i < levels; i++) dir = path.dirname(dir);
  return dir;
}

/** `a.b` as a file under `base`: `a/b.py` or `a/b/__init__.py`. */
function moduleFile(base: string, dotted: string, fs: SourceFs): string | undefined {
  if (!dotted) return undefined;
  const parts = dotted.split('.');
  const asFile = path.join(base, ...parts) + '.py';
  if (isFile(asFile, fs)) return asFile;
  const asPackage = path.join(base, ...parts, '__init__.py');
  return isFile(asPackage, fs) ? asPackage : undefined;
}

type KeyNames = Pick<ProtocolReading, 'requestKey' | 'sessionKeyPrefix' | 'stampKey' | 'requestKeyFile' | 'stampKeyFile'>;
const NO_KEYS: KeyNames = { requestKey: undefined, sessionKeyPrefix: undefined, stampKey: undefined, requestKeyFile: undefined, stampKeyFile: undefined };

interface CombinedKeys extends KeyNames {
  readonly notes: string[];
}

/** One name per role from every file's findings; several for any role keep every default, and say so. */
export function combineFindings(findings: readonly KeyFinding[]): CombinedKeys {
  const request = new Map<string, string>();
  const stamp = new Map<string, string>();
  const prefix = new Map<string, string>();
  const constants = new Map<string, string>();
  for (const f of findings) for (const [name, value] of f.constants) constants.set(name, value);
  for (const f of findings) {
    for (const k of f.request) request.set(k, f.file);
    for (const k of f.stamp) stamp.set(k, f.file);
    for (const k of f.sessionPrefix) prefix.set(k, f.file);
    // Names used through a constant: get_meta(KEY), model_config[KEY].
    for (const c of f.requestConstants) if (constants.has(c)) request.set(constants.get(c)!, f.file);
    for (const c of f.stampConstants) if (constants.has(c)) stamp.set(constants.get(c)!, f.file);
    for (const c of f.prefixConstants) if (constants.has(c)) prefix.set(constants.get(c)! + f.prefixSeparator.get(c)!, f.file);
  }
  // A per-session key's head is its prefix, not another profile-wide key.
  for (const p of prefix.keys()) request.delete(p);
  const several = (what: string, names: Map<string, string>) =>
    names.size > 1 ? [`several candidate keys for ${what} (${[...names].map(([name, file]) => `${name} in ${file}`).join(', ')})`] : [];
  const ambiguous = [...several('the request in state_meta', request), ...several('the per-session request', prefix), ...several('the stamp in model_config', stamp)];
  if (ambiguous.length > 0) {
    return {
      ...NO_KEYS,
      notes: [`The sources name ${ambiguous.join('; and ')}: which one Hermes uses cannot be told from the text, so the lens keeps its own reading of every name.`],
    };
  }
  const requestKey = first(request);
  const stampKey = first(stamp);
  return { requestKey, sessionKeyPrefix: first(prefix), stampKey, requestKeyFile: requestKey && request.get(requestKey), stampKeyFile: stampKey && stamp.get(stampKey), notes: [] };
}

function first(names: Map<string, string>): string | undefined {
  return names.keys().next().value;
}

function isFile(file: string, fs: SourceFs): boolean {
  try {
    return fs.stat(file)?.isFile() ?? false;
  } catch {
    return false;
  }
}
