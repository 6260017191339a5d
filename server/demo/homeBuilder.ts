// A small builder for Hermes homes on disk: the root home and named profiles, their instruction
// files, project directories, and sessions written by the simulated Hermes (hermes/). Tests,
// benchmarks and the README demo all make their homes with it, so there is one generator.
import fs = require('node:fs');
import path = require('node:path');
import { readProfileConfig, type ProfileConfig } from '../hermes/profile/config';
import { DEFAULT_PROFILE, isProfileName } from '../hermes/profile/home';
import { createStateDb, type JournalMode, type SchemaLayout } from './hermes/schema';
import type { SessionSpec, WrittenSession } from './hermes/sessions';
import { withSimulatedHermes } from './hermes/simulatedHermes';
import { createRng, type Rng } from './prng';
import {
  renderSkill,
  skillFile,
  writeCategoryDescription,
  writeConfig,
  writeMemoryFile,
  writeSkill,
  writeSoul,
  writeText,
  type SkillSpec,
} from './profileFiles';
import { createProject, type ProjectBuilder } from './projectFiles';

export interface HomeBuilderOptions {
  /** PRNG seed: the same seed and calls give the same ids and transcripts. */
  readonly seed?: number;
  /** Layout of the default profile's state.db (`v30` unless told). */
  readonly defaultLayout?: SchemaLayout;
  readonly journalMode?: JournalMode;
}

export interface ProfileOptions {
  readonly layout?: SchemaLayout;
  readonly journalMode?: JournalMode;
}

export class HomeBuilder {
  readonly rng: Rng;
  private readonly profiles = new Map<string, ProfileBuilder>();

  private constructor(
    readonly root: string,
    private readonly options: HomeBuilderOptions,
  ) {
    this.rng = createRng(options.seed ?? 1);
  }

  /** Creates `root` (which must not hold a state.db yet) with its default profile. */
  static create(root: string, options: HomeBuilderOptions = {}): HomeBuilder {
    fs.mkdirSync(root, { recursive: true });
    const home = new HomeBuilder(path.resolve(root), options);
    home.profiles.set(DEFAULT_PROFILE, new ProfileBuilder(home, DEFAULT_PROFILE, home.root, {
      layout: options.defaultLayout,
      journalMode: options.journalMode,
    }));
    return home;
  }

  /** The profile called `name` (default: the root's own). */
  profile(name: string = DEFAULT_PROFILE): ProfileBuilder {
    const profile = this.profiles.get(name);
    if (!profile) throw new Error(`no profile ${name} in this home; add it with addProfile`);
    return profile;
  }

  /** A named profile under `profiles/<name>`. */
  addProfile(name: string, options: ProfileOptions = {}): ProfileBuilder {
    if (!isProfileName(name) || name === DEFAULT_PROFILE) throw new Error(`invalid profile name ${name}`);
    if (this.profiles.has(name)) throw new Error(`profile ${name} exists`);
    const profile = new ProfileBuilder(this, name, path.join(this.root, 'profiles', name), {
      layout: options.layout,
      journalMode: options.journalMode ?? this.options.journalMode,
    });
    this.profiles.set(name, profile);
    return profile;
  }

  /** Writes `<root>/active_profile`. */
  setActiveProfile(name: string): this {
    writeText(path.join(this.root, 'active_profile'), `${name}\n`);
    return this;
  }

  /** A project directory (a git root unless `git: false`) at an absolute path. */
  addProject(dir: string, options: { git?: boolean } = {}): ProjectBuilder {
    return createProject(path.resolve(dir), options);
  }
}

export class ProfileBuilder {
  readonly dbFile: string;
  readonly layout: SchemaLayout;
  readonly generation: string;
  private readonly skills = new Map<string, SkillSpec>();
  private readonly written = new Map<string, WrittenSession>();

  constructor(
    readonly home: HomeBuilder,
    readonly name: string,
    readonly dir: string,
    options: ProfileOptions,
  ) {
    this.layout = options.layout ?? 'v30';
    for (const sub of ['memories', 'skills', 'sessions', 'logs']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
    this.dbFile = path.join(dir, 'state.db');
    this.generation = createStateDb(this.dbFile, {
      layout: this.layout,
      journalMode: options.journalMode,
      randomHex: (n) => home.rng.hex(n),
    }).generation;
  }

  /** The config as the lens reads it. */
  config(): ProfileConfig {
    return readProfileConfig(path.join(this.dir, 'config.yaml'));
  }

  writeConfig(config: Readonly<Record<string, unknown>> | string): this {
    writeConfig(this.dir, config);
    return this;
  }

  writeSoul(text: string): this {
    writeSoul(this.dir, text);
    return this;
  }

  removeSoul(): this {
    fs.rmSync(path.join(this.dir, 'SOUL.md'), { force: true });
    return this;
  }

  /** Writes `skills/<category>/<name>/SKILL.md`; returns its path. */
  addSkill(spec: SkillSpec): string {
    const file = writeSkill(this.dir, spec);
    this.skills.set(file, spec);
    return file;
  }

  /** Rewrites a skill added here with some fields changed (a description, a body, a name). */
  editSkill(file: string, change: Partial<Pick<SkillSpec, 'name' | 'description' | 'body' | 'platforms'>>): string {
    const spec = this.skills.get(file);
    if (!spec) throw new Error(`${file} was not added through this builder`);
    const next: SkillSpec = { ...spec, ...change, dirName: spec.dirName ?? spec.name };
    writeText(file, renderSkill(next));
    this.skills.set(file, next);
    return file;
  }

  skillPath(spec: Pick<SkillSpec, 'category' | 'name' | 'dirName'>): string {
    return skillFile(this.dir, spec);
  }

  writeCategoryDescription(category: string, description: string): string {
    return writeCategoryDescription(this.dir, category, description);
  }

  /** `memories/MEMORY.md`, entries joined by `\n§\n`. */
  writeMemory(entries: readonly string[]): string {
    return writeMemoryFile(this.dir, 'memory', entries);
  }

  /** `memories/USER.md`, entries joined by `\n§\n`. */
  writeUser(entries: readonly string[]): string {
    return writeMemoryFile(this.dir, 'user', entries);
  }

  /** Writes a session as Hermes would (one BEGIN IMMEDIATE transaction); returns its id. */
  addSession(spec: SessionSpec): string {
    const config = this.config();
    const written = withSimulatedHermes(this.dbFile, (hermes) => hermes.startSession(this.dir, spec, { config, rng: this.home.rng }));
    this.written.set(written.id, written);
    return written.id;
  }

  /** What `addSession` stored for a session (its prompt and the sources it was rendered from). */
  session(id: string): WrittenSession | undefined {
    return this.written.get(id);
  }

  /** Sets a `state_meta` row (refresh requests, FTS bookkeeping, …). */
  setStateMeta(key: string, value: string): this {
    withSimulatedHermes(this.dbFile, (hermes) => hermes.setStateMeta(key, value));
    return this;
  }
}
