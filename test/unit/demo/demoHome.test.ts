import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateDemoHome, type DemoManifest } from '../../../server/demo/demoHome';
import { schemaVersionOf, sessionColumns } from '../../../server/demo/hermes/schema';
import { promptHash } from '../../../server/hermes/store/promptHash';
import { readHome } from '../../../server/hermes/profile/home';
import { renderSources } from '../../../server/hermes/sources/renderSources';
import { readProfileConfig } from '../../../server/hermes/profile/config';
import { StateStore } from '../../../server/hermes/store/stateStore';
import { columnsOf, fileMode, inspect, removeDir, tempDir, type RawRow } from './support';

const NOW = 1_795_000_000;

describe('demo: generateDemoHome', function () {
  this.timeout(30000);
  let dir: string;
  let manifest: DemoManifest;
  before(() => {
    dir = tempDir();
    manifest = generateDemoHome(path.join(dir, 'run1'), { now: NOW, seed: 7 });
  });
  after(() => removeDir(dir));

  const sessions = () => Object.values(manifest.sessions);
  const byLabel = (label: string) => manifest.sessions[manifest.labels[label]!]!;

  it('makes a root home with default (v30, active) and work (v24) profiles', () => {
    const home = readHome({ root: manifest.root, origin: 'argument' });
    assert.deepEqual(home.profiles.map((p) => p.name), ['default', 'work']);
    assert.equal(home.activeProfile, 'default');
    assert.deepEqual(manifest.profiles.map((p) => [p.name, p.layout]), [['default', 'v30'], ['work', 'v24']]);
    assert.ok(fs.existsSync(path.join(manifest.dir, 'demo-manifest.json')));
  });

  it('writes healthy databases: integrity ok, WAL, 0600, exact columns, schema_version', () => {
    for (const profile of manifest.profiles) {
      assert.equal(fileMode(profile.dbFile), 0o600, profile.dbFile);
      inspect(profile.dbFile, (db) => {
        assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
        assert.deepEqual(db.pragma('foreign_key_check'), []);
        assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
        assert.deepEqual(columnsOf(db, 'sessions'), sessionColumns(profile.layout));
        assert.deepEqual(db.prepare('SELECT version FROM schema_version').all(), [{ version: schemaVersionOf(profile.layout) }]);
        assert.match(String((db.prepare("SELECT value FROM state_meta WHERE key = 'db_file_generation'").get() as RawRow).value), /^[0-9a-f]{32}$/);
      });
    }
  });

  it('keys every v30 prompt by the sha256 of its text and NULLs the inline column (except one unmigrated row)', () => {
    const def = manifest.profiles[0]!;
    inspect(def.dbFile, (db) => {
      for (const row of db.prepare('SELECT hash, prompt FROM system_prompts').all() as RawRow[]) assert.equal(row.hash, promptHash(String(row.prompt)));
      const inline = (db.prepare('SELECT id FROM sessions WHERE system_prompt IS NOT NULL').all() as RawRow[]).map((r) => r.id);
      assert.deepEqual(inline, [manifest.labels['slack-deepseek']]);
      const shared = db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE system_prompt_hash IS NOT NULL').get() as RawRow;
      assert.ok(Number(shared.n) >= 15);
    });
  });

  it('reads back through StateStore in both layouts with the prompts and model_config it lists', () => {
    for (const profile of manifest.profiles) {
      const store = StateStore.openReadOnly(profile.dbFile);
      try {
        const records = store.listSessions({ includeEnded: true });
        const expected = sessions().filter((s) => s.profile === profile.name);
        assert.deepEqual(records.map((r) => r.id).sort(), expected.map((s) => s.id).sort());
        for (const s of expected) {
          const record = records.find((r) => r.id === s.id)!;
          const prompt = store.storedPrompt(s.id);
          assert.equal(prompt !== undefined, s.promptStorage !== 'none', s.label);
          if (prompt) {
            assert.ok(prompt.includes(`Model: ${s.model}\nProvider: ${s.provider}\nPlatform: ${s.source}`), s.label);
            assert.ok(record.promptKey!.startsWith(s.promptStorage === 'hash' ? 'hash:' : 'inline:'), s.label);
          }
          assert.equal(record.modelConfig.model, s.model);
          assert.equal(Number(record.modelConfig.prompt_refresh_epoch ?? 0), s.stampedEpoch, s.label);
          assert.equal(record.parentSessionId, s.parentSessionId);
          assert.equal(record.lastActivityAt, s.lastActivityAt, s.label);
          assert.equal(record.billingMode, s.billingMode);
        }
      } finally {
        store.close();
      }
    }
    const branch = byLabel('chain-branch');
    const store = StateStore.openReadOnly(manifest.profiles[0]!.dbFile);
    try {
      assert.equal(store.session(branch.id)!.modelConfig._branched_from, byLabel('chain-parent').id);
      assert.equal(store.session(byLabel('chain-parent').id)!.endReason, 'compression');
    } finally {
      store.close();
    }
  });

  it('covers the sources, models, billing and cache ages the demo promises', () => {
    const all = sessions();
    assert.ok(all.length >= 20);
    for (const source of ['cli', 'tui', 'telegram', 'discord', 'slack', 'cron', 'subagent', 'webhook', 'api_server', 'tool']) {
      assert.ok(all.some((s) => s.source === source), source);
    }
    for (const [model, provider] of [['claude-opus-4-5', 'anthropic'], ['claude-sonnet-4-5', 'anthropic'], ['gpt-5.1', 'openai'], ['gemini-2.5-pro', 'gemini'], ['deepseek-chat', 'deepseek'], ['my-local-llama', 'custom']]) {
      assert.ok(all.some((s) => s.model === model && s.provider === provider), model);
    }
    assert.equal(all.filter((s) => s.billingMode === 'subscription_included').length, 1);
    for (const state of ['fresh', 'stale', 'pending', 'no-prompt', 'ended'] as const) assert.ok(all.some((s) => s.state === state), state);
    for (const source of ['soul', 'skill', 'project-context', 'memory'] as const) assert.ok(all.some((s) => s.reasonSources.includes(source)), source);
    const ages = all.filter((s) => s.endedAt === undefined).map((s) => NOW - s.lastActivityAt);
    assert.ok(ages.includes(120) && ages.includes(1200) && ages.some((a) => a >= 3 * 3600));
    assert.equal(byLabel('chain-parent').tipSessionId, byLabel('chain-tip').id);
    assert.equal(byLabel('telegram-gpt').skillsIndexTier, 'stable');
  });

  it('has ≥8 skills in 3 categories (one description cut), project dirs with an AGENTS chain and a shadowing .hermes.md', () => {
    const def = manifest.profiles[0]!;
    const config = readProfileConfig(path.join(def.dir, 'config.yaml'));
    const sources = renderSources(def, config, manifest.projects.atlasApi);
    assert.ok(sources.skills.entries.length >= 8);
    assert.equal(new Set(sources.skills.entries.map((e) => e.category)).size, 3);
    assert.ok(sources.skills.entries.some((e) => e.description.length > 60 && e.promptDescription.endsWith('...')));
    assert.equal(sources.projectContext.kind, 'agents-chain');
    assert.equal(sources.projectContext.files.length, 2);
    assert.ok(sources.memory.entries.length > 0 && sources.user.entries.length > 0);
    const beacon = renderSources(def, config, manifest.projects.beacon).projectContext;
    assert.equal(beacon.kind, 'hermes-md');
    assert.deepEqual(beacon.shadowed.map((s) => path.basename(s.path)), ['AGENTS.md']);
    for (const s of [sources, renderSources(def, config, undefined)]) {
      const blocked = [...s.soul.problems, ...s.skills.problems, ...s.memory.problems, ...s.user.problems, ...s.projectContext.problems].filter((p) => p.code === 'blocked');
      assert.deepEqual(blocked, []);
    }
  });

  it('lists reasons that match what changed between the stored prompt and today\'s rendering', () => {
    for (const profile of manifest.profiles) {
      const config = readProfileConfig(path.join(profile.dir, 'config.yaml'));
      const store = StateStore.openReadOnly(profile.dbFile);
      try {
        for (const s of sessions().filter((x) => x.profile === profile.name && x.promptStorage !== 'none')) {
          const prompt = store.storedPrompt(s.id)!;
          const today = renderSources(profile, config, s.cwd);
          const differs = {
            soul: !prompt.startsWith(today.soul.block + '\n\n'),
            skill: !prompt.includes(today.skills.block),
            'project-context': !prompt.includes(today.projectContext.block),
            memory: !prompt.includes(today.memory.block),
            user: !prompt.includes(today.user.block),
          };
          const got = Object.entries(differs).filter(([, d]) => d).map(([k]) => k).sort();
          assert.deepEqual(got, [...s.reasonSources], s.label);
        }
      } finally {
        store.close();
      }
    }
  });

  it('is deterministic for a seed and `now`', () => {
    // Same path length, so token estimates (which count the paths inside prompts) match too.
    const again = generateDemoHome(path.join(dir, 'run2'), { now: NOW, seed: 7, writeManifest: false });
    const rel = (m: DemoManifest, text: string) => text.split(m.dir).join('<dir>');
    assert.equal(rel(again, JSON.stringify(again)), rel(manifest, JSON.stringify(manifest)));
    for (const i of [0, 1]) {
      // Prompt hashes differ with the paths inside the prompts: compare the prompt texts instead.
      const dump = (m: DemoManifest) =>
        inspect(m.profiles[i]!.dbFile, (db) => {
          const prompt = i === 0 ? 'COALESCE(sp.prompt, s.system_prompt)' : 's.system_prompt';
          const join = i === 0 ? 'LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash' : '';
          const sessions = db.prepare(`SELECT s.*, ${prompt} AS prompt_text FROM sessions s ${join} ORDER BY s.id`).all() as RawRow[];
          for (const row of sessions) delete row.system_prompt_hash;
          return rel(m, JSON.stringify([sessions, db.prepare('SELECT * FROM messages ORDER BY id').all(), db.prepare('SELECT * FROM state_meta ORDER BY key').all()]));
        });
      assert.ok(dump(again) === dump(manifest), `profile ${manifest.profiles[i]!.name} differs between runs`);
    }
    const other = generateDemoHome(path.join(dir, 'other'), { now: NOW, seed: 8, writeManifest: false });
    assert.notDeepEqual(Object.keys(other.sessions).sort(), Object.keys(manifest.sessions).sort());
  });
});
