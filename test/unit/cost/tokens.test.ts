// Token counts: exact for OpenAI o200k models, "≈" for others, never a throw, fast on real prompt sizes.
import * as assert from 'node:assert/strict';
import { countTokens, estimateTokensFromChars } from '../../../server/hermes/cost/tokens';

function prompt(chars: number): string {
  const paragraph =
    '## Skills\nUse the `terminal` tool to run commands. Prefer small, reviewable patches; read AGENTS.md first.\n' +
    '    - git-helper: Branching, rebasing and conflict resolution for Git repos...\n' +
    '══════════════════════════════════════════════\nMEMORY (your personal notes) [42% — 924/2,200 chars]\n';
  return paragraph.repeat(Math.ceil(chars / paragraph.length)).slice(0, chars);
}

describe('cost/tokens', () => {
  before(() => {
    countTokens('warm up the tokenizer tables'); // first use builds the BPE tables (~0.3 s): not what we time
  });

  it('counts exactly for OpenAI o200k models', () => {
    assert.deepEqual(countTokens('hello world', 'gpt-5.1'), { tokens: 2, exact: true, counted: true });
    assert.equal(countTokens('hello world', 'openai/gpt-4o').exact, true);
    assert.equal(countTokens('hello world', 'o3').exact, true);
  });

  it('marks counts for other tokenizers as approximate', () => {
    for (const model of ['claude-opus-4-5', 'anthropic/claude-sonnet-4.5', 'gemini-2.5-pro', 'deepseek-chat', 'hermes-4-405b', 'gpt-4', undefined]) {
      const count = countTokens('hello world', model);
      assert.equal(count.exact, false, String(model));
      assert.equal(count.counted, true, 'counted with o200k all the same');
      assert.equal(count.tokens, 2);
    }
  });

  it('treats special-token text in a prompt as plain text instead of throwing', () => {
    const count = countTokens('before <|endoftext|> after', 'gpt-5.1');
    assert.ok(count.tokens > 3);
    assert.equal(countTokens(undefined as unknown as string).tokens, 0);
  });

  it('counts a 30 KB prompt quickly', () => {
    const text = prompt(30_000);
    const started = process.hrtime.bigint();
    const count = countTokens(text, 'claude-sonnet-4-5');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms < 500, `took ${ms.toFixed(0)} ms`);
    assert.ok(count.tokens > 30_000 / 8 && count.tokens < 30_000 / 2, String(count.tokens));
  });

  it('stays fast on a long run without spaces (unsliced BPE would take tens of seconds) and says ≈', () => {
    const text = `data:${'QUJD'.repeat(10)}${'a'.repeat(200_000)} tail`;
    const started = process.hrtime.bigint();
    const count = countTokens(text, 'gpt-5.1');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms`);
    assert.equal(count.exact, false);
    assert.ok(count.tokens > 200_000 / 50 && count.tokens < 200_000, String(count.tokens));
  });

  it('estimates untokenized transcript text at four characters a token', () => {
    assert.equal(estimateTokensFromChars(4001), 1001);
    assert.equal(estimateTokensFromChars(0), 0);
    assert.equal(estimateTokensFromChars(-5), 0);
    assert.equal(estimateTokensFromChars(Number.NaN), 0);
  });
});
