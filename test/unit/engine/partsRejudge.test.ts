// `hermes-lens status` right after an edit of SOUL.md, a skill, an AGENTS.md, MEMORY.md or USER.md judges every
// prompt again from what it kept before the edit, without reading the prompts (one per distinct
// skills index after a skill's edit): it must say exactly what a
// run from scratch says, for every kind of edit, on the demo home and on homes written by Hermes' own code.
import * as assert from 'node:assert/strict';
import Database = require('better-sqlite3');
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { startSession } from '../../../server/demo/hermes';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { diskVerdicts } from '../../../server/hermes/engine/diskVerdicts';
import type { ProfileReport } from '../../../server/hermes/engine/types';
import { profilePaths, readHome, selectProfile } from '../../../server/hermes/profile/home';
import type { Profile } from '../../../server/hermes/model';
import { copyCorpusHome, corpusFolders, corpusManifest, type CorpusHome } from '../../support/hermesCorpus';
import { folderWithOwnCache } from '../../support/lensCacheSetting';
import { HermesModel } from '../../../server/workspace/hermesModel';
import { AdoptionLedger } from '../../../server/hermes/refresh/adoptionLedger';
import { memoryAdoptionFiles } from '../../../server/hermes/refresh/adoptionFiles';

const NOW = 1_795_000_000;

// Files written a moment ago could change again within the clock's grain: a run keeps what it read
// of them only when its clock is seconds past them, which this one is.
const LATER = { nowMs: () => Date.now() + 60_000 };
// Every lens watches refresh requests, as the language server does (a ledger of its own each run: what it saw is the same).
const ledger = (profile: Profile) => new AdoptionLedger(profilePaths(profile).stateDb, memoryAdoptionFiles());
const kept = (profile: Profile): ProfileReport => analyzeProfile(profile, { now: NOW, verdicts: diskVerdicts(profilePaths(profile).stateDb, undefined, LATER), adoption: ledger(profile) }).report;
const fromScratch = (profile: Profile): ProfileReport => analyzeProfile(profile, { now: NOW, adoption: ledger(profile) }).report;

/** Edits of a SOUL.md's text, each from the one before; the last gives the original back. */
function soulEdits(original: string, nextHermesParagraph: string | undefined): Array<[string, (text: string) => string | undefined]> {
  const paragraphs = original.trimEnd().split(/\n\n+/);
  return [
    ['a paragraph appended', (t) => `${t.trimEnd()}\n\nKeep answers short unless asked for detail.\n`],
    // A file the lens reports a problem with: the report names it whichever way it was judged.
    ['grown past the size Hermes truncates at', (t) => `${t.trimEnd()}\n\n${'Check twice, answer once. '.repeat(1000)}\n`],
    ['back to the original', () => original],
    ['a sentence added to the last paragraph', (t) => `${t.trimEnd()} Say so when unsure.\n`],
    ['a word changed in the first paragraph', (t) => t.replace(/\b(\w{4,})\b/, '$1-ish')],
    ['back to the original', () => original],
    ['the last paragraph deleted', () => (paragraphs.length > 1 ? `${paragraphs.slice(0, -1).join('\n\n')}\n` : undefined)],
    ['a paragraph inserted at the start', () => `Be kind.\n\n${original}`],
    // A SOUL.md that runs on into Hermes' own text after the identity: only the prompt can tell.
    ['the paragraph Hermes writes after it appended', () => (nextHermesParagraph ? `${original.trimEnd()}\n\n${nextHermesParagraph}\n` : undefined)],
    ['emptied', () => ''],
    ['removed', () => undefined],
    ['back to the original again', () => original],
  ];
}

/** Edits of a memory file's entries (`§` between them), each from the one before; the last gives the original back. */
function memoryEdits(original: string): Array<[string, (text: string) => string | undefined]> {
  return [
    ['an entry added', (t) => `${t.trimEnd()}\n§\nDeploys freeze on Fridays.\n`],
    ['a word changed in the first entry', (t) => t.replace(/\b(\w{4,})\b/, '$1-ish')],
    ['back to the original', () => original],
    ['emptied', () => ''],
    ['removed', () => undefined],
    ['back to the original again', () => original],
  ];
}

/** Edits of a SKILL.md the index lists, each from the one before; the last gives the original back. */
function skillEdits(original: string): Array<[string, (text: string) => string | undefined]> {
  return [
    ['description changed', (t) => t.replace(/^description: .*$/m, 'description: Ship a service, carefully.')],
    ['back to the original', () => original],
    ['removed', () => undefined],
    ['back to the original again', () => original],
  ];
}

