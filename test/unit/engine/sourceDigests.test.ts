// Status keeps the judging digest of each session cwd with what rendering the sources read: a later
// run takes it without rendering while those reads still hold, renders SOUL.md alone when it
// alone changed, renders all again when anything else changed, and keeps nothing from a run that
// had problems to report or saw a change in its last seconds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_CONFIG } from '../../../server/hermes/profile/config';
import { judgingDigest, memoryPartDigest, soulPartDigest } from '../../../server/hermes/engine/judgingDigest';
import { PersistedAnalyses } from '../../../server/hermes/engine/persistedAnalyses';
import { SourceDigests } from '../../../server/hermes/engine/sourceDigests';
import { renderMemoryFile, renderProfileSources, renderProjectContext, renderSources } from '../../../server/hermes/sources/renderSources';
import { readSoul } from '../../../server/hermes/sources/soul';
import { profileFixture } from '../anatomy/profileFixture';
import { cacheSettingPerTest } from '../../support/lensCacheSetting';
import { cleanup, tempDir } from '../sources/fixtures';

/** Later than anything the test wrote, so the racy check lets a recording be kept. */
const LATER = () => Date.now() + 60_000;

describe('engine: source digests kept between status runs', () => {
  cacheSettingPerTest(() => tempDir('hermes-digests-'));
  after(cleanup);

  /** One status run's part, rendering as analyzeProfile does (SOUL.md on its own): the digest of the fixture's cwd, and what it rendered. */
  function run(f: ReturnType<typeof profileFixture>, save: { problems?: boolean; nowMs?: number } = {}): { digest: string; rendered: string } {
    const dbFile = path.join(f.profileDir, 'state.db');
    if (!fs.existsSync(dbFile)) fs.writeFileSync(dbFile, '');
    const persisted = PersistedAnalyses.open(dbFile)!;
    const digests = new SourceDigests(persisted);
    const profile = { dir: f.profileDir };
    const soul = () => digests.renderPart('soul', (fs) => readSoul(fs, f.profileDir, DEFAULT_CONFIG));
    const memory = (kind: 'memory' | 'user') => digests.renderPart(kind, (fs) => renderMemoryFile(profile, kind, fs));
    const digest = digests.digest(
      f.cwd,
      () => {
        const apart = { soul: soul(), memory: memory('memory'), user: memory('user') };
        const own = digests.render((fs) => renderProfileSources(profile, DEFAULT_CONFIG, { fs, platform: 'linux' }, apart));
        const projectContext = digests.render((fs) => renderProjectContext(DEFAULT_CONFIG, f.cwd, { fs, stopAt: f.top }));
        return judgingDigest(DEFAULT_CONFIG, { ...own, projectContext });
      },
      (part) => (part === 'soul' ? soulPartDigest(soul()) : memoryPartDigest(memory(part))),
    );
    digests.save(save.problems ?? false, save.nowMs ?? LATER());
    persisted.save();
    const rendered = digests.rendered;
    return { digest, rendered: typeof rendered === 'string' ? rendered : [...rendered].sort().join('+') };
  }

  const today = (f: ReturnType<typeof profileFixture>) => judgingDigest(DEFAULT_CONFIG, renderSources({ dir: f.profileDir }, DEFAULT_CONFIG, f.cwd, { stopAt: f.top, platform: 'linux' }));

  it('takes the kept digest while the reads hold, and renders again after an edit', () => {
    const f = profileFixture();
    const first = run(f);
    assert.equal(first.rendered, 'all');
    const second = run(f);
    assert.deepEqual(second, { digest: first.digest, rendered: 'none' });

    fs.appendFileSync(path.join(f.profileDir, 'memories', 'MEMORY.md'), '\n§\nDeploys freeze on Fridays.');
    const third = run(f);
    assert.equal(third.rendered, 'memory');
    assert.notEqual(third.digest, first.digest);
    assert.equal(third.digest, today(f), 'what the kept digest stands for is the rendering of today');
    assert.equal(run(f).rendered, 'none', 'kept again after the edit');
  });

  it('renders all again after an edit of another file', () => {
    const f = profileFixture();
    run(f);
    fs.writeFileSync(path.join(f.cwd, 'AGENTS.md'), '# Rules\n\nKeep pull requests small.\n');
    const second = run(f);
    assert.equal(second.rendered, 'all');
    assert.equal(second.digest, today(f));
  });

  it('renders SOUL.md alone after an edit of SOUL.md alone, and keeps what it made', () => {
    const f = profileFixture();
    const first = run(f);
    fs.appendFileSync(path.join(f.profileDir, 'SOUL.md'), '\n\nAnswer in English unless asked otherwise.\n');
    const second = run(f);
    assert.equal(second.rendered, 'soul');
    assert.notEqual(second.digest, first.digest);
    assert.equal(second.digest, today(f), 'the kept digest with the new SOUL.md is the rendering of today');
    assert.deepEqual(run(f), { digest: second.digest, rendered: 'none' });
    // SOUL.md and MEMORY.md: those two alone.
    fs.appendFileSync(path.join(f.profileDir, 'SOUL.md'), '\nBe brief.\n');
    fs.appendFileSync(path.join(f.profileDir, 'memories', 'MEMORY.md'), '\n§\nDeploys freeze on Fridays.');
    const third = run(f);
    assert.equal(third.rendered, 'memory+soul');
    assert.equal(third.digest, today(f));
    assert.equal(run(f).rendered, 'none');
  });

  it('keeps nothing from a run that saw a change in its last seconds, or had problems to report', () => {
    const f = profileFixture();
    run(f, { nowMs: Date.now() });
    assert.equal(run(f, { problems: true }).rendered, 'all', 'the racy run kept nothing');
    assert.equal(run(f).rendered, 'all', 'the run with problems kept nothing');
    assert.equal(run(f).rendered, 'none');
    fs.appendFileSync(path.join(f.profileDir, 'SOUL.md'), '\n\nBe brief.\n');
    assert.equal(run(f, { nowMs: Date.now() }).rendered, 'soul');
    assert.equal(run(f).rendered, 'soul', 'the racy SOUL.md was not kept: rendered again');
    assert.equal(run(f).rendered, 'none');
  });
});
