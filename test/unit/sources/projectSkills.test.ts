// Project skills (`skills.trusted_project_dirs`, Hermes 0.20.3's `SU.get_project_skills_dirs` and
// `PB._build_skills_system_prompt_inner`): which folders a session's cwd reads, and the index they
// make with the profile's skills. The homes Hermes wrote are checked in test/unit/conformance/projectSkills.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseProfileConfig } from '../../../server/hermes/profile/config';
import { projectSkillDirs } from '../../../server/hermes/sources/projectSkillDirs';
import { analyzeSkillText, readSkillsIndex, skillNameClashes, withCategoryText, withProjectSkills, withSkillText } from '../../../server/hermes/sources/skills';
import { skillsAsReadIn } from '../../../server/hermes/sources/skillsAsRead';
import { diskFs } from '../../../server/hermes/fs/diskFs';
import { cleanup, skill, tempDir, write } from './fixtures';

/** A Hermes home and a git checkout `repo` beside it, with skills in both. */
function layout(trust: string, extraConfig = '') {
  const root = tempDir();
  const hermesHome = path.join(root, 'home');
  const skills = path.join(hermesHome, 'skills');
  const repo = path.join(root, 'repo');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
  skill(skills, 'devops/deploy', { name: 'deploy', description: 'Deploy, the profile’s way.' });
  skill(skills, 'scratchpad', { name: 'scratchpad', description: 'Keep notes.' });
  write(skills, 'devops/DESCRIPTION.md', '---\ndescription: Shipping\n---\n');
  skill(path.join(repo, '.hermes/skills'), 'devops/deploy', { name: 'deploy', description: 'Deploy, the project’s way.' });
  skill(path.join(repo, '.hermes/skills'), 'review', { name: 'code-review', description: 'Review against the checklist.' });
  skill(path.join(repo, '.agents/skills'), 'code-review', { name: 'code-review', description: 'Another harness’s review.' });
  skill(path.join(repo, '.agents/skills'), 'lint', { name: 'lint', description: '' });
  write(path.join(repo, '.hermes/skills'), 'devops/DESCRIPTION.md', '---\ndescription: Never read by Hermes\n---\n');
  const config = parseProfileConfig(`skills:\n  trusted_project_dirs: ${trust}\n${extraConfig}`, path.join(hermesHome, 'config.yaml'));
  return { root, hermesHome, skills, repo, config, env: { HOME: path.join(root, 'userhome') } };
}

const listOf = (block: string) => block.slice(block.indexOf('<available_skills>\n') + 19, block.indexOf('\n</available_skills>')).split('\n');

