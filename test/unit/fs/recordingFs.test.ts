// A recording of what rendering the sources read must keep holding while nothing it read changed,
// and stop holding after any change that could make a rendering differ: a file's bytes (even with
// its size and mtime put back), a file added to a listed folder, a file where none was, a link
// pointed elsewhere.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RecordingFs, readsStillHold, type PackedReads } from '../../../server/hermes/fs/recordingFs';
import { renderSources } from '../../../server/hermes/sources/renderSources';
import { profileFixture } from '../anatomy/profileFixture';
import { DEFAULT_CONFIG } from '../../../server/hermes/profile/config';
import { cleanup, tempDir, write } from '../sources/fixtures';

describe('fs/RecordingFs: what rendering read, checked again by stat', () => {
  after(cleanup);

  function recorded(): { f: ReturnType<typeof profileFixture>; reads: PackedReads } {
    const f = profileFixture();
    const recording = new RecordingFs();
    renderSources({ dir: f.profileDir }, DEFAULT_CONFIG, f.cwd, { fs: recording, stopAt: f.top, platform: 'linux' });
    return { f, reads: recording.pack() };
  }

  it('holds while nothing changed, and rendering again reads the same', () => {
    const { f, reads } = recorded();
    assert.ok(reads.paths.split('\n').length > 10, 'the skills, memory, SOUL.md and project files were read');
    assert.equal(readsStillHold(reads), true);
    const again = new RecordingFs();
    renderSources({ dir: f.profileDir }, DEFAULT_CONFIG, f.cwd, { fs: again, stopAt: f.top, platform: 'linux' });
    assert.deepEqual(again.pack(), reads);
  });

  it('stops holding when a read file changes, even with its size and times put back', () => {
    const { f, reads } = recorded();
    const soul = path.join(f.profileDir, 'SOUL.md');
    const before = fs.statSync(soul);
    const text = fs.readFileSync(soul, 'utf8');
    fs.writeFileSync(soul, text.replace('Ada', 'Eve'));
    fs.utimesSync(soul, before.atime, before.mtime);
    assert.equal(fs.statSync(soul).size, before.size);
    assert.equal(readsStillHold(reads), false);
  });

  it('stops holding when a skill is added to a listed folder', () => {
    const { f, reads } = recorded();
    write(path.join(f.profileDir, 'skills'), 'devops/rollback/SKILL.md', '---\nname: rollback\ndescription: Roll back\n---\n');
    assert.equal(readsStillHold(reads), false);
  });

  it('stops holding when a context file appears where Hermes looked and found none', () => {
    const { f, reads } = recorded();
    write(f.cwd, 'CLAUDE.md', 'Claude rules.');
    assert.equal(readsStillHold(reads), false);
  });

  it('stops holding when a skills link points elsewhere', () => {
    const f = profileFixture();
    const elsewhere = path.join(f.top, 'shared-skills');
    write(elsewhere, 'one/SKILL.md', '---\nname: one\ndescription: One\n---\n');
    write(path.join(f.top, 'other-skills'), 'two/SKILL.md', '---\nname: two\ndescription: Two\n---\n');
    const link = path.join(f.profileDir, 'skills', 'linked');
    fs.symlinkSync(elsewhere, link);
    const recording = new RecordingFs();
    renderSources({ dir: f.profileDir }, DEFAULT_CONFIG, f.cwd, { fs: recording, stopAt: f.top, platform: 'linux' });
    const reads = recording.pack();
    assert.equal(readsStillHold(reads), true);
    fs.unlinkSync(link);
    fs.symlinkSync(path.join(f.top, 'other-skills'), link);
    assert.equal(readsStillHold(reads), false);
  });

  it('checks a path read in two ways as each way saw it (tested, then read; read, then tested; never there)', () => {
    const dir = tempDir();
    const tested = write(dir, 'AGENTS.md', 'Agents.');
    const read = write(dir, 'SOUL.md', 'Soul.');
    const absent = path.join(dir, 'CLAUDE.md');
    const recording = new RecordingFs();
    recording.stat(tested);
    recording.read(tested);
    recording.read(read);
    recording.stat(read);
    recording.stat(absent);
    recording.stat(absent);
    const reads = recording.pack();
    assert.equal(readsStillHold(reads), true);
    // Its times are what the second read noted: a change of them alone is a change.
    const later = new Date(fs.statSync(tested).mtimeMs + 5000);
    fs.utimesSync(tested, later, later);
    assert.equal(readsStillHold(reads), false);
    fs.utimesSync(tested, fs.statSync(read).atime, fs.statSync(read).mtime);
    const fresh = new RecordingFs();
    fresh.stat(tested);
    fresh.read(tested);
    fresh.stat(absent);
    fresh.stat(absent);
    const freshReads = fresh.pack();
    assert.equal(readsStillHold(freshReads), true);
    write(dir, 'CLAUDE.md', 'Now there.');
    assert.equal(readsStillHold(freshReads), false);
  });

  it('does not hold for a record it cannot read', () => {
    const { reads } = recorded();
    assert.equal(readsStillHold({ paths: reads.paths, seen: 'another hash' }), false);
    assert.equal(readsStillHold({ paths: `x${reads.paths}`, seen: reads.seen }), false);
  });
});
