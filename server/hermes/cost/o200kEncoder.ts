// The o200k_base tokenizer on its own: scripts/build.mjs bundles this file apart (dist/o200kEncoder.js,
// 3 MB of BPE tables) and tokens.ts requires it only when a count misses both caches, so a process
// that finds every count cached (most `hermes-lens status` runs, a restarted server) never parses them.
export { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
