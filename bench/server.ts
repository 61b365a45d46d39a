/**
 * Server benchmark (`npx tsx bench/server.ts [--quick]`).
 *
 * Builds, then starts the compiled server as `npm start` does (`node dist/src/main.js serve`: free
 * port, temp DATA_DIR, an API key made with the CLI) as a child process, then from this process:
 *   1. autocannon, 16 connections for 10 s (3 s with --quick) after 64 warm-up requests that
 *      start the parse workers, POST /v2/parse with a 20 KB HTML upload (the multipart body is built
 *      once) → requests/s and latency percentiles;
 *   2. one 50 MB HTML upload streamed to the server while its RSS (/proc/<pid>/status VmRSS) is
 *      sampled every 20 ms → baseline, peak while the body arrives, peak until the answer, and
 *      the growth compared with the file size.
 * Prints a small table and exits 0 (1 when a phase fails).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
const mainJs = path.join(root, 'dist', 'src', 'main.js');

/** The same build `npm start` runs first, so the benchmark measures what users run. */
function build(): void {
  const run = spawnSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`build failed: ${run.stdout}${run.stderr}`);
}
const quick = process.argv.includes('--quick');
const DURATION_S = quick ? 3 : 10;
const CONNECTIONS = 16;
const WARMUP_REQUESTS = 4 * CONNECTIONS;
const SMALL_BYTES = 20 * 1024;
const BIG_BYTES = 50 * 1024 * 1024;
const BOUNDARY = 'folio-bench-boundary-Q2xhdWRlQmVuY2g';
const MB = 1024 * 1024;

/** A plausible article page of exactly `size` bytes: headings, paragraphs, a table, links. */
function articleHtml(size: number): Buffer {
  const section = (i: number) =>
    `<h2>Section ${i}: results</h2>\n<p>Paragraph ${i} of the benchmark article, with <a href="https://example.org/ref/${i}">a reference</a> and <em>some emphasis</em>. ` +
    'The parser has to keep reading order, headings and tables intact while cleaning the page.</p>\n' +
    `<table><thead><tr><th>Metric</th><th>Value</th><th>Unit</th></tr></thead><tbody><tr><td>run ${i}</td><td>${(i * 3.7).toFixed(1)}</td><td>ms</td></tr><tr><td>size</td><td>${i * 128}</td><td>KB</td></tr></tbody></table>\n`;
  const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Benchmark article</title></head><body><main><h1>Benchmark article</h1>\n';
  const tail = '</main></body></html>\n';
  let body = '';
  for (let i = 1; Buffer.byteLength(head + body + section(i) + tail) <= size; i++) body += section(i);
  const html = head + body + tail;
  return Buffer.concat([Buffer.from(html), Buffer.alloc(size - Buffer.byteLength(html), 0x20)]);
}

function partHead(filename: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/html\r\n\r\n`;
}
const PART_TAIL = `\r\n--${BOUNDARY}--\r\n`;

function createKey(dataDir: string): string {
  const run = spawnSync(process.execPath, [mainJs, 'keys', 'create', '--team', 'bench'], { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
  const key = run.stdout.trim();
  if (run.status !== 0 || !/^folio_/.test(key)) throw new Error(`keys create failed: ${run.stderr}`);
  return key;
}

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : NaN;
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string; pid: number }> {
  const child = spawn(process.execPath, [mainJs, 'serve'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stdout = child.stdout;
  if (!stdout) throw new Error('no stdout from the server');
  // The first line names the URL; the request log lines after it are read and dropped (a full
  // pipe would stall the server), so logging costs what it costs in production.
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`the server did not log its URL within 30 s: ${seen}`)), 30_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const m = /"url":"(http:\/\/[^"]+)"/.exec(seen);
      if (m?.[1]) {
        clearTimeout(timer);
        stdout.off('data', onData);
        stdout.resume();
        resolve(m[1]);
      }
    };
    stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { child, url, pid: child.pid ?? 0 };
}

async function loadTest(url: string, key: string) {
  const body = Buffer.concat([Buffer.from(partHead('article.html')), articleHtml(SMALL_BYTES), Buffer.from(PART_TAIL)]);
  // Check once that the request is answered 200 before measuring.
  const check = await fetch(`${url}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body });
  if (check.status !== 200) throw new Error(`the 20 KB upload was answered ${check.status}: ${await check.text()}`);
  const base = {
    url: `${url}/v2/parse`,
    method: 'POST' as const,
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  };
  // Warm-up, not measured: every parse worker starts (and compiles its modules) on first use. A
  // fixed number of requests, not a duration: a timed run ends by dropping its in-flight
  // requests, and a parse whose client went away stops its worker, which then has to restart.
  await autocannon({ ...base, amount: WARMUP_REQUESTS });
  return autocannon({ ...base, duration: DURATION_S });
}

