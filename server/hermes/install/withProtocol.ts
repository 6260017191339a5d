// A found build with what its sources show of the refresh protocol (protocolReading.ts), for a
// checkout (readInstall.ts) and a wheel's site-packages (pipInstall.ts) alike.
import { whyUnreadable } from './fileChecks';
import type { HermesBuild, InstallClue } from './hermesBuild';
import { readRefreshProtocol } from './protocolReading';

/**
 * The build of `version` at `root` (a checkout, or site-packages) with what its sources show of the
 * refresh protocol; a problem when no source shows it and some could not be read (then nobody can
 * tell whether it has it).
 */
export function withProtocol(
  root: string,
  version: string,
  clue: InstallClue,
  problem: (text: string) => Extract<HermesBuild, { kind: 'unreadable' }>,
  whatToDo: string,
): Extract<HermesBuild, { kind: 'found' | 'unreadable' }> {
  const protocol = readRefreshProtocol(root);
  const unread = protocol.unreadable[0];
  if (protocol.clue === 'none' && unread) {
    return problem(
      `${unread.file} ${whyUnreadable(unread)}, so whether Hermes ${version} offers refresh-prompts cannot be told; fix the folder's permissions, or ${whatToDo}.`,
    );
  }
  return { kind: 'found', dir: root, version, refreshPrompts: protocol.clue !== 'none', protocol, clue };
}
