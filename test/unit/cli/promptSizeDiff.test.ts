// `hermes-lens prompt-size` and `hermes-lens diff`, in-process, on real stored prompts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HomeBuilder, type ProfileBuilder } from '../../../server/demo/homeBuilder';
import type { SessionSpec } from '../../../server/demo/hermes/sessions';
import { removeDir, tempDir } from '../demo/support';
import { cli, NOW } from './support';

describe('cli: hermes-lens prompt-size and diff', function () {
  this.timeout(30000);
  let dir: string;
  beforeEach(() => (dir = tempDir('hermes-cli-size-')));
  afterEach(() => removeDir(dir));

  function makeHome() {
    const home = HomeBuilder.create(path.join(dir, 'hermes'), { seed: 71 });
    const p = home.profile();
    p.writeSoul('You are Kit, a careful assistant.\n');
    p.writeCategoryDescription('devops', 'Operate services');
    const deploy = p.addSkill({ category: 'devops', name: 'deploy', description: 'Deploy a service — with ünïcödé' });
    p.writeMemory(['Prefers tabs.', 'Runs fish shell.']);
    p.writeUser(['Name: Kim.']);
    const project = home.addProject(path.join(dir, 'projects', 'atlas'));
    const agents = project.agentsMd('', '# Atlas\n\nRun npm test before pushing.\n');
    return { home, p, deploy, agents, cwd: project.path() };
  }

  function addSession(p: ProfileBuilder, spec: Partial<SessionSpec> = {}): string {
    return p.addSession({ source: 'cli', model: 'claude-sonnet-4-5', startedAt: NOW - 3600, lastActivityAt: NOW - 120, messages: 6, promptFromCurrentFiles: true, ...spec });
  }

  describe('prompt-size', () => {
    it('--json: one row per tier, the tiers summing to the total bytes of the stored prompt', () => {
      const { home, p, cwd } = makeHome();
      const id = addSession(p, { cwd });
      const run = cli(['prompt-size', '--home', home.root, '--session', id, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout);
      assert.equal(out.sessionId, id);
      const rows = new Map<string, { bytes: number; tokens: number }>(out.rows.map((r: { label: string; bytes: number; tokens: number }) => [r.label, r]));
      const prompt = p.session(id)!.prompt!;
      const total = Buffer.byteLength(prompt, 'utf8');
      assert.equal(out.totalBytes, total);
      assert.equal(rows.get('total')!.bytes, total);
      const tiers = ['stable tier', 'context tier', 'volatile tier'].map((label) => rows.get(label)!.bytes);
      assert.ok(tiers.every((b) => b > 0), JSON.stringify(tiers));
      assert.equal(tiers.reduce((a, b) => a + b, 0), total);
      // The skills index, memory and user profile are parts of a tier, each smaller than the tiers' sum.
      for (const label of ['skills index', 'memory', 'user profile']) {
        assert.ok(rows.get(label)!.bytes > 0 && rows.get(label)!.bytes < total, label);
      }
      assert.ok(out.totalTokens > 0);
    });

    it('the table prints the same rows in bytes, with the tool schemas and the toolsets and skills by size', () => {
      const { home, p, cwd } = makeHome();
      const id = addSession(p, { cwd });
      const run = cli(['prompt-size', '--home', home.root, '--session', id]);
      assert.equal(run.code, 0, run.stderr);
      const bytes = (label: string) => {
        const line = run.stdout.split('\n').find((l) => l.trim().startsWith(`${label} `));
        assert.ok(line, `no ${label} row in\n${run.stdout}`);
        return Number(line.trim().slice(label.length).trim().split(/\s+/)[0]!.replace(/,/g, ''));
      };
      const total = Buffer.byteLength(p.session(id)!.prompt!, 'utf8');
      assert.equal(bytes('system prompt'), total);
      assert.equal(bytes('stable tier') + bytes('context tier') + bytes('volatile tier'), total);
      assert.equal(bytes('sent before the conversation'), total + bytes('tool schemas'));
      assert.match(run.stdout, /^Toolsets by size/m);
      assert.match(run.stdout, /^Skills by size/m);
      assert.match(run.stdout, /^ *deploy +\d+ B +\d+ B$/m, 'the skill with its SKILL.md and index bytes');
    });

    it('without --session: the prompt a new session would get now, rendered from today\'s files and the newest stored prompt', () => {
      const { home, p, deploy, cwd } = makeHome();
      addSession(p, { cwd, lastActivityAt: NOW - 3000, startedAt: NOW - 4000 });
      const newest = addSession(p, { cwd, lastActivityAt: NOW - 10 });
      fs.writeFileSync(deploy, fs.readFileSync(deploy, 'utf8').replace(/^description: .*$/m, 'description: Ship it.'));
      const run = cli(['prompt-size', '--home', home.root, '--cwd', cwd, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout);
      assert.equal(out.sessionId, null);
      assert.deepEqual([out.newSession.fromSession, out.newSession.sameFolder], [newest, true]);
      // Today's description, as Hermes lists it, is what the new session's index holds.
      const line = out.skills_breakdown.find((s: { name: string }) => s.name === 'deploy');
      assert.equal(line.index_line_bytes, Buffer.byteLength('    - deploy: Ship it.', 'utf8'));
      assert.equal(line.skill_md_bytes, fs.statSync(deploy).size);
      assert.equal(out.system_prompt.bytes, out.totalBytes);
      assert.ok(out.tools.count > 0 && out.tools.json_bytes > out.tools.count, JSON.stringify(out.tools));
      assert.equal(out.prefix_tokens, out.tools.tokens + out.system_prompt.tokens);
    });

    it('a session without a stored prompt: exit 1 and one line saying so', () => {
      const { home, p } = makeHome();
      const id = addSession(p, { promptFromCurrentFiles: false });
      const run = cli(['prompt-size', '--home', home.root, '--session', id]);
      assert.equal(run.code, 1);
      assert.equal(run.stderr.trim().split('\n').length, 1);
      assert.ok(run.stderr.includes(id));
    });
  });

  describe('diff --session', () => {
    it('after a SOUL.md edit lists the identity section with the old and new lines', () => {
      const { home, p } = makeHome();
      const id = addSession(p);
      p.writeSoul('You are Kit, a bold assistant.\n');
      const run = cli(['diff', '--home', home.root, '--session', id]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /== identity \(changed\)/);
      assert.match(run.stdout, /^-You are Kit, a careful assistant\.$/m);
      assert.match(run.stdout, /^\+You are Kit, a bold assistant\.$/m);
      assert.doesNotMatch(run.stdout, /== (memory|skills-index)/, 'unchanged sections are not listed');
    });

    it('shows control characters from the files as \uFFFD, so a terminal never interprets them', () => {
      const { home, p } = makeHome();
      const id = addSession(p);
      p.writeSoul('You are Kit, a \u001b[31mred\u001b[0m assistant.\n');
      const run = cli(['diff', '--home', home.root, '--session', id]);
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stdout, /\u001b/);
      assert.match(run.stdout, /^\+You are Kit, a \uFFFD\[31mred\uFFFD\[0m assistant\.$/m);
    });

    it('--json lists exactly the sections a refresh would change (identity, skills index, project context)', () => {
      const { home, p, deploy, agents, cwd } = makeHome();
      const id = addSession(p, { cwd });
      p.writeSoul('You are Kit, a bold assistant.\n');
      p.editSkill(deploy, { description: 'Deploy a service, canary first' });
      fs.writeFileSync(agents, '# Atlas\n\nRun npm test and lint before pushing.\n');
      const run = cli(['diff', '--home', home.root, '--session', id, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout);
      assert.equal(out.sessionId, id);
      const sections = (out.sections as Array<{ section: string; change: string; hunks: string[] }>).map((s) => s.section.split(':')[0]).sort();
      assert.deepEqual(sections, ['identity', 'project-context', 'skills-index']);
      const skills = out.sections.find((s: { section: string }) => s.section === 'skills-index');
      assert.ok(skills.hunks.join('\n').includes('canary first'));
    });

    it('a fresh session: "current", no sections', () => {
      const { home, p } = makeHome();
      const id = addSession(p);
      const run = cli(['diff', '--home', home.root, '--session', id]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /\bcurrent\b/);
      assert.doesNotMatch(run.stdout, /==/);
      assert.deepEqual(JSON.parse(cli(['diff', '--home', home.root, '--session', id, '--json']).stdout).sections, []);
    });

    it('a skill body edit: still current', () => {
      const { home, p, deploy } = makeHome();
      const id = addSession(p);
      p.editSkill(deploy, { body: 'All new steps.\n' });
      assert.match(cli(['diff', '--home', home.root, '--session', id]).stdout, /\bcurrent\b/);
    });

    it('an unknown session: exit 1 with one line naming it', () => {
      const { home } = makeHome();
      const run = cli(['diff', '--home', home.root, '--session', 'cafebabe']);
      assert.equal(run.code, 1);
      assert.equal(run.stderr.trim().split('\n').length, 1);
      assert.match(run.stderr, /cafebabe/);
    });
  });
});
