// `hermes-lens prompt-size`: the byte (and token) size of each tier and block of a stored prompt,
// like `hermes prompt-size`.
import { promptSizeReport } from '../../hermes/anatomy/promptSize';
import { analyzeProfile } from '../../hermes/engine/analyzeProfile';
import { openHome, selectedProfiles } from '../../hermes/profile/selection';
import { HermesError } from '../../hermes/errors';
import { commonOptions, parse } from '../args';
import { table } from '../format';
import { outJson, type CommandIO } from '../io';

export const promptSizeUsage = 'hermes-lens prompt-size [--session ID] [-p NAME] [--home DIR] [--json]';

export function promptSizeCommand(argv: string[], io: CommandIO): number {
  const args = parse(argv, { ...commonOptions, session: { type: 'string' } });
  if (args.help) return io.out(promptSizeUsage), 0;
  const home = openHome({ home: args.home }, io.env);
  const [profile] = selectedProfiles(home, { profile: args.profile });
  const analysis = analyzeProfile(profile!, { includeEnded: true, now: io.now() });
  if (analysis.report.unavailable) throw new HermesError('db-unreadable', analysis.report.unavailable, analysis.report.dbFile);
  // Without --session: the most recently active session that holds a prompt.
  const session = args.session
    ? analysis.report.sessions.find((s) => s.id === args.session)
    : analysis.report.sessions.find((s) => analysis.anatomyOf(s.id));
  if (!session) {
    throw new HermesError('session-missing', args.session
      ? `No session ${args.session} in ${analysis.report.dbFile}. "hermes-lens status --all" lists the sessions.`
      : `No session with a stored prompt in ${analysis.report.dbFile}.`, analysis.report.dbFile);
  }
  const anatomy = analysis.anatomyOf(session.id);
  if (!anatomy) throw new HermesError('session-missing', `Session ${session.id} holds no stored prompt yet (Hermes builds it on its first turn).`);
  const report = promptSizeReport(anatomy, session.tokensExact);
  if (args.json) {
    outJson(io, { profile: profile!.name, sessionId: session.id, ...report });
    return 0;
  }
  const approx = session.tokensExact ? '' : '≈';
  const rows = [['PART', 'BYTES', 'TOKENS'], ...report.rows.map((r) => [r.label, String(r.bytes), `${approx}${r.tokens}`])];
  io.out(`System prompt of session ${session.id} (${profile!.name})\n${table(rows)}`);
  return 0;
}
