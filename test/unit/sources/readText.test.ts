// Source files are read with one fstat and as few reads as possible; every byte must still arrive,
// whatever the size fstat reports.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegularFile } from '../../../server/hermes/sources/readText';
import { cleanup, tempDir } from './fixtures';

describe('sources/readText: reading a regular file', () => {
  after(cleanup);

  it('returns every byte of files of any size', () => {
    const dir = tempDir();
    for (const size of [0, 1, 2, 8191, 8192, 8193, 65536, 200_001]) {
      const bytes = Buffer.alloc(size, 0);
      for (let i = 0; i < size; i++) bytes[i] = (i * 7 + size) % 251;
      const file = path.join(dir, `f${size}`);
      fs.writeFileSync(file, bytes);
      assert.ok(readRegularFile(file).equals(bytes), `${size} bytes`);
    }
  });

  it('reads a file whose size is reported as 0 to its end (a /proc file, served a page at a time)', function () {
    if (!fs.existsSync('/proc/self/maps')) this.skip();
    // The process's own memory map spans many pages; its last lines ([stack], [vdso], …) are stable.
    const read = readRegularFile('/proc/self/maps').toString('utf8').trimEnd().split('\n');
    const whole = fs.readFileSync('/proc/self/maps', 'utf8').trimEnd().split('\n');
    assert.equal(fs.statSync('/proc/self/maps').size, 0);
    assert.ok(read.join('\n').length > 4096, `only ${read.join('\n').length} bytes`);
    assert.deepEqual(read.slice(-2), whole.slice(-2));
  });
});
