// A language server's model of a corpus home (test/fixtures/hermes-builds): a fresh copy and a
// HermesModel on it for each test of the calling describe block, disposed after it.
import { HermesModel } from '../../server/workspace/hermesModel';
import { copyCorpusHome, type CorpusHome } from './hermesCorpus';

export interface CorpusModel {
  readonly corpus: CorpusHome;
  readonly model: HermesModel;
}

/** Registers the hooks; the returned object's fields are the current test's. */
export function corpusModelPerTest(folder: string, now: number): CorpusModel {
  const current = {} as { corpus: CorpusHome; model: HermesModel };
  beforeEach(() => {
    current.corpus = copyCorpusHome(folder);
    current.model = new HermesModel(() => now);
    current.model.configure({ home: current.corpus.home, profiles: [] });
  });
  afterEach(() => {
    current.model.dispose();
    current.corpus.remove();
  });
  return current;
}
