import * as assert from 'node:assert/strict';
import { parseFrontmatter, stripHermesMdFrontmatter } from '../../../server/hermes/text/frontmatter';

describe('sources: frontmatter', () => {
  it('drops one BOM and parses the YAML between the fences', () => {
    const fm = parseFrontmatter('\uFEFF---\nname: deploy\ndescription: "Ship it"\n---\nBody line\n');
    assert.deepEqual(fm.data, { name: 'deploy', description: 'Ship it' });
    assert.equal(fm.body, 'Body line\n');
    assert.equal(fm.bodyStartLine, 4);
    assert.equal(fm.problem, undefined);
  });

  it('needs a newline after the closing fence (skills), so a final "---" closes nothing', () => {
    const fm = parseFrontmatter('---\nname: a\n---');
    assert.equal(fm.data, undefined);
    assert.ok(fm.problem);
  });

  it('has no data and no problem when the text does not start with a fence', () => {
    const fm = parseFrontmatter('# Just markdown\n');
    assert.equal(fm.data, undefined);
    assert.equal(fm.problem, undefined);
    assert.equal(fm.body, '# Just markdown\n');
  });

  it('falls back to "key: value" lines on a YAML error and reports the line', () => {
    const fm = parseFrontmatter('---\nname: a\ndescription: [unclosed\nother: x: y\n---\nbody');
    assert.equal(fm.data?.name, 'a');
    assert.equal(fm.data?.description, '[unclosed');
    assert.equal(fm.data?.other, 'x: y');
    assert.ok(fm.problem);
    assert.ok(fm.problem.line >= 1 && fm.problem.line <= 4, `line ${fm.problem.line}`);
  });

  it('reads YAML 1.1 like PyYAML and lets a repeated key win', () => {
    const fm = parseFrontmatter('---\nname: a\nname: b\nflag: yes\n---\n');
    assert.equal(fm.data?.name, 'b');
    assert.equal(fm.data?.flag, true);
  });

  it('treats a non-mapping frontmatter as empty', () => {
    const fm = parseFrontmatter('---\n- a\n- b\n---\nbody');
    assert.deepEqual(fm.data, {});
    assert.ok(fm.problem);
  });

  it('strips .hermes.md frontmatter the way Hermes does (no newline needed, rest of fence line kept)', () => {
    assert.equal(stripHermesMdFrontmatter('---\ntitle: x\n---\n\n\nBody'), 'Body');
    assert.equal(stripHermesMdFrontmatter('---\ntitle: x\n---tail\nBody'), 'tail\nBody');
    assert.equal(stripHermesMdFrontmatter('\uFEFF---\na: 1\n---'), '\uFEFF---\na: 1\n---'.slice(1));
    assert.equal(stripHermesMdFrontmatter('No frontmatter'), 'No frontmatter');
    assert.equal(stripHermesMdFrontmatter('---\nunclosed'), '---\nunclosed');
  });
});
