// The homes Hermes' own code wrote (test/fixtures/hermes-builds), made usable by a test: each
// folder is copied to a temporary place, the sessions' working directories (and the files naming
// the folder's place, such as a trust list in config.yaml) are moved there with it, and the git
// roots git cannot commit are made again. The stored prompts are left byte for byte as Hermes
// wrote them.
import Database = require('better-sqlite3');
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CORPUS_DIR = path.resolve(__dirname, '../../../test/fixtures/hermes-builds');

export type CorpusScenario = 'standard' | 'families' | 'project-skills';

export interface CorpusSession {
  readonly id: string;
  /** The scenario step that made it (`a-root`, `telegram`, `model`, … in the folders' README). */
  readonly scenario_key: string;
  readonly profile: string;
  readonly written_by: string;
  readonly source: string;
  readonly role: string;
  /** Relative to the folder; null for the gateway session. */
  readonly cwd: string | null;
  readonly ended: boolean;
  readonly context_labels: readonly string[];
  readonly context_files: readonly string[];
  /** The three tiers Hermes built the stored prompt from, as it built them (sizes, digests). */
  readonly hermes_tiers?: Readonly<Record<'stable' | 'context' | 'volatile', HermesTier>>;
  /** What the session's last turn sent before its messages, as the corpus's fake LLM received it. */
  readonly wire?: CorpusWire;
}

export interface HermesTier {
  readonly chars: number;
  readonly bytes: number;
  readonly sha256: string;
}

export interface CorpusWire {
  readonly tool_names: readonly string[];
  readonly tools_json_bytes: number;
  readonly tools_sha256: string;
  readonly system: { readonly chars: number; readonly parts: ReadonlyArray<{ readonly chars: number; readonly cache_marked: boolean }> };
}

export interface CorpusManifest {
  readonly name: string;
  /**
   * `standard` (every folder's scenario, the README's), `families` (profiles sharing their files)
   * or `project-skills` (a trusted project's skills); absent means standard.
   */
  readonly scenario?: CorpusScenario;
  readonly builds: ReadonlyArray<{ readonly name: string; readonly commit: string; readonly version: string; readonly schema_version: number; readonly derived?: { readonly base_build: string; readonly change: string } }>;
  readonly generation_root: string;
  /** The files (relative to the folder) whose text names generation_root: a copy writes its own place there. */
  readonly files_naming_generation_root?: readonly string[];
  readonly profiles: Readonly<Record<string, string>>;
  readonly git_roots: ReadonlyArray<{ readonly path: string }>;
  readonly user_home: { readonly path: string };
  readonly sessions: readonly CorpusSession[];
}

/** A copy of one corpus folder, ready to read. */
export interface CorpusHome {
  readonly manifest: CorpusManifest;
  /** The copy's folder (its `home/` is the Hermes home). */
  readonly root: string;
  readonly home: string;
  /** A profile's directory in the copy. */
  profileDir(profile: string): string;
  /** A path of the folder (as the manifest gives them), in the copy. */
  at(relative: string): string;
  /** The live sessions of a profile that hold a stored prompt. */
  liveSessions(profile?: string): CorpusSession[];
  remove(): void;
}

/** A corpus folder's manifest, as Hermes' run wrote it. */
export function corpusManifest(folder: string): CorpusManifest {
  return JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, folder, 'manifest.json'), 'utf8')) as CorpusManifest;
}

/** The names of the corpus folders of a scenario (the standard one by default), or of all of them. */
export function corpusFolders(scenario: CorpusScenario | 'all' = 'standard'): string[] {
  return fs
    .readdirSync(CORPUS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => scenario === 'all' || (corpusManifest(name).scenario ?? 'standard') === scenario)
    .sort();
}

export function copyCorpusHome(folder: string): CorpusHome {
  const source = path.join(CORPUS_DIR, folder);
  const manifest = corpusManifest(folder);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `hermes-corpus-${folder}-`));
  fs.cpSync(source, root, { recursive: true });
  for (const gitRoot of manifest.git_roots) fs.mkdirSync(path.join(root, gitRoot.path, '.git'), { recursive: true });
  fs.mkdirSync(path.join(root, manifest.user_home.path), { recursive: true });
  for (const profileDir of Object.values(manifest.profiles)) relocateSessions(path.join(root, profileDir, 'state.db'), manifest.generation_root, root);
  for (const file of manifest.files_naming_generation_root ?? []) relocateText(path.join(root, file), manifest.generation_root, root);
  return {
    manifest,
    root,
    home: path.join(root, 'home'),
    profileDir: (profile) => path.join(root, manifest.profiles[profile]!),
    at: (relative) => path.join(root, relative),
    liveSessions: (profile = 'default') => manifest.sessions.filter((s) => s.profile === profile && !s.ended),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** The sessions' working directories follow the folder to its new place (this copy's database only). */
function relocateSessions(dbFile: string, from: string, to: string): void {
  const db = new Database(dbFile);
  try {
    db.prepare('UPDATE sessions SET cwd = ? || substr(cwd, ?) WHERE cwd LIKE ? || \'%\'').run(to, from.length + 1, from);
  } finally {
    db.close();
  }
}

/** A file naming the folder's generation root names the copy's place instead (a trust list's absolute paths). */
function relocateText(file: string, from: string, to: string): void {
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split(from).join(to));
}

/** The build of the corpus folder that `name` (a session's `written_by`) names. */
export function buildOf(corpus: CorpusHome, name: string): CorpusManifest['builds'][number] {
  const build = corpus.manifest.builds.find((b) => b.name === name);
  if (!build) throw new Error(`${corpus.manifest.name}: no build ${name} in its manifest`);
  return build;
}

/** Whether Hermes version `version` (`0.20.4`) is `min` or later. */
export function versionAtLeast(version: string, min: string): boolean {
  const a = version.split('.').map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}
