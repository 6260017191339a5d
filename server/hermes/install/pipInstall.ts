// Hermes installed with pip or pipx instead of the installer: no checkout, but the wheel's files in
// a `site-packages` folder — `hermes_agent-<version>.dist-info/METADATA` (the version) beside
// Hermes' packages (`hermes_cli/`, whose sources tell the refresh protocol). Where that folder is,
// from the environment or the console script pip wrote, is pipEnvironment.ts's and
// commandTarget.ts's to find; this reads it, never running Python (docs/HERMES-INSTALLS.md).
import path = require('node:path');
import { diskFs } from '../fs/diskFs';
import { utf8Of } from '../fs/sourceFs';
import type { HermesBuild, InstallClue } from './hermesBuild';
import { isSmallFile } from './fileChecks';
import { distInfoIn } from './pipEnvironment';
import { isVersionNumber } from './pyproject';
import { withProtocol } from './withProtocol';

const MAX_METADATA_BYTES = 1024 * 1024;

/** The build whose wheel `sitePackages` holds: its METADATA's version, and what its sources show of the protocol. */
export function readSitePackages(sitePackages: string, clue: InstallClue): Extract<HermesBuild, { kind: 'found' | 'unreadable' }> {
  const distInfo = distInfoIn(sitePackages)!;
  const metadata = path.join(sitePackages, distInfo, 'METADATA');
  const problem = (text: string) => ({ kind: 'unreadable' as const, dir: sitePackages, problem: text, clue });
  const what = 'so the Hermes build there cannot be told; point --hermes-install (hermesLens.hermesInstall in the editor) at the environment Hermes was installed into';
  let text: string;
  try {
    if (!isSmallFile(metadata, MAX_METADATA_BYTES)) return problem(`${metadata} is not a readable file of at most 1 MB, ${what}.`);
    text = utf8Of(diskFs.read(metadata));
  } catch {
    return problem(`${metadata} cannot be read, ${what}.`);
  }
  // The headers end at the first blank line (the description follows).
  const headers = text.split(/\r?\n\r?\n/, 1)[0]!;
  const version = /^Version:\s*(.+?)\s*$/m.exec(headers)?.[1];
  if (version === undefined || !isVersionNumber(version)) return problem(`${metadata} gives no version number, ${what}.`);
  return withProtocol(sitePackages, version, clue, problem, 'point --hermes-install (hermesLens.hermesInstall in the editor) at the environment Hermes was installed into');
}
