import * as assert from 'node:assert/strict';
import { DEFAULT_CONFIG } from '../../../server/hermes/profile/config';
import { contextFileCap, truncateContextText } from '../../../server/hermes/sources/truncate';

describe('sources: truncation', () => {
  it('leaves text at or under the cap unchanged', () => {
    const t = truncateContextText('x'.repeat(100), 100, 'AGENTS.md', '/p/AGENTS.md');
    assert.equal(t.truncated, false);
    assert.equal(t.text, 'x'.repeat(100));
  });

  it('keeps 70% and 20% of the cap, counted in code points, with a marker naming the absolute path', () => {
    const text = '😀'.repeat(150);
    const t = truncateContextText(text, 100, 'AGENTS.md', '/repo/AGENTS.md');
    assert.equal(t.truncated, true);
    assert.equal(t.head, 70);
    assert.equal(t.tail, 20);
    const marker =
      '\n\n[...truncated AGENTS.md: kept 70+20 of 150 chars. The middle is omitted — if you need the full instructions, ' +
      'read the complete file with the read_file tool: /repo/AGENTS.md]\n\n';
    assert.equal(t.text, '😀'.repeat(70) + marker + '😀'.repeat(20));
    assert.deepEqual(t.dropped, { start: 140, end: 260 });
  });

  it('computes the cap like Hermes', () => {
    assert.equal(contextFileCap(DEFAULT_CONFIG), 20_000);
    assert.equal(contextFileCap({ contextFileMaxChars: 12_345.9 }), 12_345);
    assert.equal(contextFileCap(DEFAULT_CONFIG, 200_000), 48_000);
    assert.equal(contextFileCap(DEFAULT_CONFIG, 8_000), 20_000);
    assert.equal(contextFileCap(DEFAULT_CONFIG, 10_000_000), 500_000);
  });
});
