/**
 * What `npm start` runs: the compiled build. The suite otherwise runs the TypeScript sources
 * (only the parse processes of the tests' services run compiled, from dist/), so this is the one
 * test of the whole compiled server: build into a scratch folder, start the server with plain
 * node, parse a PDF and a DOCX.
 */
// test matrix: once — the compiled build's parse workers; the store only authenticates.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from './helpers/corpus.ts';
import { testStoreEnv } from './helpers/test-store.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Inside the repo, so that the compiled files resolve node_modules as dist/ does.
const outDir = path.join(root, '.tmp', `build-test-${process.pid}`);
const mainJs = path.join(outDir, 'src', 'main.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-build-test-'));

let server: ChildProcess | undefined;
let url = '';
let key = '';

beforeAll(async () => {
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  const build = spawnSync(tsc, ['-p', 'tsconfig.build.json', '--outDir', outDir, '--tsBuildInfoFile', path.join(outDir, '.tsbuildinfo')], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(build.status, build.stdout + build.stderr).toBe(0);

  const env = { ...process.env, DATA_DIR: dataDir, ...(await testStoreEnv(dataDir)), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', FOLIO_MAX_CONCURRENT_PARSES: '1' };
  const created = spawnSync(process.execPath, [mainJs, 'keys', 'create', '--team', 'build'], { env, encoding: 'utf8' });
  key = created.stdout.trim();
  expect(key).toMatch(/^folio_/);

  const child = spawn(process.execPath, [mainJs, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server = child;
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no URL logged within 30 s: ${seen}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const m = /"url":"(http:\/\/[^"]+)"/.exec(seen);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${seen}`)));
  });
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function parseUpload(file: Buffer, filename: string, options: object): Promise<{ status: number; body: { success: boolean; data?: { markdown?: string; metadata: Record<string, unknown> } } }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), filename);
  form.append('options', JSON.stringify(options));
  const res = await fetch(`${url}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  return { status: res.status, body: (await res.json()) as { success: boolean } };
}

describe('the compiled build (npm start)', () => {
  it('parses a PDF in a compiled worker', async () => {
    const { status, body } = await parseUpload(readCorpus('pdf', 'pdfjs', 'tracemonkey.pdf'), 'tracemonkey.pdf', { parsers: [{ type: 'pdf', maxPages: 1 }] });
    expect(status).toBe(200);
    expect(body.data?.markdown).toContain('Trace-based Just-in-Time Type Specialization for Dynamic Languages');
    expect(body.data?.metadata).toMatchObject({ numPages: 1, totalPages: 14 });
  });

  it('parses a DOCX with its tables', async () => {
    const { status, body } = await parseUpload(readCorpus('office', 'docx', 'docling-word_tables.docx'), 'tables.docx', { formats: ['markdown'] });
    expect(status).toBe(200);
    // Merged cells make an HTML table (docs/parsing.md "Markdown"), each merged cell once.
    expect(body.data?.markdown).toContain('<tr><td>Cell 1.0</td><td colspan="2">Merged Cell 1.1 1.2</td></tr>');
  });

  it('stops a parse past its timeout in a compiled worker and keeps serving', async () => {
    const big = Buffer.concat(Array.from({ length: 30 }, () => readCorpus('html', 'readability', 'wikipedia', 'source.html')));
    const slow = await parseUpload(big, 'big.html', { timeout: 5 });
    expect(slow.status).toBe(408);
    const again = await parseUpload(readCorpus('html', 'markitdown', 'test_blog.html'), 'blog.html', {});
    expect(again.status).toBe(200);
  });
});
