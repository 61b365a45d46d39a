/**
 * Parse isolation through the real service: files that need gigabytes to read are stopped at the
 * parse process's memory cap (400 CORRUPT_FILE, "needs more than N MB"), the service's total RSS
 * (this process and every process below it) stays bounded and comes back, the killed processes
 * leave no temp folder and no zombie, the pool keeps its size, and the next request is served.
 *
 * The cap here is what is tested: the files are built so that only memory stops them (no limit
 * at the source applies on this branch; after the merge with source-limits, this file must set
 * those limits high so that the cap is still what answers).
 */
// test matrix: once — the parse processes' memory caps and RSS; the store only authenticates.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { hugeImagePdf, pathOperatorPdf } from '../helpers/memory-bombs.ts';
import { descendants, parseChildren, parseChildTempDir, sampleTreeRss, treeRssMb } from '../helpers/process-tree.ts';
import { postParse, request, startTestService, upload, type TestService } from './helpers.ts';

/** A parse process idles near 530 MB under tsx, far lower compiled (as here); 1280 leaves either ~750 MB or more to work with. */
const CAP_MB = 1280;
const ANSWER_WITHIN_MS = 90_000;
let service: TestService;
let pathPdf: Buffer;
let imagePdf: Buffer;
/** The service's total RSS when idle and warm, before any hostile file. */
let idle = 0;
const page = readCorpus('pdf', 'pdfjs', 'rotation.pdf');

