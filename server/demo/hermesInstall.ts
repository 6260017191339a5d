// Fake Hermes installations for tests and the demo: the files the lens reads to tell a build (a
// checkout's pyproject.toml, and the CLI sources that offer the refresh-prompts protocol, or not:
// hermesCliSources.ts), laid out as Hermes' installer lays them out, with either kind of `hermes` command.
import fs = require('node:fs');
import path = require('node:path');
import { ARGPARSE_PROTOCOL, writeCliSources, type FakeProtocol } from './hermesCliSources';

export interface FakeInstall {
  /** pyproject.toml's version, e.g. `0.22.5`. */
  readonly version: string;
  /** Whether its CLI offers refresh-prompts (builds after v0.22.5). */
  readonly refreshPrompts: boolean;
  /** How its sources show the protocol (with refreshPrompts; default ARGPARSE_PROTOCOL). */
  readonly protocol?: FakeProtocol;
}

function protocolOf(install: FakeInstall): FakeProtocol | undefined {
  return install.refreshPrompts ? (install.protocol ?? ARGPARSE_PROTOCOL) : undefined;
}

/** A build with the protocol and one without, as tests name them. */
export const WITH_REFRESH: FakeInstall = { version: '0.23.0', refreshPrompts: true };
export const WITHOUT_REFRESH: FakeInstall = { version: '0.22.5', refreshPrompts: false };

/** Writes a checkout at `dir` (a git checkout with its own venv, as the installer makes); returns `dir`. */
export function writeHermesInstall(dir: string, install: FakeInstall): string {
  fs.mkdirSync(path.join(dir, 'agent'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'venv', 'bin'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(
    path.join(dir, 'pyproject.toml'),
    `[build-system]\nrequires = ["setuptools>=61.0"]\n\n[project]\nname = "hermes-agent"\nversion = "${install.version}"\ndescription = "The self-improving AI agent"\n\n[project.scripts]\nhermes = "hermes_cli.main:main"\n`,
  );
  fs.writeFileSync(path.join(dir, 'agent', '__init__.py'), '');
  fs.writeFileSync(path.join(dir, 'agent', 'prompt_builder.py'), '# stand-in\n');
  writeCliSources(dir, protocolOf(install));
  fs.writeFileSync(path.join(dir, 'venv', 'bin', 'hermes'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  return dir;
}

/**
 * A `hermes` command in `binDir` that leads to the checkout at `installDir`: the launcher newer
 * installers write (`exec "<checkout>/venv/bin/python" "<checkout>/hermes"`), or the link to
 * `<checkout>/venv/bin/hermes` older ones made. Returns its path.
 */
export function writeHermesCommand(binDir: string, installDir: string, kind: 'launcher' | 'link'): string {
  fs.mkdirSync(binDir, { recursive: true });
  const command = path.join(binDir, 'hermes');
  fs.rmSync(command, { force: true });
  if (kind === 'link') fs.symlinkSync(path.join(installDir, 'venv', 'bin', 'hermes'), command);
  else {
    const launcher = `#!/usr/bin/env bash\nunset PYTHONPATH\nunset PYTHONHOME\nexec "${path.join(installDir, 'venv', 'bin', 'python')}" "${path.join(installDir, 'hermes')}" "$@"\n`;
    fs.writeFileSync(command, launcher, { mode: 0o755 });
  }
  return command;
}

/**
 * Hermes as pip or pipx installs it into the environment at `prefix`: the wheel's
 * `hermes_agent-<version>.dist-info` and `agent/` package in `lib/python3.12/site-packages`, and
 * pip's console script `bin/hermes` run by `python` (default `<prefix>/bin/python`). Returns both paths.
 */
export function writePipInstall(prefix: string, install: FakeInstall, python = path.join(prefix, 'bin', 'python')): { sitePackages: string; script: string } {
  const sitePackages = path.join(prefix, 'lib', 'python3.12', 'site-packages');
  const distInfo = path.join(sitePackages, `hermes_agent-${install.version}.dist-info`);
  fs.mkdirSync(distInfo, { recursive: true });
  fs.mkdirSync(path.join(sitePackages, 'agent'), { recursive: true });
  fs.mkdirSync(path.join(sitePackages, 'hermes_cli'), { recursive: true });
  fs.writeFileSync(path.join(distInfo, 'METADATA'), `Metadata-Version: 2.4\nName: hermes-agent\nVersion: ${install.version}\nSummary: The self-improving AI agent\nRequires-Python: <3.14,>=3.11\n\nVersion: 9.9.9 in the description is not the version\n`);
  fs.writeFileSync(path.join(distInfo, 'entry_points.txt'), '[console_scripts]\nhermes = hermes_cli.main:main\n');
  fs.writeFileSync(path.join(sitePackages, 'agent', '__init__.py'), '');
  writeCliSources(sitePackages, protocolOf(install));
  fs.mkdirSync(path.join(prefix, 'bin'), { recursive: true });
  const script = path.join(prefix, 'bin', 'hermes');
  // pip's console-script template.
  fs.writeFileSync(
    script,
    `#!${python}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom hermes_cli.main import main\nif __name__ == '__main__':\n    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n    sys.exit(main())\n`,
    { mode: 0o755 },
  );
  return { sitePackages, script };
}
