// Values the lens keeps after a prompt's analysis (a report's model, provider, platform) must not
// keep the prompt itself in memory: thousands of 20–40 kB prompts are read in one status.
import * as assert from 'node:assert';
import v8 = require('node:v8');
import vm = require('node:vm');
import { parsePrompt } from '../../../server/hermes/anatomy/parsePrompt';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const SOUL = 'You are Hermes, a helpful agent.';

function storedPrompt(i: number): string {
  return [
    SOUL,
    `Paragraph ${i} of what the prompt says. `.repeat(2500),
    `Conversation started: Friday, December 04, 2026 10:${String(i % 60).padStart(2, '0')} AM`,
    `Model: anthropic/claude-sonnet-4.6-variant-${i}\nProvider: openrouter-provider-${i}\nPlatform: command-line-interface-${i}`,
  ].join('\n\n');
}

describe('values taken from a stored prompt', () => {
  it('keep none of the prompt they were read from alive', () => {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const kept: Array<string | undefined> = [];
    let promptBytes = 0;
    for (let i = 0; i < 60; i++) {
      // Its tokens known and SOUL.md opening it: no cache of counted paragraphs or of blocks located
      // without SOUL.md (each bounded) keeps anything of it.
      const anatomy = parsePrompt(storedPrompt(i), { identityHint: SOUL, tokens: { tokens: 1, counted: true } });
      promptBytes += anatomy.text.length;
      kept.push(anatomy.model, anatomy.provider, anatomy.platform, anatomy.conversationStarted);
    }
    collectGarbage();
    const grown = process.memoryUsage().heapUsed - before;
    assert.strictEqual(kept[0], 'anthropic/claude-sonnet-4.6-variant-0');
    assert.ok(grown < promptBytes / 10, `the heap grew by ${grown} bytes after ${promptBytes} bytes of prompts were read and let go`);
  });
});
