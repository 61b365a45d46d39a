/**
 * The processes under this one, read from /proc: the parse pool's children and what they start
 * (pdftoppm, tesseract). For memory bounds (the service's total RSS), zombie checks and leftovers.
 */
import fs from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** One letter: R running, S sleeping, Z zombie… */
  state: string;
  /** The program name (`comm`). */
  name: string;
  rssMb: number;
  /** The command line, arguments joined by spaces. */
  cmdline: string;
}

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces: fields after the last ')' are fixed.
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(fields[1]), state: fields[0] ?? '?', name, rssMb: kb ? Number(kb) / 1024 : 0, cmdline };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every live process below `root` (children, grandchildren…), zombies included. */
export function descendants(root = process.pid): ProcInfo[] {
  const all = fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => readProc(Number(n)))
    .filter((p): p is ProcInfo => p !== undefined);
  const below: ProcInfo[] = [];
  const parents = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        below.push(p);
        grew = true;
      }
    }
  }
  return below;
}

/** RSS of `root` and everything below it, in MB: the service's total memory when it runs in `root`. */
export function treeRssMb(root = process.pid): number {
  return (readProc(root)?.rssMb ?? 0) + descendants(root).reduce((sum, p) => sum + p.rssMb, 0);
}

/** The parse pool's children below `root` (by their entry file). */
export function parseChildren(root = process.pid): ProcInfo[] {
  return descendants(root).filter((p) => p.state !== 'Z' && /parse-worker(-bootstrap)?\.(m?js|ts)/.test(p.cmdline));
}

/** Each parse child's private temporary folder (it is the `tempDir` in its JSON argument). */
export function parseChildTempDir(child: ProcInfo): string | undefined {
  return /"tempDir":"([^"]+)"/.exec(child.cmdline)?.[1];
}

/** Samples treeRssMb every `everyMs` until stopped; returns the peak. */
export function sampleTreeRss(everyMs = 25): { stop(): number; peak(): number } {
  let peak = treeRssMb();
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssMb());
  }, everyMs);
  return {
    peak: () => peak,
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeRssMb());
    },
  };
}

/** CPU time a process has used so far (user + system), in ms, from /proc/PID/stat (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
