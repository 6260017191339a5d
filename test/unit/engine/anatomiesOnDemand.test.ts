// The language server keeps only a few parsed prompts: a view asking for any other session's prompt
// gets it read again through the connection the server keeps, the same text and blocks as a run that
// kept every prompt, on homes written by Hermes in either layout (inline prompts before v25).
import * as assert from 'node:assert/strict';
import { analyzeProfile } from '../../../server/hermes/engine/analyzeProfile';
import { AnalysisCache } from '../../../server/hermes/engine/analysisCache';
import { KeptConnection } from '../../../server/hermes/engine/keptConnection';
import { keptVerdicts } from '../../../server/hermes/engine/keptVerdicts';
import { readHome, selectProfile } from '../../../server/hermes/profile/home';
import { copyCorpusHome, corpusFolders, type CorpusHome } from '../../support/hermesCorpus';

const NOW = 1_795_000_000;

describe('engine: a prompt parsed again when a view asks, once the cache let it go', () => {
  for (const folder of corpusFolders()) {
    describe(`a home written by Hermes ${folder}`, () => {
      let corpus: CorpusHome;
      beforeEach(() => (corpus = copyCorpusHome(folder)));
      afterEach(() => corpus.remove());

      it('gives every live session the anatomy a run keeping them all gives', () => {
        const profile = selectProfile(readHome({ root: corpus.home, origin: 'argument' }), 'default');
        const everything = analyzeProfile(profile, { now: NOW });
        const connection = new KeptConnection();
        const cache = new AnalysisCache(1);
        try {
          const few = analyzeProfile(profile, { now: NOW, cache, sessions: connection.reading(), verdicts: keptVerdicts() });
          assert.deepEqual(few.report, everything.report);
          const live = everything.report.sessions.filter((s) => s.state === 'fresh' || s.state === 'stale');
          assert.ok(new Set(live.map((s) => everything.anatomyOf(s.id)!.text)).size > 1, 'the home holds more prompts than the cache keeps');
          // Twice round: each asks for a prompt the cache let go when the one before was parsed.
          for (const round of [1, 2]) {
            for (const session of live) {
              const want = everything.anatomyOf(session.id)!;
              const got = few.anatomyOf(session.id);
              assert.ok(got, `session ${session.id}, round ${round}`);
              assert.equal(got.text, want.text);
              assert.deepEqual(
                got.blocks.map((b) => [b.kind, b.start, b.end, b.tokens]),
                want.blocks.map((b) => [b.kind, b.start, b.end, b.tokens]),
              );
            }
          }
        } finally {
          connection.close();
        }
      });
    });
  }
});
