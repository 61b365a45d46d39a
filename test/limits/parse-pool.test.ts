import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParsePool } from '../../src/limits/parse-pool.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { readCorpus } from '../helpers/corpus.ts';

const page = readCorpus('html', 'readability', 'wikipedia', 'source.html');
const unexpected: string[] = [];
const pool = createParsePool({ size: 1, maxQueue: 2, workerMemoryMb: 1536, onUnexpectedError: (d) => unexpected.push(d) });

afterAll(async () => {
  await pool.close();
});

beforeAll(async () => {
  await pool.ready();
});

describe('parse pool', () => {
  it('parses in a worker thread and returns the data object', async () => {
    const data = await pool.run({ bytes: page, filename: 'wikipedia.html' }, parseOptions({ formats: ['markdown'] }));
    expect(data.metadata.contentType).toBe('text/html');
    expect(data.metadata.sourceURL).toBe('file:///wikipedia.html');
    expect(data.markdown).toContain('Wikipedia');
    expect(unexpected).toEqual([]);
  });

  it('carries a ServiceError from the worker with its code', async () => {
    await expect(pool.run({ bytes: Buffer.from('%PDF-1.4 not really'), filename: 'x.docx' }, parseOptions({}))).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
      status: 400,
    });
  });

  it('stops a parse that runs past its timeout with 408, and the next parse still works', async () => {
    // 40 copies of a large page: far more than 5 ms of work.
    const big = Buffer.concat(Array.from({ length: 40 }, () => page));
    const started = Date.now();
    await expect(pool.run({ bytes: big, filename: 'big.html' }, parseOptions({ timeout: 5 }))).rejects.toMatchObject({
      code: 'SCRAPE_TIMEOUT',
      status: 408,
    });
    expect(Date.now() - started).toBeLessThan(1000);
    const data = await pool.run({ bytes: page, filename: 'again.html' }, parseOptions({}));
    expect(data.markdown).toContain('Wikipedia');
  });

  it('marks a parse that waited for a slot as concurrency-limited', async () => {
    const [first, second] = await Promise.all([
      pool.run({ bytes: page, filename: 'a.html' }, parseOptions({})),
      pool.run({ bytes: page, filename: 'b.html' }, parseOptions({})),
    ]);
    expect(first?.metadata.concurrencyLimited).toBeUndefined();
    expect(second?.metadata.concurrencyLimited).toBe(true);
    expect(second?.metadata.concurrencyQueueDurationMs).toBeGreaterThan(0);
  });

  it('answers 429 when the queue is full, and loses none of the queued work', async () => {
    const runs = Array.from({ length: 3 }, (_, i) => pool.run({ bytes: page, filename: `q${i}.html` }, parseOptions({})));
    await expect(pool.run({ bytes: page, filename: 'over.html' }, parseOptions({}))).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    const done = await Promise.all(runs);
    expect(done.map((d) => d.metadata.sourceURL)).toEqual(['file:///q0.html', 'file:///q1.html', 'file:///q2.html']);
  });

  it('is warm before the first parse: every reader loaded, no cold start on the request path', async () => {
    const fresh = createParsePool({ size: 1, maxQueue: 1, workerMemoryMb: 1536 });
    try {
      await fresh.ready();
      const started = performance.now();
      await fresh.run({ bytes: readCorpus('pdf', 'pdfjs', 'rotation.pdf'), filename: 'r.pdf' }, parseOptions({}));
      // A cold worker takes seconds to load pdf.js and the other readers; a warm one parses this page in milliseconds.
      expect(performance.now() - started).toBeLessThan(1500);
    } finally {
      await fresh.close();
    }
  });

  it('drops a waiting parse when its client goes away, and lets a running one finish', async () => {
    const first = new AbortController();
    const second = new AbortController();
    const running = pool.run({ bytes: page, filename: 'running.html' }, parseOptions({}), { signal: first.signal });
    const waiting = pool.run({ bytes: page, filename: 'waiting.html' }, parseOptions({}), { signal: second.signal });
    expect(pool.load()).toEqual({ running: 1, queued: 1 });
    second.abort(new Error('client went away'));
    first.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    // The running parse keeps its worker (no restart for anyone) and completes.
    await expect(running).resolves.toMatchObject({ metadata: { sourceURL: 'file:///running.html' } });
    expect(pool.load()).toEqual({ running: 0, queued: 0 });
  });

  it('hands what a worker prints to onWorkerOutput instead of the process output', async () => {
    const lines: string[] = [];
    const chatty = createParsePool({ size: 1, maxQueue: 1, workerMemoryMb: 1536, onWorkerOutput: (line) => lines.push(line) });
    try {
      await chatty.ready();
      // One flipped byte inside a BIFF record of this workbook makes SheetJS print
      // "Missing Info for XLS Record …" while it still reads the rest.
      const damaged = Buffer.from(readCorpus('office', 'xls', 'tika-testEXCEL.xls'));
      damaged[9484] = (damaged[9484] ?? 0) ^ 0xff;
      await chatty.run({ bytes: damaged, filename: 'damaged.xls' }, parseOptions({})).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines.some((line) => line.includes('Missing Info for XLS Record'))).toBe(true);
    } finally {
      await chatty.close();
    }
  });
});
