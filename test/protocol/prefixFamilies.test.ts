// Prefix families through the language server over stdio, on homes Hermes wrote: the families and
// partings the editor's section shows (and the word that they may have changed after a Hermes
// write), the SOUL.md hover naming the profiles a line separates, and the diagnostic where a SOUL.md
// would split a family that shares today.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol/node';
import { PrefixFamiliesRequest, type PrefixFamiliesDto } from '../../shared/prefixFamilies';
import type { SessionListResult } from '../../shared/protocol';
import { copyCorpusHome, type CorpusHome } from '../support/hermesCorpus';
import { TestLspClient } from '../support/lspClient';
import { addRequests, pinTools } from '../support/sharedFamilies';

describe('language server: prefix families', function () {
  this.timeout(60_000);
  let corpus: CorpusHome;
  let client: TestLspClient;
  afterEach(() => {
    client.kill();
    corpus.remove();
  });

  async function start(folder: string, change?: (c: CorpusHome) => void): Promise<void> {
    corpus = copyCorpusHome(folder);
    change?.(corpus);
    client = new TestLspClient({ home: corpus.home });
    await client.initialize({ isTrusted: true });
    await client.waitFor<SessionListResult>('hermes/sessionListChanged');
  }

  it('answers the families and where they part, tells the client when a Hermes write may have changed them, and answers the new ones', async () => {
    await start('families-v0.20.3-schema26');
    await client.waitFor('hermes/prefixFamiliesChanged');
    const families = (await client.connection.sendRequest(PrefixFamiliesRequest, {})) as PrefixFamiliesDto;
    assert.equal(families.families.filter((f) => f.breakpoint === 'stable').length, 8);
    assert.equal(families.partings.length, 10);
    const mark = client.mark();
    const d = corpus.manifest.sessions.find((s) => s.scenario_key === 'd-empty')!;
    addRequests(corpus, d.id, [1_787_300_000]);
    await client.waitFor('hermes/prefixFamiliesChanged', () => true, { since: mark });
    const after = (await client.connection.sendRequest(PrefixFamiliesRequest, {})) as PrefixFamiliesDto;
    assert.deepEqual(after.activity.to, 1_787_300_000);
  });

  it('on the SOUL.md line where two profiles part, the hover names the profile it separates and that the tools part them already', async () => {
    await start('families-derived-0.20.3-profile-line-volatile', (c) => {
      const soul = path.join(c.profileDir('work'), 'SOUL.md');
      fs.writeFileSync(soul, fs.readFileSync(soul, 'utf8').replace('You write plainly', 'You write tersely'));
    });
    // Grouped once (as the section asks): the hover then knows the tools part them.
    await client.connection.sendRequest(PrefixFamiliesRequest, {});
    const soul = path.join(corpus.home, 'SOUL.md');
    const uri = await client.open(soul, fs.readFileSync(soul, 'utf8'));
    const at = ((await client.hover(uri, 4, 2)) as Hover).contents as MarkupContent;
    assert.match(at.value, /\*\*Prefix sharing:\*\* this line parts this profile's prompts from \*work\*'s/);
    assert.match(at.value, /Their tool schemas part that profile already: `skill_manage` names each profile's home/);
    const elsewhere = ((await client.hover(uri, 2, 2)) as Hover).contents as MarkupContent;
    assert.doesNotMatch(elsewhere.value, /Prefix sharing/);
  });

  it('a SOUL.md whose text would split a family that shares today gets an information diagnostic at the line where it parts', async () => {
    await start('families-derived-0.20.3-profile-line-volatile', pinTools);
    const soul = path.join(corpus.profileDir('work'), 'SOUL.md');
    const text = fs.readFileSync(soul, 'utf8');
    const uri = await client.open(soul, text);
    const none = await client.diagnostics(uri);
    assert.ok(!none.some((d) => d.code === 'prefix-split'), 'the same SOUL.md as default: nothing to say');
    await client.change(uri, text.replace('You write plainly', 'You write tersely'));
    const found = await client.diagnostics(uri, (ds: Diagnostic[]) => ds.some((d) => d.code === 'prefix-split'));
    const split = found.filter((d) => d.code === 'prefix-split');
    assert.equal(split.length, 1, 'one diagnostic for the line, the entries it splits summed up');
    const d = split[0]!;
    assert.equal(d.severity, 3, "information: a persona of its own is the user's choice");
    assert.equal(d.range.start.line, 4);
    assert.equal(
      d.message,
      "Profile work shares 3 cached prefixes with default today (stable tier: 7 sessions, 3 of them work's). With this SOUL.md, which differs from default's from this line, work's new and refreshed sessions write entries of their own.",
    );
    await client.change(uri, text);
    await client.diagnostics(uri, (ds: Diagnostic[]) => !ds.some((x) => x.code === 'prefix-split'));
  });
});
