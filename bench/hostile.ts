/**
 * Hostile-file benchmark (`npm run bench:hostile`, `npx tsx bench/hostile.ts`).
 *
 * Builds and starts the compiled server as `npm start` does (defaults: FOLIO_PARSE_WORKER_MEMORY_MB
 * and every other limit as shipped), then posts, one at a time, each hostile file beside a normal
 * file of the same format: zip-bomb .docx and .odt (a part that claims 200 KB and inflates to
 * 1 GiB), a PDF whose content stream inflates to 400 MB of path operators, a PDF showing one
 * 20000×20000 image, HTML nested a million deep and 40 MB of flat HTML. For each: status and
 * code, time to answer, the service's RSS (server + parse processes, from /proc) before, at its
 * peak (sampled every 20 ms) and 2 s after the answer. Every request carries `timeout: 30000`, so
 * the whole run stays within a few minutes. Prints a table; exits 1 if any answer was a 5xx or
 * the server died.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCorpus } from '../test/helpers/corpus.ts';
import { deepHtml, docxZipBomb, hugeHtml, hugeImagePdf, odtZipBomb, pathOperatorPdf } from '../test/helpers/memory-bombs.ts';
import { startServer, treeRssBytes } from './served.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mainJs = path.join(root, 'dist', 'src', 'main.js');
const TIMEOUT_MS = 30_000;
const MB = 1024 * 1024;
const BOUNDARY = 'folio-bench-hostile-boundary-b2nA7';

interface Case {
  format: string;
  kind: 'normal' | 'hostile';
  label: string;
  filename: string;
  bytes: () => Promise<Buffer> | Buffer;
}

const cases: Case[] = [
  { format: 'docx', kind: 'normal', label: 'docling-Transitional.docx (corpus)', filename: 'normal.docx', bytes: () => readCorpus('office', 'docx', 'docling-Transitional.docx') },
  { format: 'docx', kind: 'hostile', label: 'zip bomb: document.xml claims 200 KB, inflates to 1 GiB', filename: 'bomb.docx', bytes: () => docxZipBomb(1024) },
  { format: 'odt', kind: 'normal', label: 'docling-text_document_01.odt (corpus)', filename: 'normal.odt', bytes: () => readCorpus('office', 'odt', 'docling-text_document_01.odt') },
  { format: 'odt', kind: 'hostile', label: 'zip bomb: content.xml claims 200 KB, inflates to 1 GiB', filename: 'bomb.odt', bytes: () => odtZipBomb(1024) },
  { format: 'pdf', kind: 'normal', label: 'tracemonkey.pdf (corpus, 14 pages)', filename: 'normal.pdf', bytes: () => readCorpus('pdf', 'pdfjs', 'tracemonkey.pdf') },
  { format: 'pdf', kind: 'hostile', label: 'content stream of 400 MB of path operators', filename: 'paths.pdf', bytes: () => pathOperatorPdf(400) },
  { format: 'pdf', kind: 'hostile', label: 'one 20000×20000 RGB image', filename: 'image.pdf', bytes: () => hugeImagePdf(20_000) },
  { format: 'html', kind: 'normal', label: 'wikipedia page (corpus, readability)', filename: 'normal.html', bytes: () => readCorpus('html', 'readability', 'wikipedia', 'source.html') },
  { format: 'html', kind: 'hostile', label: '1,000,000 nested <div>', filename: 'deep.html', bytes: () => deepHtml(1_000_000) },
  { format: 'html', kind: 'hostile', label: '40 MB of flat paragraphs and links', filename: 'huge.html', bytes: () => hugeHtml(40) },
];

function run(cmd: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(cmd, args, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

function multipart(filename: string, bytes: Buffer): Buffer {
  const options = JSON.stringify({ timeout: TIMEOUT_MS });
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="options"\r\n\r\n${options}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

interface Row {
  c: Case;
  size: number;
  status: number;
  code: string;
  ms: number;
  before: number;
  peak: number;
  after: number;
}

async function measure(url: string, key: string, pid: number, c: Case): Promise<Row> {
  const bytes = await c.bytes();
  const before = treeRssBytes(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRssBytes(pid));
  }, 20);
  const t0 = performance.now();
  const res = await fetch(`${url}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: new Uint8Array(multipart(c.filename, bytes)),
    signal: AbortSignal.timeout(TIMEOUT_MS + 30_000),
  });
  const body = (await res.json().catch(() => ({}))) as { code?: string };
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, treeRssBytes(pid));
  // Killed and recycled processes are replaced in the background: give them 2 s.
  await new Promise((r) => setTimeout(r, 2000));
  return { c, size: bytes.length, status: res.status, code: res.ok ? 'ok' : (body.code ?? '?'), ms, before, peak, after: treeRssBytes(pid) };
}

async function main(): Promise<number> {
  const started = performance.now();
  run(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-hostile-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const key = run(process.execPath, [mainJs, 'keys', 'create', '--team', 'bench'], { DATA_DIR: dataDir });
    server = await startServer(mainJs, root, dataDir);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = treeRssBytes(server.pid);
    const rows: Row[] = [];
    for (const c of cases) {
      rows.push(await measure(server.url, key, server.pid, c));
      if (server.child.exitCode !== null) throw new Error(`the server died during ${c.filename}`);
    }
    const fmtMb = (b: number) => (b / MB).toFixed(0).padStart(6);
    const size = (b: number) => (b >= MB ? `${(b / MB).toFixed(1)} MB` : `${(b / 1024).toFixed(0)} KB`).padStart(9);
    const header = `${'format'.padEnd(7)}${'kind'.padEnd(9)}${'file'.padEnd(58)}${'size'.padStart(9)}  ${'answer'.padEnd(22)}${'time'.padStart(9)}  ${'RSS MB before'.padStart(13)}${'peak'.padStart(7)}${'after'.padStart(7)}`;
    const lines = [
      `folio hostile-file benchmark (${os.cpus().length} CPUs, Node ${process.version}; server defaults, timeout ${TIMEOUT_MS} ms per request)`,
      `service RSS (server + parse processes) idle after start: ${(idle / MB).toFixed(0)} MB`,
      '',
      header,
      '-'.repeat(header.length),
      ...rows.map(
        (r) =>
          `${r.c.format.padEnd(7)}${r.c.kind.padEnd(9)}${r.c.label.slice(0, 56).padEnd(58)}${size(r.size)}  ${`${r.status} ${r.code}`.padEnd(22)}${`${(r.ms / 1000).toFixed(2)} s`.padStart(9)}  ${fmtMb(r.before).padStart(13)}${fmtMb(r.peak).padStart(7)}${fmtMb(r.after).padStart(7)}`,
      ),
      '',
      `total run time ${((performance.now() - started) / 1000).toFixed(0)} s`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return rows.some((r) => r.status >= 500) ? 1 : 0;
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
    process.stderr.write(`bench/hostile.ts failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
