/**
 * Graceful shutdown of the real CLI (`folio serve`, spawned; docs/operations.md): on SIGTERM the
 * instance stops being ready, refuses new work with 503 SHUTTING_DOWN and Retry-After, lets the
 * upload in flight finish, hands its running crawl back (the next start on the same DATA_DIR
 * finishes it) and exits 0; a request that does not finish within FOLIO_SHUTDOWN_GRACE_SECONDS
 * has its connection closed and the process still exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { BOUNDARY, multipartBody, postParse, request, upload } from '../http/client.ts';
import { startSite, type TestSite } from '../web/site.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * `node --import tsx`, one process: the `tsx` launcher relays SIGTERM to its child and, when the
 * child does not acknowledge within 30 ms (a loaded machine), SIGKILLs it and exits 143.
 */
const fromSource = (...args: string[]) => [process.execPath, ['--import', 'tsx', 'src/main.ts', ...args]] as const;

interface Served {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

let site: TestSite;
const dataDirs: string[] = [];
const children: ChildProcess[] = [];

/** DATABASE_URL and REDIS_URL of each DATA_DIR in the postgres+redis project (test/helpers/test-store.ts). */
const storeEnvs = new Map<string, Record<string, string>>();

async function newDataDir(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-shutdown-'));
  dataDirs.push(dir);
  storeEnvs.set(dir, await testStoreEnv(dir));
  return dir;
}

function env(dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, DATA_DIR: dataDir, ...storeEnvs.get(dataDir), LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', FOLIO_MAX_CONCURRENT_PARSES: '1', FOLIO_FETCH_ALLOW: site.hostPort, ...extra };
}

async function createKey(dataDir: string): Promise<string> {
  const child = spawn(...fromSource('keys', 'create', '--team', 'ops'), { cwd: root, env: env(dataDir, {}) });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  return out.trim();
}

async function serve(dataDir: string, extra: Record<string, string> = {}): Promise<Served> {
  const child = spawn(...fromSource('serve'), { cwd: root, env: env(dataDir, extra) });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 60 s: ${out}`)), 60_000);
    child.stdout?.on('data', () => {
      const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url, output: () => out, exited };
}

/** A POST /v2/parse whose body is half sent; `finish()` sends the rest. */
function halfSentUpload(url: string, key: string) {
  const body = multipartBody(upload('blog.html', readCorpus('html', 'markitdown', 'test_blog.html')));
  const req = http.request(`${url}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(body.length) },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, 1000));
  return { answer, finish: () => req.end(body.subarray(1000)) };
}

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  site = await startSite({ pages: 10 });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await site?.close();
  for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('folio serve on SIGTERM', () => {
  it('drains: not ready, new work 503 with Retry-After, the upload in flight answered, the crawl handed back and finished by the next start', async () => {
    const dataDir = await newDataDir();
    const key = await createKey(dataDir);
    const first = await serve(dataDir);
    expect((await request(`${first.url}/ready`)).status).toBe(200);

    // A crawl slow enough (0.3 s per page) to be running when the signal comes.
    const { id } = await new Firecrawl({ apiKey: key, apiUrl: first.url }).startCrawl(`${site.url}/`, { delay: 0.3, limit: 30 });
    await until('two crawled pages', () => new Firecrawl({ apiKey: key, apiUrl: first.url }).getCrawlStatus(id), (s) => s.completed >= 2);

    const slow = halfSentUpload(first.url, key);
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill('SIGTERM');
    const ready = await until('/ready to answer 503', () => request(`${first.url}/ready`), (r) => r.status === 503, 10_000);
    expect(ready.json).toMatchObject({ ready: false });
    expect(ready.headers['retry-after']).toBe('5');
    // Alive all the same: /health is liveness.
    expect((await request(`${first.url}/health`)).status).toBe(200);

    const refused = await postParse({ url: first.url, key }, upload('blog.html', readCorpus('html', 'markitdown', 'test_blog.html')));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json).toMatchObject({ success: false, code: 'SHUTTING_DOWN' });
    expect(String(refused.json.error)).toMatch(/shutting down.*Retry in 5 s/);
    expect(first.child.exitCode).toBeNull();

    slow.finish();
    const answered = await slow.answer;
    expect(answered.status).toBe(200);
    expect(answered.text).toContain('GPT-4 is currently the state of the art LLM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');
    expect(first.output()).not.toContain(key);
    await expect(request(`${first.url}/health`, { timeoutMs: 2000 })).rejects.toThrow();

    // The crawl was handed back, not lost: the next process on the same DATA_DIR finishes it.
    const second = await serve(dataDir);
    const client = new Firecrawl({ apiKey: key, apiUrl: second.url });
    const job = await until('the crawl to complete', () => client.getCrawlStatus(id), (s) => s.status !== 'scraping', 60_000);
    expect(job.status).toBe('completed');
    const urls = job.data.map((d) => d.metadata?.sourceURL ?? '');
    expect(new Set(urls).size).toBe(urls.length);
    for (let n = 1; n <= 10; n++) expect(urls).toContain(`${site.url}/pages/${n}.html`);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('closes a request that outlives FOLIO_SHUTDOWN_GRACE_SECONDS, and exits', async () => {
    const dataDir = await newDataDir();
    const key = await createKey(dataDir);
    const served = await serve(dataDir, { FOLIO_SHUTDOWN_GRACE_SECONDS: '1' });
    const stuck = halfSentUpload(served.url, key);
    const failed = stuck.answer.then(
      () => 'answered',
      () => 'connection closed',
    );
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    // The grace (1 s), then the stores close: well under the 15 s the body's idle timeout would take.
    expect(Date.now() - signalled).toBeLessThan(12_000);
    expect(await failed).toBe('connection closed');
    expect(served.output()).toContain('did not finish within the grace period');
  });
});
