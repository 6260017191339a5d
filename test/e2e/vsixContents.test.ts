// The packaged VSIX (`npm run package`) holds what ships and nothing else: the bundles (the prompt
// anatomy view's script and style among them), the SQLite binding for each platform it serves with
// its licence, the grammar, the icons, the walkthrough's pages and images, the README, the CHANGELOG
// and the manifest (.vscodeignore is a whitelist). Read from the zip.
import * as assert from 'node:assert/strict';
import { vsixFiles } from '../support/zip';
import { assertBinaryPerTarget, VSIX_TARGETS } from '../support/vsixTargets';
import { projectVsix } from './support/codeServer';

describe('the packaged VSIX', () => {
  it('holds the bundles, the SQLite bindings, the grammar, the icons, the walkthrough, the README, the CHANGELOG and nothing else', () => {
    const files = vsixFiles(projectVsix());
    for (const needed of ['package.json', 'readme.md', 'dist/extension.js', 'dist/server.js', 'dist/cli.js', 'dist/cliMain.js', 'dist/o200kEncoder.js', 'dist/o200kRanks.bin', 'dist/tool-schemas.json', 'dist/genaiPrices.js', 'dist/yamlBundle.js', 'dist/tokenCountRelay.js', 'dist/tokenCountHelper.js', 'dist/webview/anatomy.js', 'dist/webview/anatomy.css', 'dist/native/photostructure-sqlite/LICENSE', 'syntaxes/hermes-prompt.tmLanguage.json', 'media/hermes.svg', 'media/icon.png', 'changelog.md', 'media/walkthrough/open-home.md']) {
      assert.ok(files.some((f) => f.toLowerCase() === needed.toLowerCase()), `missing ${needed} in ${files.join(', ')}`);
    }
    const allowed = /^(package\.json|readme\.md|license(\.txt)?|changelog\.md|dist\/(extension|server|cli|cliMain|o200kEncoder|genaiPrices|yamlBundle|tokenCountRelay|tokenCountHelper)\.js|dist\/o200kRanks\.bin|dist\/tool-schemas\.json|dist\/webview\/anatomy\.(js|css)|dist\/native\/photostructure-sqlite\/(LICENSE|prebuilds\/(linux|darwin|win32)-(x64|arm64)\/@photostructure\+sqlite\.(glibc|musl)\.node)|syntaxes\/[^/]+\.json|media\/(hermes\.svg|icon\.png|walkthrough\/[^/]+\.(md|png)))$/i;
    assert.deepEqual(files.filter((f) => !allowed.test(f)), [], 'files that should not ship');
  });

  it(`holds, for each of its ${VSIX_TARGETS.length} targets, the SQLite binary the store loads there: a shared object of that OS, processor and C library`, () => {
    assertBinaryPerTarget(projectVsix());
  });
});
