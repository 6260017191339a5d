// The file-system seam: a home built in memory renders as one on disk would, a recording over it
// tells when a rendering would read something else, and an editor's buffer laid over it is read in
// place of the file. The paths are nowhere on disk, so a read that went around the seam would miss.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MemoryFs } from '../../../server/hermes/fs/memoryFs';
import { OverlayFs } from '../../../server/hermes/fs/overlayFs';
import { readsStillHold, RecordingFs } from '../../../server/hermes/fs/recordingFs';
import { readText } from '../../../server/hermes/fs/readText';
import { DEFAULT_CONFIG } from '../../../server/hermes/profile/config';
import { discoverProjectContext } from '../../../server/hermes/sources/projectContext';
import { renderSources } from '../../../server/hermes/sources/renderSources';

const ROOT = path.resolve('/hermes-lens-memory-home-that-is-not-on-disk');
const PROFILE = path.join(ROOT, 'home');
const REPO = path.join(ROOT, 'repo');
const CWD = path.join(REPO, 'app');

function memoryHome(): MemoryFs {
  return new MemoryFs({
    [path.join(PROFILE, 'SOUL.md')]: 'You are Ada, a careful reviewer.\n',
    [path.join(PROFILE, 'skills', 'devops', 'deploy', 'SKILL.md')]: '---\nname: deploy\ndescription: Ship the build\n---\nBody.\n',
    [path.join(PROFILE, 'memories', 'MEMORY.md')]: 'The user prefers short answers.',
    [path.join(REPO, '.git', 'HEAD')]: 'ref: refs/heads/main\n',
    [path.join(CWD, 'AGENTS.md')]: 'Run the tests before a commit.\n',
  });
}

const render = (fs: MemoryFs | OverlayFs | RecordingFs) => renderSources({ dir: PROFILE }, DEFAULT_CONFIG, CWD, { fs, stopAt: ROOT, platform: 'linux' });

describe('fs: a Hermes home held in memory (the file-system seam)', () => {
  it('renders SOUL.md, the skills index, memory and the project context from memory', () => {
    const sources = render(memoryHome());
    assert.equal(sources.soul.exists, true);
    assert.match(sources.soul.block, /You are Ada, a careful reviewer\./);
    assert.deepEqual(sources.skills.entries.map((e) => [e.name, e.category]), [['deploy', 'devops']]);
    assert.match(sources.skills.block, /deploy: Ship the build/);
    assert.match(sources.memory.block, /The user prefers short answers\./);
    assert.equal(sources.projectContext.kind, 'agents-chain');
    assert.deepEqual(sources.projectContext.files.map((f) => f.path), [path.join(CWD, 'AGENTS.md')]);
    assert.deepEqual([...sources.soul.problems, ...sources.skills.problems, ...sources.projectContext.problems], []);
  });

  it('a recording over it holds until a file it read changes or one appears where none was', () => {
    const home = memoryHome();
    const recording = new RecordingFs(home);
    render(recording);
    const reads = recording.pack();
    assert.equal(readsStillHold(reads, home), true);
    home.write(path.join(CWD, 'CLAUDE.md'), 'Claude rules.');
    assert.equal(readsStillHold(reads, home), false, 'a context file where discovery looked');
    const again = new RecordingFs(home);
    render(again);
    const second = again.pack();
    assert.equal(readsStillHold(second, home), true);
    home.write(path.join(PROFILE, 'SOUL.md'), 'You are Eve.\n');
    assert.equal(readsStillHold(second, home), false, 'SOUL.md changed');
  });

  it("reads an editor's unsaved buffer in place of the file, and one never saved as present", () => {
    const home = memoryHome();
    const unsaved = path.join(CWD, 'AGENTS.override.md');
    const overlay = new OverlayFs(home, new Map([[path.join(CWD, 'AGENTS.md'), 'Edited, not saved.'], [unsaved, 'Override, never saved.']]));
    const context = discoverProjectContext(overlay, CWD, { maxChars: 20_000, stopAt: ROOT });
    assert.deepEqual(context.files.map((f) => f.path), [unsaved]);
    assert.deepEqual(context.shadowed.map((s) => s.path), [path.join(CWD, 'AGENTS.md')]);
    assert.match(context.block, /Override, never saved\./);
    assert.deepEqual(readText(overlay, path.join(CWD, 'AGENTS.md'), { dropBom: true }), { ok: true, text: 'Edited, not saved.' });
    assert.deepEqual(readText(home, path.join(CWD, 'AGENTS.md'), { dropBom: true }), { ok: true, text: 'Run the tests before a commit.\n' }, 'the fs below is untouched');
  });

  it('reports a folder where a file should be, and invalid UTF-8, as Hermes would skip them', () => {
    const home = memoryHome().write(path.join(PROFILE, 'memories', 'USER.md', 'inside'), 'x').write(path.join(PROFILE, 'SOUL.md'), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    const sources = render(home);
    assert.deepEqual(sources.soul.problems.map((p) => p.code), ['binary']);
    assert.deepEqual(sources.user.problems.map((p) => p.code), ['unreadable']);
  });
});
