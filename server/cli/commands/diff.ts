// `hermes-lens diff --session ID`: what a refresh would change in that session's prompt.
import { analyzeProfile } from '../../hermes/engine/analyzeProfile';
import { diffPrompt } from '../../hermes/engine/promptDiff';
import { openHome, selectedProfiles } from '../../hermes/profile/selection';
import { HermesError } from '../../hermes/errors';
import { commonOptions, parse, UsageError } from '../args';
import { printable } from '../format';
import { outJson, type CommandIO } from '../io';

export const diffUsage = 'hermes-lens diff --session ID [-p NAME] [--home DIR] [--json]';

export function diffCommand(argv: string[], io: CommandIO): number {
  const args = parse(argv, { ...commonOptions, session: { type: 'string' } });
  if (args.help) return io.out(diffUsage), 0;
  if (!args.session) throw new UsageError('diff needs --session ID');
  const home = openHome({ home: args.home }, io.env);
  const [profile] = selectedProfiles(home, { profile: args.profile });
  const analysis = analyzeProfile(profile!, { includeEnded: true, now: io.now(), env: io.env });
  const session = analysis.report.sessions.find((s) => s.id === args.session);
  const anatomy = session && analysis.anatomyOf(session.id);
  if (!session || !anatomy) {
    throw new HermesError('session-missing', `No session ${args.session} with a stored prompt in ${analysis.report.dbFile}.`, analysis.report.dbFile);
  }
  const diff = diffPrompt(anatomy, analysis.sourcesFor(session.cwd, session.source));
  if (args.json) {
    outJson(io, { profile: profile!.name, sessionId: session.id, sections: diff.sections });
  } else if (diff.sections.length === 0) {
    io.out(`A refresh would not change the prompt of session ${session.id}: it is current.`);
  } else {
    // Prompt text comes from files and the database: escape control characters before a terminal sees them.
    const parts = diff.sections.map((s) => `== ${s.section} (${s.change})\n${s.hunks.map((h) => h.split('\n').map((line) => printable(line.replace(/\t/g, '    '))).join('\n')).join('\n')}`);
    io.out(`What a refresh would change in session ${session.id}:\n\n${parts.join('\n\n')}`);
  }
  return 0;
}