async function until<T>(probe: () => T | undefined, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`not reached within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The pool is back to its size, no process below this one is a zombie (a killed child is reaped
 * once this process's event loop sees its exit), and the total RSS is near `start`.
 */
async function settled(start: number): Promise<number> {
  return until(
    () => {
      const total = treeRssMb();
      const zombies = descendants().filter((p) => p.state === 'Z');
      return parseChildren().length === 2 && zombies.length === 0 && total < Math.max(start, idle) + 300 ? total : undefined;
    },
    30_000,
    `two parse processes, no zombie and total RSS back under ${(Math.max(start, idle) + 300).toFixed(0)} MB (now ${treeRssMb().toFixed(0)} MB, ${parseChildren().length} children, zombies: ${JSON.stringify(descendants().filter((p) => p.state === 'Z'))})`,
  );
}

/** Bounded wait for the pool's exit handler to remove a killed child's temp folder. */
async function removed(dir: string): Promise<boolean> {
  return until(() => (fs.existsSync(dir) ? undefined : true), 5000, `${dir} removed`);
}

async function parsesNormally(): Promise<void> {
  const res = await postParse(service, upload('rotation.pdf', page), { timeoutMs: 30_000 });
  expect(res.status).toBe(200);
}

/**
 * The limits at the source (docs/parsing.md "Limits at the source") refuse these files before
 * they grow; here they are set out of reach, so that the memory cap is what answers.
 */
const SOURCE_LIMITS_OUT_OF_REACH = {
  FOLIO_MAX_PDF_STREAM_MB: '65536',
  FOLIO_MAX_IMAGE_MEGAPIXELS: '100000',
  FOLIO_MAX_PDF_OPERATORS: '1000000000',
  FOLIO_MAX_PDF_PATH_SEGMENTS: '1000000000',
};

beforeAll(async () => {
  [pathPdf, imagePdf] = await Promise.all([pathOperatorPdf(400), hugeImagePdf(24_000)]);
  service = await startTestService({}, { ...SOURCE_LIMITS_OUT_OF_REACH, FOLIO_PARSE_WORKER_MEMORY_MB: String(CAP_MB), FOLIO_PARSE_WORKER_RECYCLE_MB: '1024' });
  await parsesNormally();
  await new Promise((r) => setTimeout(r, 1000));
  idle = treeRssMb();
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

describe('a parse process past its memory cap', () => {
  it.each([
    ['a 2 MB PDF whose content stream inflates to 400 MB of path operators', 'paths.pdf', () => pathPdf],
    ['a PDF showing one 24000×24000 image (1.6 GB inflated)', 'image.pdf', () => imagePdf],
  ])('%s: 400 CORRUPT_FILE in bounded time and memory, then everything back', async (_label, name, file) => {
    expect(file().length).toBeLessThan(3 * 1024 * 1024);
    const start = await settled(idle);
    const before = parseChildren();
    const rss = sampleTreeRss();
    const started = Date.now();
    const res = await postParse(service, upload(name, file(), { timeout: 120_000 }), { timeoutMs: ANSWER_WITHIN_MS });
    const elapsed = Date.now() - started;
    const peak = rss.stop();
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ success: false, code: 'CORRUPT_FILE' });
    expect(res.json.error).toContain(`needs more than ${CAP_MB} MB of memory to read`);
    expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
    // One process grew from its idle size to the cap (plus at most one 50 ms sample of growth).
    expect(peak - start).toBeLessThan(CAP_MB);
    const after = await settled(start);
    process.stdout.write(`${name}: ${elapsed} ms, service RSS (idle ${idle.toFixed(0)}) ${start.toFixed(0)} → peak ${peak.toFixed(0)} → ${after.toFixed(0)} MB\n`);

    // The killed process is gone with its temp folder; nothing below this process is a zombie.
    const now = new Set(parseChildren().map((c) => c.pid));
    const killed = before.filter((c) => !now.has(c.pid));
    expect(killed).toHaveLength(1);
    const dir = parseChildTempDir(killed[0] as (typeof killed)[number]);
    expect(dir).toBeDefined();
    expect(await removed(dir as string)).toBe(true);
    await parsesNormally();
  }, 180_000);

  it('two at once: both 400, total RSS under two caps, then back', async () => {
    const start = await settled(idle);
    const rss = sampleTreeRss();
    const started = Date.now();
    const [a, b] = await Promise.all([
      postParse(service, upload('paths.pdf', pathPdf, { timeout: 120_000 }), { timeoutMs: ANSWER_WITHIN_MS }),
      postParse(service, upload('image.pdf', imagePdf, { timeout: 120_000 }), { timeoutMs: ANSWER_WITHIN_MS }),
    ]);
    const elapsed = Date.now() - started;
    const peak = rss.stop();
    for (const res of [a, b]) {
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'CORRUPT_FILE' });
    }
    expect(peak - start).toBeLessThan(2 * CAP_MB);
    const after = await settled(start);
    process.stdout.write(`two at once: ${elapsed} ms, service RSS (idle ${idle.toFixed(0)}) ${start.toFixed(0)} → peak ${peak.toFixed(0)} → ${after.toFixed(0)} MB\n`);
    await parsesNormally();
  }, 180_000);
});

describe('a busy pool', () => {
  let busy: TestService;
  beforeAll(async () => {
    // One team may run more than the pool holds: what waits here waits for a parse process (docs/limits.md), not its team's turn.
    busy = await startTestService({}, { ...SOURCE_LIMITS_OUT_OF_REACH, FOLIO_MAX_CONCURRENT_PARSES: '1', FOLIO_MAX_QUEUED_PARSES: '1', FOLIO_DEFAULT_MAX_CONCURRENT: '8' });
  }, 60_000);
  afterAll(async () => {
    await busy?.stop();
  });

  it('answers a full queue and a parse that never left the queue 429 with Retry-After', async () => {
    // Holds the only parse process for seconds, until the memory cap stops it.
    const hog = postParse(busy, upload('paths.pdf', pathPdf, { timeout: 120_000 }), { timeoutMs: ANSWER_WITHIN_MS });
    await until(() => (parseChildren().some((c) => c.rssMb > 700) ? true : undefined), 30_000, 'the hog parse running');

    const waited = await postParse(busy, upload('rotation.pdf', page, { timeout: 1000 }), { timeoutMs: 30_000 });
    expect(waited.status).toBe(429);
    expect(waited.json).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(waited.json.error).toContain('waited in the queue for its whole timeout of 1000 ms');
    expect(Number(waited.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Its timeout outlasts the hog, however long a loaded machine takes to reach the cap.
    const queued = postParse(busy, upload('rotation.pdf', page, { timeout: 120_000 }), { timeoutMs: ANSWER_WITHIN_MS });
    // `queued` holds the queue's one place before `full` is sent: two requests sent at once reach
    // the queue in either order once the key lookup is a network round trip (PostgreSQL).
    const end = Date.now() + 30_000;
    while (Number((await request(`${busy.url}/v2/team/queue-status`, { headers: { authorization: `Bearer ${busy.key}` } })).json.jobsInQueue) < 2) {
      if (Date.now() > end) throw new Error('the second parse did not reach the queue within 30 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const full = await postParse(busy, upload('rotation.pdf', page), { timeoutMs: 30_000 });
    expect(full.status).toBe(429);
    expect(full.json.error).toContain('Too many parses are waiting (1)');
    expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    expect((await hog).status).toBe(400);
    expect((await queued).status).toBe(200);
  }, 180_000);
});
