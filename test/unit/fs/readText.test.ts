// Source files are read with one fstat and as few reads as possible; every byte must still arrive,
// whatever the size fstat reports.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readText, readTextIfPresent } from '../../../server/hermes/fs/readText';
import { cleanup, tempDir } from '../sources/fixtures';
import { diskFs } from '../../../server/hermes/fs/diskFs';

describe('fs/diskFs and readText: reading a regular file', () => {
  after(cleanup);

  it('returns every byte of files of any size', () => {
    const dir = tempDir();
    for (const size of [0, 1, 2, 8191, 8192, 8193, 65536, 200_001]) {
      const bytes = Buffer.alloc(size, 0);
      for (let i = 0; i < size; i++) bytes[i] = (i * 7 + size) % 251;
      const file = path.join(dir, `f${size}`);
      fs.writeFileSync(file, bytes);
      assert.ok(diskFs.read(file).bytes!.equals(bytes), `${size} bytes`);
    }
  });

  it('reads a file whose size is reported as 0 to its end (a /proc file, served a page at a time)', () => {
    // The tests run on Linux (CI included), where /proc always exists.
    // The process's own memory map spans many pages; its last lines ([stack], [vdso], …) are stable.
    const read = diskFs.read('/proc/self/maps').bytes!.toString('utf8').trimEnd().split('\n');
    const whole = fs.readFileSync('/proc/self/maps', 'utf8').trimEnd().split('\n');
    assert.equal(fs.statSync('/proc/self/maps').size, 0);
    assert.ok(read.join('\n').length > 4096, `only ${read.join('\n').length} bytes`);
    assert.deepEqual(read.slice(-2), whole.slice(-2));
  });

  it('reads a maybe-absent file exactly as readText does, whatever is at the path', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'file.md'), '\uFEFFtext');
    fs.mkdirSync(path.join(dir, 'folder.md'));
    fs.symlinkSync(path.join(dir, 'gone'), path.join(dir, 'dangling.md'));
    fs.writeFileSync(path.join(dir, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const fifo = spawnSync('mkfifo', [path.join(dir, 'pipe.md')]).status === 0;
    const names = ['file.md', 'missing.md', 'file.md/below.md', 'folder.md', 'dangling.md', 'latin1.md', ...(fifo ? ['pipe.md'] : [])];
    for (const name of names) {
      for (const dropBom of [true, false]) {
        assert.deepEqual(readTextIfPresent(diskFs, path.join(dir, name), { dropBom }), readText(diskFs, path.join(dir, name), { dropBom }), name);
      }
    }
    assert.deepEqual(readTextIfPresent(diskFs, path.join(dir, 'missing.md'), { dropBom: true }), { ok: false, missing: true });
  });
});
