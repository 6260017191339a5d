// Knowing the refresh protocol by what the user's installation shows: fake installations whose CLI
// offers `hermes sessions refresh-prompts` as argparse, click or typer spell it (or only names it in
// a help text, or not at all), whose code names the keys in the CLI file, in a module it imports,
// through constants, or nowhere; one with the CLI text only in a wheel's site-packages; and bad
// sources (huge, binary, unreadable, several candidate keys), where the lens keeps its own names
// and says why. Nothing is run or imported: the lens only reads files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeHermesInstall, writePipInstall, WITH_REFRESH, WITHOUT_REFRESH } from '../../../server/demo/hermesInstall';
import { writeCliSources, type FakeProtocol } from '../../../server/demo/hermesCliSources';
import { detectHermesBuild } from '../../../server/hermes/install/detectBuild';
import type { HermesBuild } from '../../../server/hermes/install/hermesBuild';
import { cliTextIn, readRefreshProtocol } from '../../../server/hermes/install/protocolReading';
import { KeptProtocolReadings } from '../../../server/hermes/install/keptProtocolReadings';
import { diskFs } from '../../../server/hermes/fs/diskFs';
import type { SourceFs } from '../../../server/hermes/fs/sourceFs';
import { MAX_SOURCE_BYTES } from '../../../server/hermes/install/pythonFiles';
import { scanPython } from '../../../server/hermes/text/pySource';
import { DEFAULT_REFRESH_KEYS } from '../../../server/hermes/refresh/epochs';
import { protocolJson, refreshProtocolOf } from '../../../server/hermes/refresh/refreshProtocol';

