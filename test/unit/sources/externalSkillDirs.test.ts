// skills.external_dirs: more skills folders whose skills the index lists after the profile's own,
// resolved as Hermes resolves them (relative to the Hermes home, `~` and `$VAR` expanded).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseProfileConfig } from '../../../server/hermes/profile/config';
import { externalSkillDirs } from '../../../server/hermes/sources/externalSkillDirs';
import { analyzeSkillText, readSkillsIndex, withCategoryText, withSkillText } from '../../../server/hermes/sources/skills';
import { diskFs } from '../../../server/hermes/fs/diskFs';
import { cleanup, skill, tempDir, write } from './fixtures';

/** A Hermes home with its own skills and a team folder beside it, named by `external_dirs`. */
function home(externalDirs: string) {
  const root = tempDir();
  const hermesHome = path.join(root, 'home');
  const skills = path.join(hermesHome, 'skills');
  const team = path.join(root, 'team-skills');
  skill(skills, 'devops/deploy', { name: 'deploy', description: 'Deploy, the profile’s own way.' });
  write(skills, 'devops/DESCRIPTION.md', '---\ndescription: Shipping\n---\n');
  skill(team, 'devops/deploy', { name: 'deploy', description: 'Deploy, the team’s way.' });
  skill(team, 'devops/rollback', { name: 'rollback', description: 'Roll a release back.' });
  skill(team, 'oncall/pager', { name: 'pager', description: 'Answer a page.' });
  write(team, 'devops/DESCRIPTION.md', '---\ndescription: The team’s shipping\n---\n');
  write(team, 'oncall/DESCRIPTION.md', '---\ndescription: On-call duty\n---\n');
  const config = parseProfileConfig(`skills:\n  external_dirs: ${externalDirs}\n`, path.join(hermesHome, 'config.yaml'));
  return { root, hermesHome, skills, team, config };
}

const listOf = (block: string) => block.slice(block.indexOf('<available_skills>\n') + 19, block.indexOf('\n</available_skills>')).split('\n');

describe('sources: skills of skills.external_dirs', () => {
  after(cleanup);

  it('lists them after the profile’s own: a name the profile has is skipped, a category description only fills a gap', () => {
    const { skills, config, team } = home('["../team-skills"]');
    const index = readSkillsIndex(diskFs, skills, config, 'linux');
    assert.deepEqual(listOf(index.block), [
      '  devops: Shipping',
      '    - deploy: Deploy, the profile’s own way.',
      '    - rollback: Roll a release back.',
      '  oncall: On-call duty',
      '    - pager: Answer a page.',
    ]);
    const skipped = index.problems.find((p) => p.file === path.join(team, 'devops/deploy/SKILL.md'))!;
    assert.match(skipped.message, /skips this one from skills\.external_dirs/);
  });

  it('resolves entries as Hermes does: relative to the Hermes home, `~` and `$VAR` expanded, repeats and missing folders left out', () => {
    const { root, hermesHome, team } = home('[]');
    const env = { HOME: root, TEAM: 'team-skills' };
    const dirs = externalSkillDirs(diskFs, hermesHome, ['../team-skills', '~/team-skills', '$HOME/${TEAM}', '../nowhere', 'skills', '$UNSET/x'], env);
    assert.deepEqual(dirs, [team]);
  });

  it('a lone string is one folder; a list of none adds nothing', () => {
    assert.deepEqual(parseProfileConfig('skills:\n  external_dirs: ~/team\n', 'c.yaml').externalSkillDirs, ['~/team']);
    assert.deepEqual(parseProfileConfig('skills:\n  external_dirs:\n', 'c.yaml').externalSkillDirs, []);
  });

  it('an unsaved edit of an external skill or its DESCRIPTION.md changes the index as saving would', () => {
    const { skills, config, team } = home('["../team-skills"]');
    const index = readSkillsIndex(diskFs, skills, config, 'linux');
    const file = path.join(team, 'oncall/pager/SKILL.md');
    const edited = withSkillText(index, analyzeSkillText(diskFs, skills, file, '---\nname: pager\ndescription: Answer a page within five minutes.\n---\n', config));
    assert.ok(listOf(edited.block).includes('    - pager: Answer a page within five minutes.'));
    assert.ok(listOf(edited.block).includes('  oncall: On-call duty'), 'still filed under its own folder’s category');
    const described = withCategoryText(index, path.join(team, 'oncall/DESCRIPTION.md'), '---\ndescription: Pager duty\n---\n');
    assert.ok(listOf(described.block).includes('  oncall: Pager duty'));
  });
});
