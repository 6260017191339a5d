import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  applicationIdFor,
  createStateDb,
  messageColumns,
  newGenerationToken,
  schemaVersionOf,
  sessionColumns,
  tablesOf as layoutTables,
} from '../../../server/demo/hermes/schema';
import { createRng } from '../../../server/demo/prng';
import { columnsOf, fileMode, headerApplicationId, inspect, removeDir, tablesOf, tempDir, type RawRow } from './support';

/** docs/HERMES-FORMATS.md §7: the sessions columns the lens relies on (a minimum). */
const RELIED_ON_SESSION_COLUMNS = [
  'id', 'source', 'user_id', 'model', 'model_config', 'system_prompt', 'parent_session_id', 'started_at', 'ended_at',
  'end_reason', 'message_count', 'tool_call_count', 'input_tokens', 'output_tokens', 'cache_read_tokens',
  'cache_write_tokens', 'reasoning_tokens', 'api_call_count', 'cwd', 'git_branch', 'git_repo_root', 'billing_provider',
  'billing_base_url', 'billing_mode', 'estimated_cost_usd', 'actual_cost_usd', 'cost_status', 'title',
  'last_activity_at', 'profile_name', 'archived', 'pinned', 'hidden', 'tool_names',
];

describe('demo: Hermes state.db schema', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  for (const layout of ['v30', 'v24'] as const) {
    it(`creates a healthy ${layout} database: WAL, 0600, integrity ok, schema_version ${schemaVersionOf(layout)}`, () => {
      const file = path.join(dir, 'state.db');
      const created = createStateDb(file, { layout, randomHex: createRng(7).hex });
      assert.equal(fileMode(file), 0o600);
      inspect(file, (db) => {
        assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
        assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
        assert.deepEqual(tablesOf(db), [...layoutTables(layout)].sort());
        assert.deepEqual(db.prepare('SELECT version FROM schema_version').all(), [{ version: schemaVersionOf(layout) }]);
        const meta = db.prepare("SELECT value FROM state_meta WHERE key = 'db_file_generation'").get() as RawRow;
        assert.equal(meta.value, created.generation);
        assert.equal(db.pragma('application_id', { simple: true }), created.applicationId);
        assert.deepEqual(columnsOf(db, 'sessions'), sessionColumns(layout));
        for (const column of RELIED_ON_SESSION_COLUMNS) assert.ok(columnsOf(db, 'sessions').includes(column), column);
        const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'").all() as RawRow[]).map((r) => r.name);
        assert.ok(indexes.includes('idx_messages_session'));
      });
      // Checkpointed on close, so the file header carries Hermes' identity too.
      assert.equal(headerApplicationId(file), created.applicationId);
    });
  }

  it('v30 has the out-of-line prompt table and hash column; v24 has neither', () => {
    const v30 = path.join(dir, 'a.db');
    const v24 = path.join(dir, 'b.db');
    createStateDb(v30, { layout: 'v30' });
    createStateDb(v24, { layout: 'v24' });
    inspect(v30, (db) => {
      assert.deepEqual(columnsOf(db, 'system_prompts'), ['hash', 'prompt']);
      assert.ok(columnsOf(db, 'sessions').includes('system_prompt_hash'));
      const fks = db.prepare('PRAGMA foreign_key_list(sessions)').all() as RawRow[];
      assert.deepEqual(fks.map((f) => `${f.from}->${f.table}`).sort(), ['parent_session_id->sessions', 'system_prompt_hash->system_prompts']);
    });
    inspect(v24, (db) => {
      assert.ok(!tablesOf(db).includes('system_prompts'));
      assert.ok(!columnsOf(db, 'sessions').includes('system_prompt_hash'));
      assert.ok(columnsOf(db, 'sessions').includes('system_prompt'));
    });
  });

  it('has the messages and usage columns of HERMES-FORMATS §7', () => {
    const file = path.join(dir, 'state.db');
    createStateDb(file, { layout: 'v30' });
    inspect(file, (db) => {
      const messages = columnsOf(db, 'messages');
      assert.deepEqual(messages, messageColumns());
      for (const c of ['id', 'session_id', 'role', 'content', 'tool_calls', 'tool_name', 'timestamp', 'token_count', 'active', 'compacted']) {
        assert.ok(messages.includes(c), c);
      }
      const pk = (db.prepare('PRAGMA table_info(session_model_usage)').all() as RawRow[]).filter((c) => Number(c.pk) > 0).map((c) => c.name);
      assert.deepEqual(pk, ['session_id', 'model', 'billing_provider', 'billing_base_url', 'billing_mode', 'task']);
    });
  });

  it('can fall back to DELETE journal mode like Hermes on WAL-hostile filesystems', () => {
    const file = path.join(dir, 'state.db');
    createStateDb(file, { layout: 'v30', journalMode: 'delete' });
    inspect(file, (db) => assert.equal(db.pragma('journal_mode', { simple: true }), 'delete'));
  });

  it('never runs its DDL on a file that already exists', () => {
    const file = path.join(dir, 'state.db');
    fs.writeFileSync(file, 'not ours');
    assert.throws(() => createStateDb(file, { layout: 'v30' }), /EEXIST/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'not ours');
  });

  it('derives application_id from the generation token as Hermes does', () => {
    assert.equal(applicationIdFor('ffffffff' + '0'.repeat(24)), 0x7fffffff);
    assert.equal(applicationIdFor('00000000' + 'f'.repeat(24)), 1);
    assert.equal(applicationIdFor('0a0b0c0d' + '0'.repeat(24)), 0x0a0b0c0d);
    const token = newGenerationToken(createRng(3).hex);
    assert.match(token, /^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    assert.equal(newGenerationToken(createRng(3).hex), token);
  });
});