interface UploadMemory {
  status: number;
  baseline: number;
  peakDuringUpload: number;
  peakUntilAnswer: number;
  uploadMs: number;
  totalMs: number;
}

/** Streams a 50 MB HTML file (real content, then a comment as padding) and samples the server's RSS. */
async function bigUpload(url: string, key: string, pid: number, settle: () => Promise<void>): Promise<UploadMemory> {
  // The timed run dropped its in-flight requests (and so restarted workers): wait until parses
  // are answered again, so that the upload measures the upload and its parse only.
  await settle();
  await new Promise((r) => setTimeout(r, 500));
  const baseline = rssBytes(pid);
  let peak = baseline;
  let peakDuringUpload = baseline;
  let uploading = true;
  const sampler = setInterval(() => {
    const rss = rssBytes(pid);
    peak = Math.max(peak, rss);
    if (uploading) peakDuringUpload = Math.max(peakDuringUpload, rss);
  }, 20);

  const start = '<!doctype html><html><head><title>Fifty megabytes</title></head><body><h1>Fifty megabytes</h1><p>Real content first, then a comment as padding.</p><!--';
  const end = '--></body></html>';
  const head = Buffer.from(partHead('fifty.html') + start);
  const tail = Buffer.from(end + PART_TAIL);
  const padding = BIG_BYTES - start.length - end.length;
  const t0 = performance.now();
  let uploadMs = 0;
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(`${url}/v2/parse`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(head.length + padding + tail.length),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(head);
    const chunk = Buffer.alloc(256 * 1024, 0x2e);
    let left = padding;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail, () => {
        uploading = false;
        uploadMs = performance.now() - t0;
      });
    };
    pump();
  });
  const totalMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 40));
  clearInterval(sampler);
  return { status, baseline, peakDuringUpload, peakUntilAnswer: peak, uploadMs, totalMs };
}

function row(label: string, value: string): string {
  return `  ${label.padEnd(44)}${value}`;
}

async function main(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    build();
    const key = createKey(dataDir);
    server = await startServer(dataDir);
    const idle = rssBytes(server.pid);
    const load = await loadTest(server.url, key);
    const small = Buffer.concat([Buffer.from(partHead('article.html')), articleHtml(SMALL_BYTES), Buffer.from(PART_TAIL)]);
    const settle = async () => {
      const headers = { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
      await Promise.all([1, 2, 3, 4].map(() => fetch(`${server?.url}/v2/parse`, { method: 'POST', headers, body: small }).then((r) => r.arrayBuffer())));
    };
    const memory = await bigUpload(server.url, key, server.pid, settle);
    const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
    const lines = [
      `folio server benchmark (${os.cpus().length} CPUs, Node ${process.version}${quick ? ', --quick' : ''})`,
      '',
      `POST /v2/parse, 20 KB HTML upload, ${CONNECTIONS} connections, ${load.duration.toFixed(1)} s after ${WARMUP_REQUESTS} warm-up requests`,
      row('requests/s (mean)', load.requests.average.toFixed(1)),
      row('latency p50 / p99 / max', `${load.latency.p50} / ${load.latency.p99} / ${load.latency.max} ms`),
      row('requests (2xx / non-2xx / errors)', `${load['2xx']} / ${load.non2xx} / ${load.errors}`),
      '',
      `One 50 MB HTML upload (answered ${memory.status}), server RSS sampled every 20 ms`,
      row('RSS idle after start', fmt(idle)),
      row('RSS baseline before the upload', fmt(memory.baseline)),
      row('peak RSS while the body arrives', `${fmt(memory.peakDuringUpload)} (+${fmt(memory.peakDuringUpload - memory.baseline)}, ${((memory.peakDuringUpload - memory.baseline) / BIG_BYTES).toFixed(2)}× the file)`),
      row('peak RSS until the answer (incl. parse)', `${fmt(memory.peakUntilAnswer)} (+${fmt(memory.peakUntilAnswer - memory.baseline)}, ${((memory.peakUntilAnswer - memory.baseline) / BIG_BYTES).toFixed(2)}× the file)`),
      row('upload time / time to answer', `${memory.uploadMs.toFixed(0)} / ${memory.totalMs.toFixed(0)} ms`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return load.non2xx === 0 && load.errors === 0 && memory.status === 200 ? 0 : 1;
  } finally {
    if (server) {
      const exited = new Promise((r) => server?.child.once('exit', r));
      server.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench/server.ts failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
