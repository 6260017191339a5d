// The helper process that counts paragraphs no cache knows, for the language server (see
// helperTokenCounter.ts): the o200k tokenizer and its vocabulary live here, not in the server, and go when
// the server closes this process's stdin after a quiet spell.
//
// Protocol, one JSON line each way: {"texts": string[]} → {"counts": [tokens, sliced (0|1)][]}, or
// {"error": string} (never text of the request: prompt text stays private).
import readline = require('node:readline');
import { requireWithCodeCache } from '../cli/codeCache';
import { countWithTokenizer, loadTokenizerWith } from '../hermes/cost/countWithTokenizer';
import { lensCacheFolder } from '../hermes/cacheFolder';

export interface HelperRequest {
  readonly texts: readonly string[];
}

export type HelperResponse = { readonly counts: ReadonlyArray<readonly [number, 0 | 1]> } | { readonly error: string };

function answer(line: string): HelperResponse {
  try {
    const request = JSON.parse(line) as HelperRequest;
    return { counts: request.texts.map((text) => countWithTokenizer(text)).map((c) => [c.tokens, c.sliced ? 1 : 0] as const) };
  } catch (error) {
    return { error: error instanceof Error ? error.name : 'error' };
  }
}

if (require.main === module) {
  // The helper starts again on the first count after each quiet spell; the tokenizer's compiled
  // code comes from the code cache. A file of its own: the helper runs in the editor's environment
  // and the CLI in a shell's, and with other NODE_OPTIONS one shared file would be replaced by each
  // in turn.
  const cacheDir = lensCacheFolder(process.env);
  loadTokenizerWith((file) => requireWithCodeCache(file, cacheDir, 'o200k-helper'));
  readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
    process.stdout.write(JSON.stringify(answer(line)) + '\n');
  });
  // stdin closed (the server is done with us, or gone): readline ends, nothing keeps the process.
}
