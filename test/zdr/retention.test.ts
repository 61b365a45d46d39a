/**
 * Zero Data Retention (docs/zdr.md): a marker string planted in a document of each accepted format
 * goes through every door under `zeroDataRetention: true` — multipart parse (the Firecrawl SDK),
 * uploadRef parse, scrape, crawl and batch scrape of a local site (ZDR scrapeOptions), MCP parse
 * with a result long enough to be continued, MCP scrape — and then DATA_DIR, the temp directory of
 * the service and its parse workers, and the captured log lines hold no trace of it (UTF-8 or
 * UTF-16). The same scan finds it where retention is expected: an upload waiting for its parse,
 * and crawl and batch results of jobs without ZDR (the results table in DATA_DIR).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDARY, request, spoolFiles, startTestService, storeAtRest, type TestService } from '../http/helpers.ts';
import { redisText } from '../helpers/test-store.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';
import { longMarkerHtml, markerDocuments, type MarkerDocument } from './marker-documents.ts';

/**
 * The service's temp directory: everything this test file starts (the service, its DATA_DIR, its
 * parse worker processes, their OCR files) resolves os.tmpdir() here, so the scan covers it all.
 * Set before anything is started; vitest runs each test file in a process of its own.
 */
const TEMP_ROOT = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-zdr-'));
process.env.TMPDIR = TEMP_ROOT;

const MARKER = `ZDRMARK${randomBytes(10).toString('hex')}`;
const documents = markerDocuments(MARKER);
const LONG = longMarkerHtml(MARKER);

/** The marker as UTF-8 and as UTF-16 (LE and BE): BIFF8 .xls files hold their strings in UTF-16. */
const NEEDLES = [Buffer.from(MARKER, 'utf8'), Buffer.from(MARKER, 'utf16le'), Buffer.from(MARKER, 'utf16le').swap16()];
const holdsMarker = (bytes: Buffer) => NEEDLES.some((n) => bytes.includes(n));

/** Every file under `dir` whose bytes hold the marker in UTF-8 or UTF-16. */
function filesHoldingMarker(dir: string): string[] {
  const hits: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      continue; // removed while the scan ran
    }
    if (holdsMarker(bytes)) hits.push(path.relative(dir, file));
  }
  return hits;
}

/**
 * Where the marker is: files under the temp root (the SQLite store among them), log lines, and, in
 * the postgres+redis project, every row of the PostgreSQL database and every key of Redis.
 */
async function scan(service: TestService): Promise<{ disk: string[]; logs: boolean; database: boolean; redis: boolean }> {
  const database = service.databaseUrl !== undefined && holdsMarker(await storeAtRest(service));
  const redisUrl = service.storeEnv.REDIS_URL;
  const redis = redisUrl !== undefined && holdsMarker(Buffer.from(await redisText(redisUrl)));
  return { disk: filesHoldingMarker(TEMP_ROOT), logs: service.logText().includes(MARKER), database, redis };
}

/** A local site: `/` links every document; `/docs/note.<ext>` serves each; `/long.html` the long page. */
async function startMarkerSite(): Promise<{ url: string; hostPort: string; close(): Promise<void> }> {
  const byPath = new Map<string, MarkerDocument>(documents.map((d) => [`/docs/${d.filename}`, d]));
  const server = http.createServer((req, res) => {
    const doc = byPath.get(req.url ?? '');
    if (doc) {
      res.writeHead(200, { 'content-type': doc.contentType, 'content-length': doc.bytes.length });
      res.end(doc.bytes);
    } else if (req.url === '/') {
      const links = documents.map((d) => `<li><a href="/docs/${d.filename}">${d.format}</a></li>`).join('');
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><body><main><h1>Index</h1><ul>${links}</ul></main></body></html>`);
    } else if (req.url === '/long.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(LONG);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let site: Awaited<ReturnType<typeof startMarkerSite>>;
let service: TestService;
let client: Firecrawl;

beforeAll(async () => {
  site = await startMarkerSite();
  // The real parse pool (worker processes with their temp folders), teams allowed ZDR.
  service = await startTestService({}, { FOLIO_DEFAULT_ZDR: 'on', FOLIO_FETCH_ALLOW: site.hostPort });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});

afterAll(async () => {
  await service?.stop();
  await site?.close();
  fs.rmSync(TEMP_ROOT, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${service.key}` });

async function uploadTicket(doc: { filename: string; bytes: Buffer }): Promise<string> {
  const ticket = await request(`${service.url}/v2/uploads`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ filename: doc.filename })),
  });
  expect(ticket.status).toBe(200);
  const put = await request(String(ticket.json.uploadUrl), { method: 'PUT', body: doc.bytes });
  expect(put.status).toBe(200);
  return String(ticket.json.uploadRef);
}

