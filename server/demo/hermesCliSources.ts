// The Python sources of a fake Hermes installation that tell the lens its refresh protocol: the
// CLI registering `hermes sessions refresh-prompts` (as argparse, click or typer spell it, or only
// a help text naming it) and the code naming the protocol's keys, in the CLI file or a module it
// imports. Written by this project, not Hermes' code: only what the lens reads, in the shapes
// those libraries use (install/protocolReading.ts).
import fs = require('node:fs');
import path = require('node:path');

export interface FakeProtocol {
  /** How the CLI offers refresh-prompts; `module-only`: no CLI text, the guessed agent/prompt_refresh.py alone. */
  readonly cli: 'argparse' | 'click' | 'typer' | 'help-only' | 'module-only';
  /** Where the keys are named: in the CLI's file, in a module it imports about refreshing, or nowhere. */
  readonly keysIn?: 'cli' | 'module' | 'none';
  readonly requestKey?: string;
  readonly stampKey?: string;
  /** A second request key named next to the first (then the names cannot be told). */
  readonly otherRequestKey?: string;
}

/** What a build with the protocol shows unless told otherwise: argparse, and this project's names in a module of the CLI. */
export const ARGPARSE_PROTOCOL: FakeProtocol = { cli: 'argparse', keysIn: 'module', requestKey: 'prompt_refresh_epoch', stampKey: 'prompt_refresh_epoch' };

const HEADER = '"""A stand-in written by Prompt Lens tests: only the code the lens reads of a Hermes CLI."""\n';

/** Writes the sources under `root` (a checkout, or site-packages); with no protocol, a CLI without the subcommand. */
export function writeCliSources(root: string, protocol: FakeProtocol | undefined): void {
  const cli = path.join(root, 'hermes_cli');
  fs.rmSync(cli, { recursive: true, force: true });
  fs.mkdirSync(cli, { recursive: true });
  fs.writeFileSync(path.join(cli, '__init__.py'), '');
  const guessed = path.join(root, 'agent', 'prompt_refresh.py');
  fs.rmSync(guessed, { force: true });
  if (!protocol) return void fs.writeFileSync(path.join(cli, 'main.py'), argparseMain(undefined));
  const keysIn = protocol.keysIn ?? 'module';
  const keys = keysIn === 'none' ? '' : keyCode(protocol);
  switch (protocol.cli) {
    case 'argparse':
      fs.writeFileSync(path.join(cli, 'main.py'), argparseMain('register', keysIn === 'cli' ? keys : ''));
      break;
    case 'help-only':
      fs.writeFileSync(path.join(cli, 'main.py'), argparseMain('help', keysIn === 'cli' ? keys : ''));
      break;
    case 'click':
      fs.writeFileSync(path.join(cli, 'main.py'), argparseMain(undefined));
      fs.writeFileSync(path.join(cli, 'session_commands.py'), clickCommands(keysIn === 'cli' ? keys : ''));
      break;
    case 'typer':
      fs.writeFileSync(path.join(cli, 'main.py'), argparseMain(undefined));
      fs.writeFileSync(path.join(cli, 'sessions_app.py'), typerCommands(keysIn === 'cli' ? keys : ''));
      break;
    case 'module-only':
      fs.writeFileSync(path.join(cli, 'main.py'), argparseMain(undefined));
      fs.mkdirSync(path.dirname(guessed), { recursive: true });
      fs.writeFileSync(guessed, HEADER + keys);
      return;
  }
  if (keysIn === 'module') fs.writeFileSync(path.join(cli, 'refresh_prompts.py'), HEADER + keys);
}

function argparseMain(refresh: 'register' | 'help' | undefined, keys = ''): string {
  const sessionsHelp = refresh === 'help' ? 'Manage session history (list, rename, refresh-prompts)' : 'Manage session history (list, rename, export, prune, delete)';
  const register =
    refresh === 'register'
      ? `    sessions_refresh = sessions_subparsers.add_parser(
        "refresh-prompts",
        help="Rebuild each session's system prompt at the start of its next turn",
    )
    sessions_refresh.add_argument("--session", help="One session (id or unique prefix)")
    sessions_refresh.add_argument("--json", action="store_true")
`
      : '';
  return `${HEADER}import argparse


def cmd_sessions(args):
    # "refresh-prompts" in a comment is not the CLI offering it.
    if args.sessions_action == "refresh-prompts":
        from hermes_cli.refresh_prompts import request_refresh
        return request_refresh(args.session)
    return 0


def main():
    parser = argparse.ArgumentParser(prog="hermes")
    subparsers = parser.add_subparsers(dest="command")
    sessions_parser = subparsers.add_parser("sessions", help="${sessionsHelp}")
    sessions_subparsers = sessions_parser.add_subparsers(dest="sessions_action")
    sessions_subparsers.add_parser("list", help="List recent sessions")
${register}    sessions_parser.set_defaults(func=cmd_sessions)
    return parser
${keys ? `\n\n${keys}` : ''}`;
}

function clickCommands(keys: string): string {
  return `${HEADER}import click

from hermes_cli.refresh_prompts import request_refresh


@click.group()
def sessions():
    """Manage session history."""


@sessions.command("refresh-prompts")
@click.option("--session", default=None)
def refresh(session):
    """Rebuild each session's system prompt at the start of its next turn."""
    request_refresh(session)
${keys ? `\n\n${keys}` : ''}`;
}

function typerCommands(keys: string): string {
  return `${HEADER}import typer

from hermes_cli.refresh_prompts import request_refresh

sessions_app = typer.Typer(help="Manage session history.")


@sessions_app.command()
def refresh_prompts(session: str = typer.Option(None)):
    request_refresh(session)
${keys ? `\n\n${keys}` : ''}`;
}

/** The request written and the stamp read as Hermes' SessionDB code writes such keys (get_meta / set_meta, model_config). */
function keyCode(p: FakeProtocol): string {
  const request = p.requestKey ?? 'prompt_refresh_epoch';
  const stamp = p.stampKey ?? 'prompt_refresh_epoch';
  const other = p.otherRequestKey ? `\n\ndef legacy_request(db):\n    return db.get_meta("${p.otherRequestKey}")\n` : '';
  return `REFRESH_REQUEST_KEY = "${request}"


def request_refresh(db, session_id=None, epoch=1):
    if session_id:
        db.set_meta(f"{REFRESH_REQUEST_KEY}:{session_id}", str(epoch))
    else:
        db.set_meta(REFRESH_REQUEST_KEY, str(epoch))


def stamp_prompt(model_config, epoch):
    model_config["${stamp}"] = epoch
${other}`;
}