describe('sources: project skills of skills.trusted_project_dirs', () => {
  after(cleanup);

  it('reads .hermes/skills then .agents/skills of the git root above the cwd, when config.yaml trusts it', () => {
    const { repo, hermesHome, env } = layout('[]');
    const trusted = parseProfileConfig(`skills:\n  trusted_project_dirs: [${JSON.stringify(repo)}]\n`, 'c.yaml');
    const dirs = [path.join(repo, '.hermes/skills'), path.join(repo, '.agents/skills')];
    assert.deepEqual(projectSkillDirs(diskFs, trusted, path.join(repo, 'src', 'deep'), hermesHome, env), dirs);
    assert.deepEqual(projectSkillDirs(diskFs, trusted, repo, hermesHome, env), dirs);
    // Outside the checkout, without a cwd, or the root not listed: none.
    assert.deepEqual(projectSkillDirs(diskFs, trusted, path.dirname(repo), hermesHome, env), []);
    assert.deepEqual(projectSkillDirs(diskFs, trusted, undefined, hermesHome, env), []);
    assert.deepEqual(projectSkillDirs(diskFs, parseProfileConfig(`skills:\n  trusted_project_dirs: [${JSON.stringify(path.join(repo, 'src'))}]\n`, 'c.yaml'), path.join(repo, 'src'), hermesHome, env), []);
  });

  it('resolves the trust list as Hermes does: `~` and `$VAR` expanded, a relative entry from the cwd, a lone string one entry; project_discovery: false turns it off', () => {
    const { root, repo, hermesHome, env } = layout('[]');
    const at = (trust: string, cwd = repo, extra = '') => projectSkillDirs(diskFs, parseProfileConfig(`skills:\n  trusted_project_dirs: ${trust}\n${extra}`, 'c.yaml'), cwd, hermesHome, { ...env, HOME: root, WHERE: 'repo' });
    assert.equal(at('["~/repo"]').length, 2);
    assert.equal(at('["$HOME/${WHERE}"]').length, 2);
    assert.equal(at(JSON.stringify(repo)).length, 2, 'one string');
    assert.equal(at('["."]').length, 2, 'relative to the session cwd, the root itself');
    assert.equal(at('["."]', path.join(repo, 'src')).length, 0, 'relative to the session cwd, a sub-folder');
    assert.equal(at(`[${JSON.stringify(repo)}]`, repo, '  project_discovery: false\n').length, 0);
  });

  it('is no project at the user home itself, leaves the profile’s own skills folder out, and reads only folders that exist', () => {
    const { root, repo, hermesHome } = layout('[]');
    const trusted = parseProfileConfig(`skills:\n  trusted_project_dirs: [${JSON.stringify(repo)}]\n`, 'c.yaml');
    assert.deepEqual(projectSkillDirs(diskFs, trusted, repo, hermesHome, { HOME: repo }), [], 'a checkout at the home');
    fs.rmSync(path.join(repo, '.agents'), { recursive: true });
    assert.deepEqual(projectSkillDirs(diskFs, trusted, repo, hermesHome, { HOME: root }), [path.join(repo, '.hermes/skills')]);
    // A Hermes home inside the checkout: its skills/ is the project's .hermes/skills.
    assert.deepEqual(projectSkillDirs(diskFs, trusted, repo, path.join(repo, '.hermes'), { HOME: root }), []);
  });

  it('lists the project’s skills first, tagged: the first of a name wins, a profile skill of that name is left out, a project DESCRIPTION.md is not read', () => {
    const { repo, skills } = layout('[]');
    const own = readSkillsIndex(diskFs, skills, { disabledSkills: [] }, 'linux');
    const index = withProjectSkills(diskFs, own, [path.join(repo, '.hermes/skills'), path.join(repo, '.agents/skills')], 'linux');
    assert.deepEqual(listOf(index.block), [
      '  devops: Shipping',
      '    - deploy: [project] Deploy, the project’s way.',
      '  lint:',
      '    - lint: [project]',
      '  review:',
      '    - code-review: [project] Review against the checklist.',
      '  scratchpad:',
      '    - scratchpad: Keep notes.',
    ]);
    assert.equal(index.withoutProject, own);
    assert.deepEqual(index.projectDirs, [path.join(repo, '.hermes/skills'), path.join(repo, '.agents/skills')]);
    const shadowed = index.entries.find((e) => e.file === path.join(repo, '.agents/skills/code-review/SKILL.md'))!;
    assert.equal(shadowed.visible, false);
    assert.match(index.problems.find((p) => p.file === shadowed.file)!.message, /A project skill named "code-review" comes first/);
    // What a build listing no project skills gets: the profile's own index.
    assert.equal(skillsAsReadIn(index, [{ kind: 'guidance', tier: 'stable', text: 'After completing a complex task (5+ tool calls), fixing a tricky error, or discovering a non-trivial workflow, save the approach as a skill' }]), own);
    assert.equal(skillsAsReadIn(index, [{ kind: 'guidance', tier: 'stable', text: 'When you work out a non-trivial workflow, save it as a skill.' }]), index);
  });

  it('a project skill skills.disabled names claims no name; one left out on this platform neither', () => {
    const { repo, skills } = layout('[]');
    skill(path.join(repo, '.hermes/skills'), 'mac-only', { name: 'scratchpad', description: 'Mac notes.', platforms: '[macos]' });
    skill(path.join(repo, '.hermes/skills'), 'ops/scratch-off', { name: 'scratchpad', description: 'Disabled by its folder name.' });
    const own = readSkillsIndex(diskFs, skills, { disabledSkills: ['scratch-off'] }, 'linux');
    const lines = listOf(withProjectSkills(diskFs, own, [path.join(repo, '.hermes/skills')], 'linux').block);
    assert.ok(lines.includes('    - scratchpad: Keep notes.'), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes('Mac notes') || l.includes('Disabled by')), lines.join('\n'));
  });

  it('an unsaved edit of a project skill or of the profile’s changes the index, and the reading without the project, as saving would', () => {
    const { repo, skills } = layout('[]');
    const dirs = [path.join(repo, '.hermes/skills'), path.join(repo, '.agents/skills')];
    const read = () => withProjectSkills(diskFs, readSkillsIndex(diskFs, skills, { disabledSkills: [] }, 'linux'), dirs, 'linux');
    const index = read();
    const edit = (file: string, text: string) => {
      const edited = withSkillText(read(), analyzeSkillText(diskFs, path.dirname(path.dirname(file)), file, text, { disabledSkills: [] }, 'linux'));
      fs.writeFileSync(file, text);
      const saved = read();
      assert.notEqual(edited.block, index.block, file);
      assert.equal(edited.block, saved.block, file);
      assert.equal(edited.withoutProject!.block, saved.withoutProject!.block, file);
    };
    edit(path.join(repo, '.hermes/skills/review/SKILL.md'), '---\nname: code-review\ndescription: Review, the new way.\n---\n');
    edit(path.join(skills, 'devops/deploy/SKILL.md'), '---\nname: deploy\ndescription: Deploy, the profile’s new way.\n---\n');
    const category = withCategoryText(read(), path.join(skills, 'devops/DESCRIPTION.md'), '---\ndescription: Shipping, anew\n---\n');
    assert.match(category.block, /  devops: Shipping, anew\n    - deploy: \[project\]/);
    assert.match(category.withoutProject!.block, /  devops: Shipping, anew\n    - deploy: Deploy, the profile’s new way\./);
    const clash = path.join(repo, '.agents/skills/code-review/SKILL.md');
    const text = fs.readFileSync(clash, 'utf8');
    assert.equal(skillNameClashes(analyzeSkillText(diskFs, dirs[1]!, clash, text, { disabledSkills: [] }, 'linux'), text, index).length, 1);
  });
});
