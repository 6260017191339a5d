import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HomeBuilder } from '../../../server/demo/homeBuilder';
import { promptHash } from '../../../server/hermes/store/promptHash';
import { readHome } from '../../../server/hermes/profile/home';
import { renderSources } from '../../../server/hermes/sources/renderSources';
import { StateStore } from '../../../server/hermes/store/stateStore';
import { inspect, removeDir, tempDir, type RawRow } from './support';

const CLI_ID = /^\d{8}_\d{6}_[0-9a-f]{6}$/;
const GATEWAY_ID = /^[0-9a-f]{8}$/;

describe('demo: HomeBuilder', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  function smallHome(seed = 5) {
    const home = HomeBuilder.create(path.join(dir, 'home'), { seed });
    const work = home.addProfile('work', { layout: 'v24' });
    home.setActiveProfile('work');
    const def = home.profile();
    def.writeConfig({ prompt_caching: { cache_ttl: '1h' } }).writeSoul('You are Kit, a terse assistant.');
    def.writeCategoryDescription('devops', 'Operate services');
    const skill = def.addSkill({ category: 'devops', name: 'deploy', description: 'Deploy a service' });
    def.writeMemory(['Prefers tabs.', 'Uses fish shell.']);
    def.writeUser(['Name: Kim.']);
    work.writeSoul('You are Kit at work.');
    const project = home.addProject(path.join(dir, 'projects', 'app'));
    project.agentsMd('', '# App\n\nRun the tests.\n');
    project.agentsMd('pkg', '# Pkg\n\nSmall package.\n');
    return { home, def, work, skill, project };
  }

  it('lays out a root home with a named profile and the files Hermes reads', () => {
    const { home, def, work, skill } = smallHome();
    const found = readHome({ root: home.root, origin: 'argument' });
    assert.deepEqual(found.profiles.map((p) => p.name), ['default', 'work']);
    assert.equal(found.activeProfile, 'work');
    assert.equal(work.dir, path.join(home.root, 'profiles', 'work'));
    assert.equal(skill, path.join(def.dir, 'skills', 'devops', 'deploy', 'SKILL.md'));
    assert.match(fs.readFileSync(skill, 'utf8'), /^---\nname: deploy\ndescription: Deploy a service\n---\n/);
    assert.equal(fs.readFileSync(path.join(def.dir, 'memories', 'MEMORY.md'), 'utf8'), 'Prefers tabs.\n§\nUses fish shell.');
    assert.equal(def.config().cacheTtl, '1h');
    const sources = renderSources(def, def.config(), undefined);
    assert.equal(sources.skills.entries.length, 1);
    assert.equal(sources.memory.entries.length, 2);
    assert.ok(fs.existsSync(def.dbFile) && fs.existsSync(work.dbFile));
  });

  it('stores a prompt built from the current files, by hash in v30 and inline in v24', () => {
    const { def, work, project } = smallHome();
    const cwd = project.path('pkg');
    const a = def.addSession({ source: 'cli', model: 'claude-sonnet-4-5', cwd, startedAt: 1_790_000_000, messages: 6, promptFromCurrentFiles: true });
    const b = work.addSession({ source: 'telegram', model: 'gpt-5.1', startedAt: 1_790_000_100, messages: 4, promptFromCurrentFiles: true });
    assert.match(a, CLI_ID);
    assert.match(b, GATEWAY_ID);
    const promptA = def.session(a)!.prompt!;
    assert.ok(promptA.startsWith('You are Kit, a terse assistant.\n\n'));
    assert.ok(promptA.includes('## ../AGENTS.md') && promptA.includes('## AGENTS.md'), 'AGENTS chain from git root to cwd');
    assert.ok(promptA.endsWith('<!-- End Hermes runtime environment -->'));

    inspect(def.dbFile, (db) => {
      const row = db.prepare('SELECT system_prompt, system_prompt_hash FROM sessions WHERE id = ?').get(a) as RawRow;
      assert.equal(row.system_prompt, null);
      assert.equal(row.system_prompt_hash, promptHash(promptA));
      const stored = db.prepare('SELECT prompt FROM system_prompts WHERE hash = ?').get(row.system_prompt_hash as string) as RawRow;
      assert.equal(stored.prompt, promptA);
    });
    inspect(work.dbFile, (db) => {
      const row = db.prepare('SELECT system_prompt FROM sessions WHERE id = ?').get(b) as RawRow;
      assert.equal(row.system_prompt, work.session(b)!.prompt);
      assert.ok(String(row.system_prompt).includes('Active Hermes profile: work.'));
    });
    for (const [p, id] of [[def, a], [work, b]] as const) {
      const store = StateStore.openReadOnly(p.dbFile);
      try {
        assert.equal(store.storedPrompt(id), p.session(id)!.prompt);
      } finally {
        store.close();
      }
    }
  });

  it('shares one system_prompts row between sessions with the same prompt, and keeps unmigrated rows inline', () => {
    const { def } = smallHome();
    const text = 'You are a fixed prompt.';
    const a = def.addSession({ source: 'cron', model: 'deepseek-chat', startedAt: 1_790_000_000, promptText: text });
    const b = def.addSession({ source: 'cron', model: 'deepseek-chat', startedAt: 1_790_000_060, promptText: text });
    const c = def.addSession({ source: 'cron', model: 'deepseek-chat', startedAt: 1_790_000_120, promptText: 'inline text', layout: 'v24' });
    const d = def.addSession({ source: 'cron', model: 'deepseek-chat', startedAt: 1_790_000_180 });
    inspect(def.dbFile, (db) => {
      assert.equal((db.prepare('SELECT COUNT(*) AS n FROM system_prompts').get() as RawRow).n, 1);
      const inline = db.prepare('SELECT system_prompt, system_prompt_hash FROM sessions WHERE id = ?').get(c) as RawRow;
      assert.deepEqual(inline, { system_prompt: 'inline text', system_prompt_hash: null });
    });
    const store = StateStore.openReadOnly(def.dbFile);
    try {
      assert.equal(store.storedPrompt(a), text);
      assert.equal(store.storedPrompt(b), text);
      assert.equal(store.storedPrompt(c), 'inline text');
      assert.equal(store.storedPrompt(d), undefined);
      assert.equal(store.session(a)!.promptKey, store.session(b)!.promptKey);
    } finally {
      store.close();
    }
  });

  it('writes transcripts with JSON contents, compacted messages and counters that add up', () => {
    const { def } = smallHome(11);
    const id = def.addSession({
      source: 'cli',
      model: 'claude-opus-4-5',
      startedAt: 1_790_000_000,
      lastActivityAt: 1_790_003_600,
      messages: 20,
      compactedMessages: 8,
      promptFromCurrentFiles: true,
      modelConfig: { max_iterations: 40 },
    });
    inspect(def.dbFile, (db) => {
      const messages = db.prepare('SELECT role, content, token_count, active, compacted, timestamp, tool_calls FROM messages WHERE session_id = ? ORDER BY id').all(id) as RawRow[];
      assert.equal(messages.length, 28);
      assert.equal(messages.filter((m) => m.active === 0).length, 8);
      assert.ok(messages.filter((m) => m.active === 0).every((m) => m.compacted === 1));
      assert.equal(messages[messages.length - 1]!.timestamp, 1_790_003_600);
      const session = db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as RawRow;
      assert.equal(session.message_count, 28);
      assert.equal(session.api_call_count, messages.filter((m) => m.role === 'assistant').length);
      assert.equal(session.tool_call_count, messages.filter((m) => m.role === 'assistant' && m.tool_calls).length);
      assert.equal(session.output_tokens, messages.filter((m) => m.role === 'assistant').reduce((s, m) => s + Number(m.token_count), 0));
      assert.ok(Number(session.cache_write_tokens) > 0 && Number(session.cache_read_tokens) > 0 && Number(session.input_tokens) > 0);
      assert.equal(session.last_activity_at, 1_790_003_600);
      assert.deepEqual(JSON.parse(String(session.model_config)), { model: 'claude-opus-4-5', provider: 'anthropic', max_iterations: 40 });
      const usage = db.prepare('SELECT * FROM session_model_usage WHERE session_id = ?').all(id) as RawRow[];
      assert.equal(usage.length, 1);
      for (const k of ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'api_call_count']) assert.equal(usage[0]![k], session[k], k);
    });
    const store = StateStore.openReadOnly(def.dbFile);
    try {
      const live = store.liveTranscript(id);
      assert.equal(live.length, 20);
      assert.ok(live.some((m) => m.content.startsWith('[{"type":"text"')), 'a \\x00json: list content, decoded');
      assert.equal(store.transcriptSize(id).messages, 20);
    } finally {
      store.close();
    }
  });

  it('reports no cache writes for implicit-caching providers and no caching for a local model', () => {
    const { def } = smallHome(12);
    const openai = def.addSession({ source: 'cli', model: 'gpt-5.1', startedAt: 1_790_000_000, messages: 10, promptFromCurrentFiles: true });
    const local = def.addSession({ source: 'cli', model: 'my-local-llama', startedAt: 1_790_000_000, messages: 10, promptFromCurrentFiles: true });
    inspect(def.dbFile, (db) => {
      const row = (id: string) => db.prepare('SELECT input_tokens, cache_read_tokens, cache_write_tokens FROM sessions WHERE id = ?').get(id) as RawRow;
      assert.equal(row(openai).cache_write_tokens, 0);
      assert.ok(Number(row(openai).cache_read_tokens) > 0);
      assert.deepEqual([row(local).cache_read_tokens, row(local).cache_write_tokens], [0, 0]);
    });
  });

  it('is deterministic for a seed', () => {
    const ids = (seed: number, sub: string) => {
      const home = HomeBuilder.create(path.join(dir, sub), { seed });
      const p = home.profile();
      return [
        p.addSession({ source: 'cli', model: 'claude-opus-4-5', startedAt: 1_790_000_000, messages: 5 }),
        p.addSession({ source: 'slack', model: 'gpt-5.1', startedAt: 1_790_000_000, messages: 5 }),
        p.generation,
      ];
    };
    assert.deepEqual(ids(9, 'a'), ids(9, 'b'));
    assert.notDeepEqual(ids(9, 'c'), ids(10, 'd'));
  });
});
