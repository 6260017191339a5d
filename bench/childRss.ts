// The peak RSS of a process's children, the language server's token-count helper in particular: it
// comes and goes (started on a count miss, gone after a quiet spell), so its VmHWM is sampled while it
// lives rather than read at the end. Linux only (/proc), as the rest of the RSS figures.
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
    let entries: string[];
    try {
      entries = fs.readdirSync('/proc');
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // Field 4 of stat is the parent pid; the command name before it (in parentheses) may hold spaces.
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== this.parentPid) continue;
        const hwm = Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
        if (Number.isFinite(hwm)) this.peaks.set(Number(entry), Math.max(hwm, this.peaks.get(Number(entry)) ?? 0));
      } catch {
        // the process ended meanwhile
      }
    }
  }
}
