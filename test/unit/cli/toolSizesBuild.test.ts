// Whose tool sizes `hermes-lens prompt-size` prices a session's tool block with, said as a user
// must read it: a Hermes release by its version, a fork's or a derived build never as a release.
import * as assert from 'node:assert/strict';
import { copyCorpusHome } from '../../support/hermesCorpus';
import { cli } from './support';

describe('cli: prompt-size names the build whose tool sizes it uses', function () {
  this.timeout(60000);
  const cases = [
    { folder: 'v0.20.3-schema26', kind: 'release', title: /sized as Hermes' own code measured them for Hermes 0\.20\.3 \(/ },
    { folder: 'fork-0.20.4-schema26', kind: 'fork', title: /for a fork's build of 0\.20\.4 \(fork-0\.20\.4-schema26, not a Hermes release\)/ },
    { folder: 'derived-0.20.3-profile-line-volatile', kind: 'derived', title: /for a derived build \(derived-0\.20\.3-profile-line-volatile: Hermes 0\.20\.3 with a later change applied by the lens's authors, not a Hermes release\)/ },
  ];
  for (const c of cases) {
    it(`${c.folder}: ${c.kind}`, () => {
      const corpus = copyCorpusHome(c.folder);
      try {
        const id = corpus.liveSessions()[0]!.id;
        const json = cli(['prompt-size', '--home', corpus.home, '--session', id, '--json']);
        assert.equal(json.code, 0, json.stderr);
        const out = JSON.parse(json.stdout);
        assert.deepEqual([out.tool_sizes.build, out.tool_sizes.kind, out.tool_sizes.by], [c.folder, c.kind, 'prompt']);
        const text = cli(['prompt-size', '--home', corpus.home, '--session', id]);
        assert.equal(text.code, 0, text.stderr);
        assert.match(text.stdout, c.title);
        if (c.kind !== 'release') assert.doesNotMatch(text.stdout, /for Hermes (derived|fork)/);
      } finally {
        corpus.remove();
      }
    });
  }
});
