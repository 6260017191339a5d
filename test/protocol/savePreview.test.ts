// The bundled language server over stdio on a document with unsaved changes: the lens and the hover
// say what saving would do, and once the same text is saved the lens counts and prices just that.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CodeLens, Hover, MarkupContent } from 'vscode-languageserver-protocol/node';
import { SavePreviewRequest, SessionListChangedNotification, type SessionListResult } from '../../shared/protocol';
import { demoServerPerTest } from './support/demoServer';

describe('language server over stdio: what saving an unsaved buffer would do', function () {
  this.timeout(60_000);
  const fixture = demoServerPerTest('hl-save-preview-');

  it('titles the lens of a dirty SOUL.md as a preview; saved, the lens counts and prices the same', async () => {
    const { demo, client } = fixture;
    const work = demo.profiles.find((p) => p.name === 'work')!;
    const soul = path.join(work.dir, 'SOUL.md');
    await client.initialize({ isTrusted: true });
    await client.waitFor(SessionListChangedNotification.method);
    const saved = fs.readFileSync(soul, 'utf8');
    const uri = await client.open(soul, saved);
    const clean = ((await client.codeLens(uri)) as CodeLens[]).map((l) => l.command!.title);
    assert.ok(!clean[0]!.startsWith('Preview'), `a file as saved has the lens of its saved state: ${clean.join(' | ')}`);

    const edited = `${saved}\nAlways answer in French.\n`;
    await client.change(uri, edited);
    const lenses = (await client.codeLens(uri)) as CodeLens[];
    assert.equal(lenses.length, 1, 'no Refresh while unsaved');
    const match = /^Preview \(unsaved\): saving makes (\d+) sessions? stale · (≈ \$[\d.]+)$/.exec(lenses[0]!.command!.title);
    assert.ok(match, lenses[0]!.command!.title);
    const hover = (await client.hover(uri, 0, 1)) as Hover;
    assert.match((hover.contents as MarkupContent).value, new RegExp(`\\*\\*Preview \\(unsaved\\):\\*\\* Saving makes ${match[1]} sessions? stale \\(≈ \\$`));
    const preview = await client.connection.sendRequest(SavePreviewRequest, { uri });
    assert.equal(preview?.stale, Number(match[1]));

    const since = client.mark();
    fs.writeFileSync(soul, edited);
    await client.save(uri);
    await client.waitFor<SessionListResult>(SessionListChangedNotification.method, (l) => l.profiles.some((p) => p.name === 'work' && p.stale > 0), { since });
    const after = (await client.codeLens(uri)) as CodeLens[];
    assert.equal(after[0]!.command!.title, `${match[1]} session${match[1] === '1' ? '' : 's'} stale · ${match[2]} now`);
    assert.equal(after[1]!.command!.title, 'Refresh');
    assert.equal(await client.connection.sendRequest(SavePreviewRequest, { uri }), null, 'saved: nothing to preview');
  });

  it('says an edit that changes no prompt changes none: blank lines Hermes strips, a skill body', async () => {
    const { demo, client } = fixture;
    const soul = path.join(demo.root, 'SOUL.md');
    await client.initialize({ isTrusted: true });
    await client.waitFor(SessionListChangedNotification.method);
    const saved = fs.readFileSync(soul, 'utf8');
    const uri = await client.open(soul, saved);
    await client.change(uri, `\n\n${saved}\n\n`);
    assert.deepEqual(((await client.codeLens(uri)) as CodeLens[]).map((l) => l.command!.title), ["Preview (unsaved): saving changes no session's prompt"]);

    const work = demo.profiles.find((p) => p.name === 'work')!;
    const skill = path.join(work.dir, 'skills', 'ops', 'ticket-triage', 'SKILL.md');
    const skillText = fs.readFileSync(skill, 'utf8');
    const skillUri = await client.open(skill, skillText);
    await client.change(skillUri, `${skillText}\nEscalate anything that blocks a release.\n`);
    const hover = (await client.hover(skillUri, 0, 0)) as Hover;
    assert.match((hover.contents as MarkupContent).value, /\*\*Preview \(unsaved\):\*\* Saving changes no session's prompt\./);
  });
});
