import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_CONFIG, parseProfileConfig } from '../../../server/hermes/profile/config';
import { analyzeSkillText, readSkillsIndex, skillsPlatformOf, withSkillText } from '../../../server/hermes/sources/skills';
import { cleanup, skill, tempDir, write } from './fixtures';
import { diskFs } from '../../../server/hermes/fs/diskFs';

const LONG = 'Deploys the service to staging and production with blue-green cutover'; // 70 chars
const SIXTY = 'Lints the TypeScript sources with the project ESLint config.'; // 60 chars

function setup(): string {
  const skills = path.join(tempDir(), 'skills');
  skill(skills, 'devops/deploy', { name: 'deploy', description: LONG });
  skill(skills, 'devops/lint', { name: 'lint', description: `"${SIXTY}"` });
  write(skills, 'devops/DESCRIPTION.md', '---\ndescription: Shipping and CI\n---\n');
  skill(skills, 'solo', { description: 'A skill directly under skills/' });
  skill(skills, 'research/papers/arxiv', { name: 'arxiv', description: 'Search arXiv' });
  return skills;
}

describe('sources: skills index', () => {
  after(cleanup);

  it('cuts descriptions longer than 60 characters to 57 + "..." and leaves 60 untouched', () => {
    const index = readSkillsIndex(diskFs, setup(), DEFAULT_CONFIG, 'linux');
    const deploy = index.entries.find((e) => e.name === 'deploy')!;
    assert.equal(deploy.description, LONG);
    assert.equal(deploy.promptDescription, `${LONG.slice(0, 57)}...`);
    assert.equal(deploy.promptDescription.length, 60);
    assert.equal(index.entries.find((e) => e.name === 'lint')!.promptDescription, SIXTY);
  });

  it('renders the exact block: categories sorted, a skill directly under skills/ filed under its own folder, nested category paths', () => {
    const index = readSkillsIndex(diskFs, setup(), DEFAULT_CONFIG, 'linux');
    const lines = index.block.slice(index.block.indexOf('<available_skills>\n') + 19, index.block.indexOf('\n</available_skills>')).split('\n');
    assert.deepEqual(lines, [
      '  devops: Shipping and CI',
      `    - deploy: ${LONG.slice(0, 57)}...`,
      `    - lint: ${SIXTY}`,
      '  research/papers:',
      '    - arxiv: Search arXiv',
      '  solo:',
      '    - solo: A skill directly under skills/',
    ]);
    assert.ok(index.block.startsWith('## Skills\nBefore replying, scan the skills below.'));
    assert.ok(index.block.includes('basic tools like web_search or terminal. '));
    assert.ok(index.block.endsWith('</available_skills>\n\nOnly proceed without loading a skill if genuinely none are relevant to the task.'));
    assert.equal(index.categories.get('devops')?.description, 'Shipping and CI');
  });

  it('points the description-cut problem at the part that is lost', () => {
    const skills = setup();
    const problem = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux').problems.find((p) => p.code === 'description-cut')!;
    assert.equal(problem.file, path.join(skills, 'devops/deploy/SKILL.md'));
    const col = 'description: '.length;
    assert.deepEqual(problem.range, { startLine: 2, startCharacter: col + 57, endLine: 2, endCharacter: col + LONG.length });
  });

  it('points the description-cut problem at the lost part of a description wrapped onto a second line', () => {
    const skills = path.join(tempDir(), 'skills');
    const first = 'Deploys the service to staging and production';
    const second = 'with a blue-green\u00a0cutover and a rollback plan';
    write(skills, 'ops/fold/SKILL.md', `---\nname: fold\ndescription: ${first}\n  ${second}\n---\n\nSteps.\n`);
    const problem = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux').problems.find((p) => p.code === 'description-cut')!;
    // YAML folds the line break into one space: the 58th character is in the second line.
    const lostAt = 57 - (first.length + 1);
    assert.deepEqual(problem.range, { startLine: 3, startCharacter: 2 + lostAt, endLine: 3, endCharacter: 2 + second.length });
  });

  it('ignores body edits and reacts to description edits', () => {
    const skills = setup();
    const before = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux').block;
    skill(skills, 'devops/lint', { name: 'lint', description: `"${SIXTY}"` }, 'A completely different body.\n\nMore steps.\n');
    assert.equal(readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux').block, before);
    skill(skills, 'devops/lint', { name: 'lint', description: 'Lints everything' });
    const after = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux').block;
    assert.notEqual(after, before);
    assert.ok(after.includes('    - lint: Lints everything\n'));
  });

  it('leaves out skills for other platforms and skills.disabled, matching name or directory', () => {
    const skills = setup();
    skill(skills, 'mac/brew', { name: 'brew', description: 'Homebrew', platforms: '[macos]' });
    const linux = readSkillsIndex(diskFs, skills, { disabledSkills: ['arxiv', ' solo '] }, 'linux');
    assert.deepEqual(linux.entries.filter((e) => e.visible).map((e) => e.name).sort(), ['deploy', 'lint']);
    const mac = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'darwin');
    assert.ok(mac.entries.find((e) => e.name === 'brew')!.visible);
  });

  it("skills.platform_disabled: a gateway session's platform hides its list on top of skills.disabled; the CLI applies none", () => {
    const skills = setup();
    const config = parseProfileConfig('skills:\n  disabled: [arxiv]\n  platform_disabled:\n    telegram: [solo, lint]\n    discord: deploy\n    cli: [deploy]\n    slack:\n', 'config.yaml');
    const visible = (source: string | undefined) =>
      readSkillsIndex(diskFs, skills, config, 'linux', skillsPlatformOf(config, source))
        .entries.filter((e) => e.visible)
        .map((e) => e.name)
        .sort();
    assert.deepEqual(visible('telegram'), ['deploy']);
    assert.deepEqual(visible('discord'), ['lint', 'solo']);
    // Hermes binds no platform in the CLI, cron, the TUI or ACP, and a null list adds nothing.
    for (const source of ['cli', 'cron', 'tui', 'acp', 'slack', 'whatsapp', undefined]) assert.deepEqual(visible(source), ['deploy', 'lint', 'solo'], source);
  });

  it("an unsaved skill's text laid into a platform's index stays hidden where that platform's list hides it", () => {
    const skills = setup();
    const config = parseProfileConfig('skills:\n  platform_disabled:\n    telegram: [lint]\n', 'config.yaml');
    const file = path.join(skills, 'devops', 'lint', 'SKILL.md');
    const edited = analyzeSkillText(diskFs, skills, file, '---\nname: lint\ndescription: Lints and formats the sources.\n---\n', config, 'linux');
    const cli = readSkillsIndex(diskFs, skills, config, 'linux', skillsPlatformOf(config, 'cli'));
    const telegram = readSkillsIndex(diskFs, skills, config, 'linux', skillsPlatformOf(config, 'telegram'));
    assert.match(withSkillText(cli, edited).block, /- lint: Lints and formats the sources\./);
    assert.equal(withSkillText(telegram, edited).block, telegram.block);
  });

  it('keeps the first of two same-named skills in a category and reports the other', () => {
    const skills = setup();
    skill(skills, 'devops/zz-copy', { name: 'deploy', description: 'Another deploy' });
    const index = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux');
    const deploys = index.entries.filter((e) => e.name === 'deploy');
    assert.deepEqual(deploys.map((e) => e.visible), [true, false]);
    assert.equal(index.block.match(/- deploy:/g)?.length, 1);
    const dup = index.problems.find((p) => p.code === 'duplicate-skill');
    assert.equal(dup?.file, path.join(skills, 'devops/zz-copy/SKILL.md'));
  });

  it('reports missing and invalid frontmatter; the skill is listed by directory name', () => {
    const skills = setup();
    write(skills, 'misc/plain/SKILL.md', '# No frontmatter\n');
    write(skills, 'misc/broken/SKILL.md', '---\nname: broken\ndescription: [oops\n---\n');
    const index = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux');
    assert.ok(index.block.includes('  misc:\n    - broken: [oops\n    - plain\n'));
    assert.deepEqual(index.problems.filter((p) => p.code.startsWith('frontmatter')).map((p) => p.code).sort(), ['frontmatter-invalid', 'frontmatter-missing']);
  });

  it('skips excluded and support directories, follows symlinks and survives a symlink loop', () => {
    const skills = setup();
    skill(skills, 'node_modules/pkg', { name: 'dep', description: 'x' });
    skill(skills, 'devops/deploy/references/old', { name: 'old', description: 'archived' });
    const outside = tempDir();
    skill(outside, 'linked', { name: 'linked', description: 'Lives elsewhere' });
    fs.symlinkSync(path.join(outside, 'linked'), path.join(skills, 'linked'));
    fs.symlinkSync(skills, path.join(skills, 'research', 'loop'));
    const names = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux').entries.map((e) => e.name);
    assert.ok(!names.includes('dep') && !names.includes('old'));
    assert.ok(names.includes('linked'));
  });

  it('places every skill as its own file alone would, whatever form the skills path is given in', () => {
    const skills = setup();
    skill(skills, '', { description: 'A SKILL.md right in skills/, named after the folder' });
    write(skills, '_org/.active_org', 'acme\n');
    skill(skills, '_org/acme/tools/fmt', { name: 'fmt', description: 'Formats' });
    const absolute = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux');
    const roundabout = `${path.relative(process.cwd(), path.dirname(skills))}/./skills/../skills/`;
    assert.deepEqual(readSkillsIndex(diskFs, roundabout, DEFAULT_CONFIG, 'linux'), absolute);
    const placed = absolute.entries.map((e) => [e.file, e.name, e.category]);
    const alone = absolute.entries.map((e) => {
      const own = analyzeSkillText(diskFs, skills, e.file, fs.readFileSync(e.file, 'utf8'), DEFAULT_CONFIG, 'linux');
      return [own.file, own.name, own.orgId ? `org:${own.orgId}` : own.category];
    });
    assert.deepEqual(alone, placed);
    assert.deepEqual(placed.filter(([, name]) => name === 'skills' || name === 'fmt'), [
      [path.join(skills, 'SKILL.md'), 'skills', 'general'],
      [path.join(skills, '_org/acme/tools/fmt/SKILL.md'), 'fmt', 'org:acme'],
    ]);
  });

  it('sorts categories by code point, as Python does', () => {
    const skills = path.join(tempDir(), 'skills');
    skill(skills, '\uFF5A/a', { description: 'fullwidth z' });
    skill(skills, '😀/b', { description: 'emoji' });
    const block = readSkillsIndex(diskFs, skills, DEFAULT_CONFIG, 'linux').block;
    assert.ok(block.indexOf('  \uFF5A:') < block.indexOf('  😀:'));
  });

  it('is empty without visible skills', () => {
    const index = readSkillsIndex(diskFs, path.join(tempDir(), 'nothing'), DEFAULT_CONFIG, 'linux');
    assert.equal(index.block, '');
    assert.deepEqual(index.entries, []);
  });
});
