// The prefix families of a corpus home copy, every profile of it, as `hermes-lens prefixes` works them out.
import { analyzeProfile } from '../../server/hermes/engine/analyzeProfile';
import { prefixFamiliesReport } from '../../server/hermes/families/prefixFamilies';
import { storeReading } from '../../server/hermes/families/readings';
import type { FamiliesReport } from '../../server/hermes/families/types';
import { readHome, selectProfile } from '../../server/hermes/profile/home';
import type { CorpusHome } from './hermesCorpus';

/** A fixed clock after every corpus session (their caches long cold). */
export const CORPUS_NOW = 1_795_000_000;

export function familiesOfCorpus(corpus: CorpusHome, now = CORPUS_NOW): FamiliesReport {
  const home = readHome({ root: corpus.home, origin: 'argument' });
  const readings = Object.keys(corpus.manifest.profiles).map((p) => storeReading(home.root, analyzeProfile(selectProfile(home, p), { now })));
  try {
    return prefixFamiliesReport(readings);
  } finally {
    for (const r of readings) r.close();
  }
}
