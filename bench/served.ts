/**
 * A compiled folio server started as `npm start` runs it (`node dist/src/main.js serve`: free port,
 * the given DATA_DIR) for the benchmarks that measure it from outside (bench:server,
 * bench:hostile), and the resident memory of it and its parse processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export interface Served {
  child: ChildProcess;
  url: string;
  pid: number;
}

/** `mainJs` is the build's dist/src/main.js, `cwd` its checkout. */
export async function startServer(mainJs: string, cwd: string, dataDir: string): Promise<Served> {
  const child = spawn(process.execPath, [mainJs, 'serve'], {
    cwd,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await loggedUrl(child, 30_000);
  return { child, url, pid: child.pid ?? 0 };
}

/**
 * The URL a starting `folio serve` logs (its "listening" line), within `timeoutMs`. The request log
 * lines after it are read and dropped (a full pipe would stall the server), so logging costs what
 * it costs in production. `errors`: the end of its stderr, for the message when it fails.
 */
export function loggedUrl(child: ChildProcess, timeoutMs: number, errors: () => string = () => ''): Promise<string> {
  const stdout = child.stdout;
  if (!stdout) return Promise.reject(new Error('no stdout from folio serve'));
  return new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`folio serve did not log its URL within ${timeoutMs / 1000} s: ${seen}${errors()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const m = /"url":"(http:\/\/[^"]+)"/.exec(seen);
      if (m?.[1]) {
        clearTimeout(timer);
        stdout.off('data', onData);
        child.removeListener('exit', onExit);
        stdout.resume();
        resolve(m[1]);
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`folio serve exited with ${code}: ${seen}${errors()}`));
    };
    stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

function ownRss(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0; // gone meanwhile
  }
}

/** RSS in bytes of a process and every process below it (the server, its parse processes and what they start). */
export function treeRssBytes(pid: number, depth = 0): number {
  let children: string[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    // gone, or a kernel without the children file: the process alone
  }
  return ownRss(pid) + (depth > 4 ? 0 : children.reduce((sum, c) => sum + treeRssBytes(Number(c), depth + 1), 0));
}
