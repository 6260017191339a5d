// The peak RSS of a process's children, the language server's token-count helper in particular: it
// comes and goes (started on a count miss, gone after a quiet spell), so its VmHWM is sampled while it
// lives rather than read at the end. Linux only (/proc), as the rest of the RSS figures.
//
// The sampling runs on the thread that times the language server's answers, every 50 ms, so it
// must cost next to nothing there: the children are read from the parent's threads' `children`
// files (a few small reads), not found by reading every process's stat in /proc (2–3 ms a scan,
// which landed inside a timed save about every other time). Kernels without those files get the
// scan.
import * as fs from 'node:fs';
import { round } from './stats';

const SAMPLE_MS = 50;

export class ChildRssWatch {
  private readonly peaks = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly parentPid: number) {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  /** The highest VmHWM of any child seen so far (MB), and how many children were seen. */
  result(): { peakMb: number; processes: number } {
    this.sample();
    const peakKb = Math.max(0, ...this.peaks.values());
    return { peakMb: round(peakKb / 1024, 1), processes: this.peaks.size };
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    for (const pid of this.children()) {
      try {
        const hwm = Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
        if (Number.isFinite(hwm)) this.peaks.set(pid, Math.max(hwm, this.peaks.get(pid) ?? 0));
      } catch {
        // gone between the listing and the read
      }
    }
  }

  /** The parent's children now: each of its threads lists those it started (CONFIG_PROC_CHILDREN). */
  private children(): number[] {
    try {
      const tasks = fs.readdirSync(`/proc/${this.parentPid}/task`);
      const pids: number[] = [];
      for (const task of tasks) {
        for (const pid of fs.readFileSync(`/proc/${this.parentPid}/task/${task}/children`, 'utf8').split(' ')) if (pid.trim()) pids.push(Number(pid));
      }
      return pids;
    } catch (error) {
      // The parent is gone (nothing to list), or the kernel has no `children` files: scan /proc.
      return (error as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync(`/proc/${this.parentPid}`) ? this.scanForChildren() : [];
    }
  }

  private scanForChildren(): number[] {
    const pids: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === this.parentPid) pids.push(Number(entry));
      } catch {
        // gone while listed
      }
    }
    return pids;
  }
}
