// File names in a zip archive (a .vsix), read from its central directory, and one file's bytes.
// No dependencies.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

interface CentralEntry {
  readonly name: string;
  /** 0 stored, 8 deflated. */
  readonly method: number;
  readonly compressedSize: number;
  readonly localHeaderOffset: number;
}

function centralDirectory(zip: Buffer, file: string): CentralEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, `${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries: CentralEntry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(offset), 0x02014b50, 'central directory entry');
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    entries.push({
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
      method: zip.readUInt16LE(offset + 10),
      compressedSize: zip.readUInt32LE(offset + 20),
      localHeaderOffset: zip.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export function zipEntries(file: string): string[] {
  return centralDirectory(fs.readFileSync(file), file).map((e) => e.name);
}

/** The bytes of one file in the archive. */
export function zipEntry(file: string, name: string): Buffer {
  const zip = fs.readFileSync(file);
  const entry = centralDirectory(zip, file).find((e) => e.name === name);
  assert.ok(entry, `${name} is not in ${file}`);
  const local = entry.localHeaderOffset;
  assert.equal(zip.readUInt32LE(local), 0x04034b50, 'local file header');
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  assert.equal(entry.method, 8, `${name}: compression method ${entry.method}`);
  return zlib.inflateRawSync(data);
}

/** The files of a packaged extension, relative to its folder (`extension/` in the .vsix). */
export function vsixFiles(file: string): string[] {
  return zipEntries(file)
    .filter((name) => name.startsWith('extension/'))
    .map((name) => name.slice('extension/'.length));
}
