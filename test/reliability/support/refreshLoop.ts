// A child process that drives the engine through the CLI's own entry point (`runCli`, in-process
// here) in a loop for `durationMs`: profile-wide and per-session refresh requests, and status reads.
// Prints one JSON line with every run's outcome, so the parent can prove that none failed and count
// the epochs recorded.
//
//   node refreshLoop.js <home> <durationMs> <seed>
import { commandEnv, runCliNow } from '../../support/cliNow';
import { createRng } from '../../../server/demo/prng';

export interface LoopRun {
  readonly kind: 'profile' | 'session' | 'status';
  readonly code: number;
  readonly ms: number;
  readonly epoch?: number;
  readonly stderr?: string;
}

export interface LoopReport {
  readonly runs: LoopRun[];
}

function cli(argv: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runCliNow(argv, { out: (t) => void (stdout += t + '\n'), err: (t) => void (stderr += t + '\n'), env: commandEnv(), now: () => Date.now() / 1000 });
  return { code, stdout, stderr };
}

function main(): void {
  const [home, durationText, seedText] = process.argv.slice(2);
  const rng = createRng(Number(seedText ?? 7));
  const deadline = Date.now() + Number(durationText);
  const first = cli(['status', '--home', home!, '--json']);
  const ids: string[] = first.code === 0 ? JSON.parse(first.stdout).profiles[0].sessions.map((s: { id: string }) => s.id) : [];
  const runs: LoopRun[] = [];
  while (Date.now() < deadline) {
    const roll = rng.next();
    const kind: LoopRun['kind'] = roll < 0.55 ? 'profile' : roll < 0.85 && ids.length ? 'session' : 'status';
    const argv =
      kind === 'status'
        ? ['status', '--home', home!, '--json']
        : ['refresh', '--home', home!, '--json', ...(kind === 'session' ? ['--session', rng.pick(ids)] : [])];
    const started = Date.now();
    const r = cli(argv);
    const run: LoopRun = { kind, code: r.code, ms: Date.now() - started };
    if (r.code !== 0) runs.push({ ...run, stderr: r.stderr });
    else if (kind === 'status') runs.push(run);
    else runs.push({ ...run, epoch: Number(JSON.parse(r.stdout).epoch) });
  }
  process.stdout.write(JSON.stringify({ runs } satisfies LoopReport) + '\n');
}

if (require.main === module) main();
