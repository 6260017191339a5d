// The prose of each Hermes build the corpus covers, as the lens fingerprints it (hermesProse.ts):
// the union of the fingerprint entries of every prompt the build wrote in the corpus (hashes of its
// own paragraphs, the skills index's tier and the profile line's place; no text). The lens tells
// which build wrote a session from them (anatomy/buildOfPrompt.ts) to pick that build's tool-schema
// sizes. Run after `npm run compile`, whenever the corpus gains a build or is regenerated:
//
//   node scripts/hermes-corpus/prose-signatures.mjs
//
// test/unit/conformance/toolTables.test.ts checks that every corpus session is told to its own build.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const out = join(import.meta.dirname, '../../out');
const { analyzeProfile } = require(join(out, 'server/hermes/engine/analyzeProfile.js'));
const { readHome, selectProfile } = require(join(out, 'server/hermes/profile/home.js'));
const { proseFingerprint } = require(join(out, 'server/hermes/anatomy/hermesProse.js'));
const { copyCorpusHome, corpusFolders } = require(join(out, 'test/support/hermesCorpus.js'));

const byBuild = new Map();
for (const folder of corpusFolders('all')) {
  const corpus = copyCorpusHome(folder);
  try {
    const written = new Map(corpus.manifest.sessions.map((s) => [s.id, s.written_by]));
    const home = readHome({ root: corpus.home, origin: 'argument' });
    for (const profile of Object.keys(corpus.manifest.profiles)) {
      const analysis = analyzeProfile(selectProfile(home, profile), { includeEnded: true, now: 1_795_000_000 });
      for (const s of analysis.report.sessions) {
        const anatomy = analysis.anatomyOf(s.id);
        const build = written.get(s.id);
        if (!anatomy || !build) continue;
        const entries = byBuild.get(build) ?? new Set();
        for (const entry of proseFingerprint(anatomy).split(',').filter(Boolean)) entries.add(entry);
        byBuild.set(build, entries);
      }
    }
  } finally {
    corpus.remove();
  }
}

const data = {
  $comment: [
    "Each corpus build's prose as the lens fingerprints it (anatomy/hermesProse.ts): every entry of the prompts it wrote in",
    'test/fixtures/hermes-builds (hashes of its own paragraphs, the skills index tier, the profile line place; never text).',
    'Written by scripts/hermes-corpus/prose-signatures.mjs; anatomy/buildOfPrompt.ts tells a prompt\'s build by them.',
  ],
  builds: Object.fromEntries([...byBuild].sort(([a], [b]) => a.localeCompare(b)).map(([build, entries]) => [build, [...entries].sort()])),
};
const file = join(import.meta.dirname, '../../server/hermes/anatomy/build-prose.json');
writeFileSync(file, `${JSON.stringify(data, null, 1)}\n`);
console.log(`${byBuild.size} builds: ${[...byBuild].map(([b, e]) => `${b} (${e.size})`).join(', ')}`);