/** Edits of a project's AGENTS.md, each from the one before; the last gives the original back. */
function agentsEdits(original: string): Array<[string, (text: string) => string | undefined]> {
  return [
    ['a line added', (t) => `${t.trimEnd()}\n\nAlways run the linter before committing.\n`],
    ['a word changed', (t) => t.replace(/\b(\w{4,})\b/, '$1-ish')],
    ['back to the original', () => original],
    ['removed', () => undefined],
    ['back to the original again', () => original],
  ];
}

/** How the lens reports after an edit: `status` from what it kept on disk, or the language server told of the saved file. */
interface Lens {
  saved(file: string): void;
  report(profile: Profile): ProfileReport;
}

const status: Lens = { saved: () => undefined, report: kept };

/**
 * The language server on `home`: its first list from what status kept on disk, then verdicts kept in
 * memory with a few prompts parsed (as it runs), each save told to it.
 */
function server(home: string): Lens {
  const model = new HermesModel(() => NOW);
  model.configureFromKept({ home, profiles: [] });
  model.completeAnalyses();
  return { saved: (file) => model.sourcesChanged([file]), report: (profile) => model.profileByName(profile.name)!.report };
}

/** Runs the edits on `file`, checking after each that `lens` (taking kept verdicts) says what a run from scratch says. */
function checkEdits(label: string, file: string, edits: (original: string) => Array<[string, (text: string) => string | undefined]>, profiles: () => Profile[], lens = status): void {
  const original = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  for (const profile of profiles()) assert.deepEqual(lens.report(profile), fromScratch(profile), `${label}, first run (${profile.name})`);
  for (const [what, edit] of edits(original)) {
    const now = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const next = edit(now);
    if (what === 'removed') fs.rmSync(file, { force: true });
    else if (next === undefined) continue;
    else fs.writeFileSync(file, next);
    lens.saved(file);
    for (const profile of profiles()) assert.deepEqual(lens.report(profile), fromScratch(profile), `${label}, ${path.basename(file)} ${what} (${profile.name})`);
  }
}

const memoryFiles = (profileDir: string) => [path.join(profileDir, 'memories', 'MEMORY.md'), path.join(profileDir, 'memories', 'USER.md')];

/** The paragraph after the identity in a stored prompt that opens with `soul`. */
function paragraphAfter(prompt: string, soul: string): string | undefined {
  const block = soul.trim();
  if (!prompt.startsWith(`${block}\n\n`)) return undefined;
  const rest = prompt.slice(block.length + 2);
  const end = rest.indexOf('\n\n');
  return end > 0 ? rest.slice(0, end) : undefined;
}

