// The packaged VSIX holds what ships and nothing else: the bundles, the native binary, the grammar,
// the README and the manifest (.vscodeignore is a whitelist). Read from the zip's central directory.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { projectVsix } from './support/codeServer';

/** File names in a zip archive, from its central directory. */
function zipEntries(file: string): string[] {
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

describe('the packaged VSIX', () => {
  it('holds the bundles, the native binary, the grammar, the README and nothing else', () => {
    const files = zipEntries(projectVsix()).filter((name) => name.startsWith('extension/')).map((name) => name.slice('extension/'.length));
    for (const needed of ['package.json', 'readme.md', 'dist/extension.js', 'dist/server.js', 'dist/cli.js', 'dist/cliMain.js', 'dist/o200kEncoder.js', 'dist/genaiPrices.js', 'dist/yamlBundle.js', 'dist/tokenCountRelay.js', 'dist/tokenCountHelper.js', 'dist/native/better_sqlite3.node', 'syntaxes/hermes-prompt.tmLanguage.json']) {
      assert.ok(files.some((f) => f.toLowerCase() === needed.toLowerCase()), `missing ${needed} in ${files.join(', ')}`);
    }
    const allowed = /^(package\.json|readme\.md|license(\.txt)?|changelog\.md|dist\/(extension|server|cli|cliMain|o200kEncoder|genaiPrices|yamlBundle|tokenCountRelay|tokenCountHelper)\.js|dist\/native\/better_sqlite3\.node|syntaxes\/[^/]+\.json|media\/[^/]+\.(svg|png))$/i;
    assert.deepEqual(files.filter((f) => !allowed.test(f)), [], 'files that should not ship');
  });
});