/**
 * Sends a multipart parse whose file part stops half-way for a while: returns the spool files
 * seen while the file was arriving (looked for every 20 ms until `enough` says so, or for
 * `ms`), how long that took, then the response status once the file is complete.
 */
async function spoolDuringUpload(options: Record<string, unknown>, ms: number, enough: (files: string[]) => boolean = () => false): Promise<{ spooled: string[]; status: number; tookMs: number }> {
  const doc = documents[0] as MarkerDocument;
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="options"\r\n\r\n${JSON.stringify(options)}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${doc.filename}"\r\nContent-Type: text/html\r\n\r\n`,
  );
  const half = Math.floor(doc.bytes.length / 2);
  const tail = Buffer.concat([doc.bytes.subarray(half), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
  const req = http.request(`${service.url}/v2/parse`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(head.length + half + tail.length) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(Buffer.concat([head, doc.bytes.subarray(0, half)]));
  const t0 = Date.now();
  const spooled = new Set<string>();
  while (Date.now() - t0 < ms) {
    await new Promise((r) => setTimeout(r, 20));
    for (const f of spoolFiles(service)) spooled.add(f);
    if (enough([...spooled])) break;
  }
  const tookMs = Date.now() - t0;
  req.end(tail);
  return { spooled: [...spooled], status: await answered, tookMs };
}

describe('Zero Data Retention: the marker scan', () => {
  it('a ZDR multipart upload (options part first) is received into memory, never into a spool file', async () => {
    // Without ZDR the half-sent file shows up as a spool file (waited for: slower under load).
    const plain = await spoolDuringUpload({}, 15_000, (files) => files.length > 0);
    expect(plain.status).toBe(200);
    expect(plain.spooled).toHaveLength(1);
    // With ZDR none appears, looked for over twice that time (and at least 300 ms).
    const zdr = await spoolDuringUpload({ zeroDataRetention: true }, Math.max(300, 2 * plain.tookMs));
    expect(zdr.status).toBe(200);
    expect(zdr.spooled).toEqual([]);
  });

  it('every document carries the marker in its own bytes (so a stored copy would be found)', () => {
    expect(documents.map((d) => d.format)).toEqual(['html', 'pdf', 'docx', 'doc', 'odt', 'rtf', 'xlsx', 'xls']);
    for (const d of documents) expect(holdsMarker(d.bytes), d.format).toBe(true);
  });

  it('ZDR parses, scrapes, crawl, batch scrape and MCP calls leave no trace in DATA_DIR, the temp dir or the logs', async () => {
    // Multipart parse with the Firecrawl SDK (it sends the options part first).
    for (const d of documents) {
      const doc = await client.parse({ data: d.bytes, filename: d.filename, contentType: d.contentType }, { formats: ['markdown'], zeroDataRetention: true });
      expect(doc.markdown, `${d.format} by multipart`).toContain(MARKER);
    }

    // uploadRef parse: the stored upload is on disk until the parse takes it (the scan sees it there).
    for (const d of documents) {
      const ref = await uploadTicket(d);
      expect(filesHoldingMarker(TEMP_ROOT).some((f) => f.includes(`${path.sep}uploads${path.sep}`)), `${d.format} upload waiting on disk`).toBe(true);
      const parsed = await request(`${service.url}/v2/parse`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ uploadRef: ref, zeroDataRetention: true })),
      });
      expect(parsed.status, `${d.format} by uploadRef: ${parsed.text.slice(0, 200)}`).toBe(200);
      expect(JSON.stringify(parsed.json)).toContain(MARKER);
      expect(filesHoldingMarker(TEMP_ROOT), `${d.format}: upload deleted`).toEqual([]);
    }

    // Scrape of each document on the local site.
    for (const d of documents) {
      const doc = await client.scrape(`${site.url}/docs/${d.filename}`, { formats: ['markdown'], zeroDataRetention: true });
      expect(doc.markdown, `${d.format} by scrape`).toContain(MARKER);
    }

    // Crawl with ZDR scrapeOptions, and batch scrape with ZDR: results read back (from memory).
    // Firecrawl's scrapeOptions field, which the SDK's type leaves out (it passes it through).
    const zdrScrapeOptions = { formats: ['markdown' as const], zeroDataRetention: true };
    const crawl = await client.crawl(`${site.url}/`, { limit: 20, scrapeOptions: zdrScrapeOptions, pollInterval: 1, timeout: 120 });
    expect(crawl.status).toBe('completed');
    expect(crawl.data.filter((p) => p.markdown?.includes(MARKER)).length).toBe(documents.length);
    const batch = await client.batchScrape(
      documents.map((d) => `${site.url}/docs/${d.filename}`),
      { options: { formats: ['markdown'] }, zeroDataRetention: true, pollInterval: 1, timeout: 120 },
    );
    expect(batch.status).toBe('completed');
    expect(batch.data.filter((p) => p.markdown?.includes(MARKER)).length).toBe(documents.length);

    // MCP: a long parse that would be continued by resultId, and a scrape.
    const mcp = await connectMcp(`${service.url}/v2/mcp`, auth());
    try {
      const ref = await uploadTicket({ filename: 'long.html', bytes: LONG });
      const first = await mcp.callTool({ name: 'parse', arguments: { uploadRef: ref, zeroDataRetention: true, maxChars: 500 } });
      const continuation = structuredOf(first).continuation as { resultId: string | null; nextOffset: number | null; note?: string };
      expect(textOf(first)).toContain(MARKER);
      expect(continuation.nextOffset).toBe(500);
      expect(continuation.resultId).toBeNull();
      expect(continuation.note).toContain('zeroDataRetention');
      const scraped = await mcp.callTool({ name: 'scrape', arguments: { url: `${site.url}/long.html`, zeroDataRetention: true, maxChars: 500 } });
      expect(textOf(scraped)).toContain(MARKER);
    } finally {
      await mcp.close();
    }

    expect(await scan(service)).toEqual({ disk: [], logs: false, database: false, redis: false });
  });

  it('the same scan finds the marker where retention is expected: results of jobs without ZDR, and a kept MCP result', async () => {
    const batch = await client.batchScrape([`${site.url}/docs/note.html`], { options: { formats: ['markdown'] }, pollInterval: 1, timeout: 120 });
    expect(batch.data[0]?.markdown).toContain(MARKER);
    const crawl = await client.crawl(`${site.url}/`, { limit: 3, scrapeOptions: { formats: ['markdown'] }, pollInterval: 1, timeout: 120 });
    expect(crawl.status).toBe('completed');
    const found = await scan(service);
    if (service.databaseUrl === undefined) {
      // The results table of the SQLite store (its file or its write-ahead log).
      expect(found.disk.length).toBeGreaterThan(0);
      expect(found.disk.every((f) => /folio\.db/.test(f))).toBe(true);
    } else {
      // The results table of the PostgreSQL store, and nothing on disk.
      expect(found.database).toBe(true);
      expect(found.disk).toEqual([]);
    }

    // MCP without ZDR: the long result is kept for continuation (in memory) and read back by resultId.
    const mcp = await connectMcp(`${service.url}/v2/mcp`, auth());
    try {
      const ref = await uploadTicket({ filename: 'long.html', bytes: LONG });
      const first = await mcp.callTool({ name: 'parse', arguments: { uploadRef: ref, maxChars: 500 } });
      const { resultId } = structuredOf(first).continuation as { resultId: string };
      expect(resultId).toMatch(/^res_/);
      const next = await mcp.callTool({ name: 'parse', arguments: { resultId, offset: 500, maxChars: 500 } });
      expect(textOf(next)).toContain(MARKER);
    } finally {
      await mcp.close();
    }
  });
});
