// File names in a zip archive (a .vsix), read from its central directory. No dependencies.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';

export function zipEntries(file: string): string[] {
  const zip = fs.readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, `${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(offset), 0x02014b50, 'central directory entry');
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** The files of a packaged extension, relative to its folder (`extension/` in the .vsix). */
export function vsixFiles(file: string): string[] {
  return zipEntries(file)
    .filter((name) => name.startsWith('extension/'))
    .map((name) => name.slice('extension/'.length));
}