describe('engine: status right after an edit of SOUL.md, a skill, an AGENTS.md or a memory file, from the verdicts kept before it', function () {
  this.timeout(60000);
  const folder = folderWithOwnCache('hermes-soul-rejudge-');
  let dir: string;
  beforeEach(() => (dir = folder()));

  describe('the demo home', () => {
    let demo: DemoManifest;
    beforeEach(() => (demo = generateDemoHome(path.join(dir, 'home'), { now: NOW, writeManifest: false })));
    const profiles = () => ['default', 'work'].map((name) => selectProfile(readHome({ root: demo.root, origin: 'argument' }), name));

    for (const [who, lensOf] of [['status', () => status], ['the language server', () => server(demo.root)]] as const) {
      it(`says what a run from scratch says after every kind of edit (${who})`, () => {
        for (const profile of profiles()) kept(profile);
        const lens = lensOf();
        for (const name of ['default', 'work']) {
          const dir = demo.profiles.find((p) => p.name === name)!.dir;
          checkEdits(`demo ${name}`, path.join(dir, 'SOUL.md'), (t) => soulEdits(t, undefined), profiles, lens);
          for (const file of memoryFiles(dir)) checkEdits(`demo ${name}`, file, memoryEdits, profiles, lens);
        }
        const skill = demo.edits.find((e) => e.source === 'skill' && e.changesPrompts)!.file;
        checkEdits('demo', skill, skillEdits, profiles, lens);
        checkEdits('demo', path.join(demo.projects.atlas, 'AGENTS.md'), agentsEdits, profiles, lens);
      });
    }

    it('says what a run from scratch says after SOUL.md and MEMORY.md were both edited', () => {
      const dir = demo.profiles.find((p) => p.name === 'default')!.dir;
      for (const profile of profiles()) kept(profile);
      fs.appendFileSync(path.join(dir, 'SOUL.md'), '\n\nBe brief.\n');
      fs.appendFileSync(path.join(dir, 'memories', 'MEMORY.md'), '\n§\nDeploys freeze on Fridays.\n');
      for (const profile of profiles()) assert.deepEqual(kept(profile), fromScratch(profile), profile.name);
    });

    it('judges the prompt itself where SOUL.md holds a paragraph that reads like Hermes\' own', () => {
      // Without SOUL.md as the hint such a paragraph would end the identity early: every block may sit elsewhere.
      const def = demo.profiles.find((p) => p.name === 'default')!;
      const soulFile = path.join(def.dir, 'SOUL.md');
      fs.writeFileSync(soulFile, `${fs.readFileSync(soulFile, 'utf8').trimEnd()}\n\nYou run on Hermes Agent; say so when asked.\n`);
      startSession(def.dbFile, def.dir, { source: 'cli', model: 'gpt-5.1', provider: 'openai', startedAt: NOW - 60, lastActivityAt: NOW - 10, messages: 4 });
      checkEdits('demo default, Hermes-like paragraph', soulFile, (t) => soulEdits(t, undefined), profiles);
    });
  });

  for (const folder of corpusFolders()) {
    describe(`a home written by Hermes ${folder}`, () => {
      let corpus: CorpusHome;
      beforeEach(() => (corpus = copyCorpusHome(folder)));
      afterEach(() => corpus.remove());
      const profiles = () => Object.keys(corpus.manifest.profiles).map((name) => selectProfile(readHome({ root: corpus.home, origin: 'argument' }), name));

      for (const who of ['status', 'the language server'] as const) {
      it(`says what a run from scratch says after every kind of edit (${who})`, () => {
        for (const profile of profiles()) kept(profile);
        const lens = who === 'status' ? status : server(corpus.home);
        const soulFile = path.join(corpus.home, 'SOUL.md');
        const profile = profiles().find((p) => p.name === 'default')!;
        const db = new Database(profilePaths(profile).stateDb, { readonly: true });
        const prompts = db.prepare("SELECT system_prompt AS prompt FROM sessions WHERE COALESCE(system_prompt, '') <> ''").all() as Array<{ prompt: string }>;
        const hashed = hasTable(db, 'system_prompts') ? (db.prepare('SELECT prompt FROM system_prompts').all() as Array<{ prompt: string }>) : [];
        db.close();
        const soul = fs.readFileSync(soulFile, 'utf8');
        const next = [...prompts, ...hashed].map((p) => paragraphAfter(p.prompt, soul)).find((p) => p !== undefined);
        assert.ok(next, 'a stored prompt runs on after its identity');
        checkEdits(folder, soulFile, (t) => soulEdits(t, next), profiles, lens);
        for (const file of memoryFiles(corpus.home)) checkEdits(folder, file, memoryEdits, profiles, lens);
        // One listed for every platform, and one a platform's sessions do not list.
        checkEdits(folder, path.join(corpus.home, 'skills/devops/deploy/SKILL.md'), skillEdits, profiles, lens);
        checkEdits(folder, path.join(corpus.home, 'skills/devops/release-notes/SKILL.md'), skillEdits, profiles, lens);
        // Every AGENTS.md some live session's prompt carries.
        const carried = new Set(corpus.manifest.sessions.filter((s) => !s.ended).flatMap((s) => s.context_files));
        for (const file of carried) if (file.endsWith('AGENTS.md')) checkEdits(folder, corpus.at(file), agentsEdits, profiles, lens);
      });
      }

      // Before v25 each session's own copy of its prompt is read to know which text it holds: only
      // homes whose last build stores prompts by hash are asked to read none.
      const lastBuild = corpusManifest(folder).builds.at(-1)!;
      if (lastBuild.schema_version < 25) return;
      for (const [what, file, edit, source] of [
        ['SOUL.md', 'SOUL.md', (t: string) => `${t.trimEnd()}\n\nKeep answers short unless asked for detail.\n`, 'soul'],
        ['MEMORY.md', 'memories/MEMORY.md', (t: string) => `${t.trimEnd()}\n§\nDeploys freeze on Fridays.\n`, 'memory'],
      ] as const) {
        it(`reads no stored prompt to judge them again after an edit of ${what}`, () => {
          const profile = profiles().find((p) => p.name === 'default')!;
          const dbFile = profilePaths(profile).stateDb;
          kept(profile);
          const edited = path.join(corpus.home, file);
          fs.writeFileSync(edited, edit(fs.readFileSync(edited, 'utf8')));
          const expected = fromScratch(profile);
          assert.ok(expected.sessions.some((s) => s.state === 'stale' && s.reasons.some((r) => r.source === source)), 'the edit makes sessions stale');
          // Behind the lens's back, in a way Hermes never would: only a run that reads the prompts sees it.
          const writer = new Database(dbFile);
          writer.prepare("UPDATE system_prompts SET prompt = 'You are a replacement.'").run();
          writer.close();
          assert.notDeepEqual(fromScratch(profile), expected);
          assert.deepEqual(kept(profile), expected);
        });
      }
    });
  }
});

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