describe('install: the refresh protocol, read from the installation’s sources', () => {
  let dir: string;
  let homeRoot: string;
  let env: NodeJS.ProcessEnv;
  const detect = () => detectHermesBuild({ homeRoot, env });
  const checkout = (protocol?: FakeProtocol, version = '0.23.0') => writeHermesInstall(path.join(homeRoot, 'hermes-agent'), { version, refreshPrompts: protocol !== undefined, protocol });
  const found = (build: HermesBuild) => {
    assert.equal(build.kind, 'found', JSON.stringify(build));
    return build as Extract<HermesBuild, { kind: 'found' }>;
  };
  const protocolOf = () => protocolJson(refreshProtocolOf(detect()));

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-protocol-')));
    homeRoot = path.join(dir, 'home', '.hermes');
    fs.mkdirSync(homeRoot, { recursive: true });
    env = { PATH: path.join(dir, 'bin'), HOME: path.join(dir, 'home') };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('argparse (as Hermes registers its subcommands), keys in the module its handler imports: found by the CLI text, keys from the install', () => {
    const install = checkout({ cli: 'argparse', keysIn: 'module', requestKey: 'system_prompt_refresh_epoch', stampKey: 'system_prompt_epoch' });
    const build = found(detect());
    assert.equal(build.refreshPrompts, true);
    assert.equal(build.protocol.clue, 'cli-text');
    const p = protocolOf();
    assert.deepEqual(
      [p.found, p.where, p.requestKey, p.sessionKeyPrefix, p.stampKey, p.keysFrom],
      ['cli-text', path.join(install, 'hermes_cli', 'main.py'), 'system_prompt_refresh_epoch', 'system_prompt_refresh_epoch:', 'system_prompt_epoch', 'install'],
    );
    assert.ok(p.summary.includes(`read from ${path.join(install, 'hermes_cli', 'refresh_prompts.py')}`), p.summary);
  });

  it('no module named agent/prompt_refresh.py is needed, and that name alone no longer decides: a CLI without the subcommand has no protocol', () => {
    const install = checkout({ cli: 'click', keysIn: 'cli', requestKey: 'refresh_rev', stampKey: 'refresh_rev_seen' });
    assert.equal(fs.existsSync(path.join(install, 'agent', 'prompt_refresh.py')), false);
    const p = protocolOf();
    assert.deepEqual([p.found, p.where, p.requestKey, p.stampKey, p.keysFrom], ['cli-text', path.join(install, 'hermes_cli', 'session_commands.py'), 'refresh_rev', 'refresh_rev_seen', 'install']);

    checkout(undefined, '0.22.5');
    const none = found(detect());
    assert.deepEqual([none.refreshPrompts, none.protocol.clue], [false, 'none']);
    assert.deepEqual([protocolOf().found, protocolOf().keysFrom], ['none', 'default']);
  });

  it('typer, a command named after its function (refresh_prompts → refresh-prompts), no keys in the code: this project’s names, said to be ours', () => {
    checkout({ cli: 'typer', keysIn: 'none' });
    const p = protocolOf();
    assert.deepEqual([p.found, p.requestKey, p.stampKey, p.keysFrom], ['cli-text', DEFAULT_REFRESH_KEYS.requestKey, DEFAULT_REFRESH_KEYS.stampKey, 'default']);
    assert.match(p.summary, /\(this project's reading\)\.$/);
  });

  it('the CLI text only in a wheel (pip install): site-packages/hermes_cli is read, there is no agent/prompt_refresh.py', () => {
    const { sitePackages } = writePipInstall(path.join(dir, 'venv'), { version: '0.23.1', refreshPrompts: true, protocol: { cli: 'argparse', keysIn: 'none' } });
    assert.equal(fs.existsSync(path.join(sitePackages, 'agent', 'prompt_refresh.py')), false);
    const build = found(detectHermesBuild({ homeRoot, explicit: sitePackages, env }));
    assert.deepEqual([build.version, build.refreshPrompts, build.protocol.clue, build.protocol.file], ['0.23.1', true, 'cli-text', path.join(sitePackages, 'hermes_cli', 'main.py')]);
    const without = writePipInstall(path.join(dir, 'old'), WITHOUT_REFRESH);
    assert.equal(found(detectHermesBuild({ homeRoot, explicit: without.sitePackages, env })).refreshPrompts, false);
  });

  it('a help text alone and the guessed module alone are weaker clues, named as such', () => {
    checkout({ cli: 'help-only', keysIn: 'none' });
    assert.equal(protocolOf().found, 'help-text');
    assert.match(protocolOf().summary, /a help text of its CLI names refresh-prompts \(no registration of the subcommand was read\)/);
    const install = checkout({ cli: 'module-only', keysIn: 'cli', requestKey: 'prompt_refresh_request', stampKey: 'prompt_refresh_seen' });
    const p = protocolOf();
    assert.deepEqual([p.found, p.where, p.requestKey, p.stampKey], ['module', path.join(install, 'agent', 'prompt_refresh.py'), 'prompt_refresh_request', 'prompt_refresh_seen']);
  });

  it('the spellings of a registration, and what is not one (a comment, a comparison, a docstring, bytes)', () => {
    const offers = (code: string) => cliTextIn(scanPython(code));
    assert.equal(offers('sub.add_parser(\n    "refresh-prompts",\n    help="…")\n'), 'cli-text');
    assert.equal(offers("@sessions.command('refresh-prompts')\ndef refresh(): ...\n"), 'cli-text');
    assert.equal(offers('@sessions.command(name="refresh-prompts")\ndef refresh(): ...\n'), 'cli-text');
    assert.equal(offers('@app.command()\n@click.option("--session")\ndef refresh_prompts(session): ...\n'), 'cli-text');
    assert.equal(offers('group.add_command(refresh, name="refresh-prompts")\n'), 'cli-text');
    assert.equal(offers('p.add_argument("action", choices=["list", "refresh-prompts"])\n'), 'cli-text');
    assert.equal(offers('p = sub.add_parser("sessions", help="Manage (list, refresh-prompts)")\n'), 'help-text');
    assert.equal(offers('# sub.add_parser("refresh-prompts")\nif action == "refresh-prompts":\n    pass\n'), undefined);
    assert.equal(offers('def f():\n    """Unlike refresh-prompts, this …"""\n'), undefined);
    assert.equal(offers('sub.add_parser(b"refresh-prompts")\n'), undefined);
    assert.equal(offers('x = """ sub.add_parser("refresh-prompts") """\n'), undefined);
  });

  it('bad sources: a huge file and a binary one are passed over and named; the CLI text elsewhere still counts', () => {
    const install = checkout(WITH_REFRESH.protocol ?? { cli: 'argparse' });
    // Both are read before main.py (files named like a CLI's come first).
    const huge = path.join(install, 'hermes_cli', 'cli_generated.py');
    fs.writeFileSync(huge, Buffer.alloc(MAX_SOURCE_BYTES + 1, 'a'));
    const binary = path.join(install, 'hermes_cli', 'cli_native.py');
    fs.writeFileSync(binary, Buffer.from([0x23, 0x00, 0x72, 0x65, 0x66, 0x72, 0x65, 0x73, 0x68]));
    const p = protocolOf();
    assert.equal(p.found, 'cli-text');
    assert.ok(p.notes.some((n) => n === `${huge} is ${MAX_SOURCE_BYTES + 1} bytes, more than any Python source of Hermes holds; it was not read.`), p.notes.join('\n'));
    assert.ok(p.notes.some((n) => n === `${binary} holds NUL bytes, so it is no Python source; it was not read.`), p.notes.join('\n'));
  });

  it('bad sources: one that cannot be read, with no CLI text elsewhere, leaves the build unreadable (no request written), naming the file', () => {
    const install = checkout(undefined, '0.23.0');
    const loop = path.join(install, 'hermes_cli', 'sessions.py');
    fs.symlinkSync(loop, loop);
    const build = detect();
    assert.equal(build.kind, 'unreadable');
    assert.equal((build as Extract<HermesBuild, { kind: 'unreadable' }>).problem, `${loop} is a symbolic link that loops, so whether Hermes 0.23.0 offers refresh-prompts cannot be told; fix the folder's permissions, or point --hermes-install (hermesLens.hermesInstall in the editor) at the folder of your Hermes checkout, the one holding pyproject.toml and agent/.`);
    // Where the CLI text is found all the same, the unreadable file does not matter.
    checkout({ cli: 'argparse' });
    fs.symlinkSync(loop, loop);
    assert.equal(found(detect()).protocol.clue, 'cli-text');
  });

  it('several candidate keys: the lens keeps every default and says which files name which', () => {
    const install = checkout({ cli: 'argparse', keysIn: 'module', requestKey: 'prompt_refresh_epoch', otherRequestKey: 'legacy_refresh_epoch', stampKey: 'prompt_epoch' });
    const p = protocolOf();
    const module = path.join(install, 'hermes_cli', 'refresh_prompts.py');
    assert.deepEqual([p.found, p.requestKey, p.stampKey, p.keysFrom], ['cli-text', DEFAULT_REFRESH_KEYS.requestKey, DEFAULT_REFRESH_KEYS.stampKey, 'default']);
    assert.deepEqual(p.notes, [
      `The sources name several candidate keys for the request in state_meta (legacy_refresh_epoch in ${module}, prompt_refresh_epoch in ${module}): which one Hermes uses cannot be told from the text, so the lens keeps its own reading of every name.`,
    ]);
    assert.ok(p.summary.endsWith(p.notes[0]!), p.summary);
  });

  it('a second reading of an unchanged installation reads no source again; a changed one is read again', () => {
    const install = checkout({ cli: 'argparse', keysIn: 'module', requestKey: 'first_refresh_key' });
    const first = readRefreshProtocol(install);
    assert.equal(readRefreshProtocol(install), first, 'the same reading, nothing read');
    const module = path.join(install, 'hermes_cli', 'refresh_prompts.py');
    fs.writeFileSync(module, fs.readFileSync(module, 'utf8').replace('first_refresh_key', 'second_refresh_key') + '\n');
    assert.equal(readRefreshProtocol(install).requestKey, 'second_refresh_key');
  });

  describe('kept in the cache folder between commands', () => {
    // Each command is a process of its own: a new KeptProtocolReadings over the same folder, whose
    // disk reads are counted. The sources were written a moment ago, so the commands' clock is a
    // minute on (what was read is kept only once its files are older than the clock's grain).
    let cacheDir: string;
    let counts: { read: number; list: number; stat: number };
    const counting: SourceFs = {
      read: (f) => (counts.read++, diskFs.read(f)),
      stat: (f) => (counts.stat++, diskFs.stat(f)),
      list: (d) => (counts.list++, diskFs.list(d)),
      listNames: (d) => (counts.list++, diskFs.listNames(d)),
      realPath: (f) => diskFs.realPath(f),
    };
    const command = (nowMs = () => Date.now() + 60_000) => {
      counts = { read: 0, list: 0, stat: 0 };
      return new KeptProtocolReadings({ cacheDir: () => cacheDir, fs: counting, nowMs });
    };
    const cli = (install: string) => path.join(install, 'hermes_cli');
    const keptFolder = () => path.join(cacheDir, 'protocol-readings-v1');

    beforeEach(() => (cacheDir = path.join(dir, 'cache')));

    it('a later command stats the files and reads none: the same reading, and the file holds no line of the sources', () => {
      const install = checkout(undefined, '0.22.5');
      fs.mkdirSync(path.join(cli(install), 'commands'));
      fs.writeFileSync(path.join(cli(install), 'commands', 'sessions.py'), '"""Session commands."""\ndef list_sessions():\n    return []\n');
      const first = readRefreshProtocol(install, command());
      assert.equal(first.clue, 'none');
      assert.ok(counts.read > 0 && counts.list > 0);
      const second = readRefreshProtocol(install, command());
      assert.deepEqual(second, first);
      assert.deepEqual([counts.read, counts.list], [0, 0], 'nothing read or listed, only stat()');
      assert.ok(counts.stat > 0);
      const [file] = fs.readdirSync(keptFolder());
      const kept = fs.readFileSync(path.join(keptFolder(), file!), 'utf8');
      for (const text of ['def ', 'Session commands', 'argparse', 'stand-in']) assert.ok(!kept.includes(text), `no source text kept: ${text}`);
      assert.equal(fs.statSync(path.join(keptFolder(), file!)).mode & 0o777, 0o600);
    });

    it('an edit of a source, a file added in a subfolder and a file removed are each seen by the next command', () => {
      const install = checkout(undefined, '0.22.5');
      assert.equal(readRefreshProtocol(install, command()).clue, 'none');
      // An edit: main.py registers the subcommand now, and names a key.
      const main = path.join(cli(install), 'main.py');
      const without = fs.readFileSync(main, 'utf8');
      writeCliSources(install, { cli: 'argparse', keysIn: 'cli', requestKey: 'edited_refresh_epoch' });
      const edited = readRefreshProtocol(install, command());
      assert.deepEqual([edited.clue, edited.requestKey], ['cli-text', 'edited_refresh_epoch']);
      fs.writeFileSync(main, without);
      assert.equal(readRefreshProtocol(install, command()).clue, 'none', 'edited back');
      // A file added in a subfolder, registering the subcommand.
      const added = path.join(cli(install), 'commands', 'refresh.py');
      fs.mkdirSync(path.dirname(added));
      assert.equal(readRefreshProtocol(install, command()).clue, 'none');
      fs.writeFileSync(added, 'def register(sub):\n    sub.add_parser("refresh-prompts")\n');
      const found = readRefreshProtocol(install, command());
      assert.deepEqual([found.clue, found.file], ['cli-text', added]);
      // Removed again.
      fs.rmSync(added);
      assert.equal(readRefreshProtocol(install, command()).clue, 'none');
    });

    it('a reading whose files changed within its last seconds is not kept for the next command; a damaged file is ignored', () => {
      const install = checkout(undefined, '0.22.5');
      readRefreshProtocol(install, command(Date.now));
      assert.equal(fs.existsSync(keptFolder()), false);
      readRefreshProtocol(install, command());
      assert.ok(counts.read > 0, 'read again');
      const [file] = fs.readdirSync(keptFolder());
      fs.writeFileSync(path.join(keptFolder(), file!), '{"format":1,"root":');
      assert.equal(readRefreshProtocol(install, command()).clue, 'none');
      assert.ok(counts.read > 0, 'read again');
    });
  });
});
