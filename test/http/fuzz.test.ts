/**
 * Damaged input through the whole service: a few hundred truncated and byte-flipped versions
 * (seeded PRNG, so a failure reproduces) of small corpus documents of every family. Every answer
 * is 200 or a 400 in the error shape, never a 500, none hangs, no spool file is left, and the
 * server still answers afterwards.
 */
// test matrix: once — damaged documents through the readers; the store only authenticates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { postParse, request, spoolDrained, startTestService, upload, type TestService } from './helpers.ts';
import { mulberry32 as prng } from '../helpers/prng.ts';

const SOURCES = [
  ['html', 'markitdown', 'test_blog.html'],
  ['html', 'defuddle', 'fixtures', 'custom-elements--swiper-carousel.html'],
  ['office', 'docx', 'kreuzberg-extraction_test.docx'],
  ['office', 'docx', 'mammoth-tables.docx'],
  ['office', 'xlsx', 'kreuzberg-stanley_cups.xlsx'],
  ['office', 'xlsx', 'tika-testEXCEL_poi.xlsx'],
  ['office', 'xls', 'tika-testEXCEL.xls'],
  ['office', 'xls', 'sheetjs-A4X_gnumeric.xls'],
  ['pdf', 'pdfjs', 'rotation.pdf'],
  ['pdf', 'docling', 'bookmark_sample.pdf'],
] as const;
const VARIANTS_PER_FILE = 30;
/** As many requests at once as the pool has workers: no request's time is spent queued. */
const PARALLEL = 4;
/** The parse `timeout` option; a parse still running then is a hang (answered 408). */
const PARSE_TIMEOUT_MS = 10_000;
const PER_REQUEST_MS = 20_000;
const CLIENT_ERROR_CODES = ['BAD_REQUEST', 'UNSUPPORTED_FILE_TYPE', 'CORRUPT_FILE', 'ENCRYPTED_FILE', 'NOT_YET_SUPPORTED'];

interface Variant {
  label: string;
  filename: string;
  bytes: Buffer;
}

function variants(): Variant[] {
  const random = prng(20240611);
  const int = (n: number) => Math.floor(random() * n);
  const out: Variant[] = [];
  for (const source of SOURCES) {
    const original = readCorpus(...source);
    const filename = source.at(-1) ?? 'file';
    for (let i = 0; i < VARIANTS_PER_FILE; i++) {
      const kind = i % 3;
      let bytes = Buffer.from(original);
      let label: string;
      if (kind === 0) {
        const at = 1 + int(original.length - 1);
        bytes = bytes.subarray(0, at);
        label = `truncated at ${at}`;
      } else {
        const flips = 1 + int(kind === 1 ? 4 : 64);
        for (let f = 0; f < flips; f++) {
          const at = int(bytes.length);
          bytes[at] = (bytes[at] ?? 0) ^ (1 + int(255));
        }
        label = `${flips} bytes flipped`;
        if (kind === 2 && random() < 0.5) {
          const at = 1 + int(bytes.length - 1);
          bytes = bytes.subarray(0, at);
          label += `, truncated at ${at}`;
        }
      }
      out.push({ label: `${filename}: ${label}`, filename, bytes });
    }
  }
  return out;
}

let service: TestService;
beforeAll(async () => {
  service = await startTestService({}, { FOLIO_MAX_CONCURRENT_PARSES: String(PARALLEL) });
  // Start every parse worker first: a cold worker's start-up counts against a parse's timeout.
  const blog = readCorpus('html', 'markitdown', 'test_blog.html');
  const warm = await Promise.all(Array.from({ length: PARALLEL }, () => postParse(service, upload('warm.html', blog), { timeoutMs: 60_000 })));
  expect(warm.map((r) => r.status)).toEqual(Array.from({ length: PARALLEL }, () => 200));
}, 90_000);
afterAll(async () => {
  await service.stop();
});

describe('fuzzed uploads', () => {
  it(`${SOURCES.length * VARIANTS_PER_FILE} damaged documents: 200 or 400 in the error shape, never 500, none hangs`, async () => {
    const cases = variants();
    const problems: string[] = [];
    const statuses = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++] as Variant;
        try {
          const res = await postParse(service, upload(c.filename, c.bytes, { formats: ['markdown', 'links'], timeout: PARSE_TIMEOUT_MS }), { timeoutMs: PER_REQUEST_MS });
          const code = res.status === 200 ? '200' : `${res.status} ${String(res.json.code)}`;
          statuses.set(code, (statuses.get(code) ?? 0) + 1);
          if (res.status === 200) {
            if (res.json.success !== true || typeof (res.json.data as { markdown?: unknown }).markdown !== 'string') problems.push(`${c.label}: 200 without markdown`);
          } else if (res.status !== 400) {
            problems.push(`${c.label}: status ${res.status} ${res.text.slice(0, 200)}`);
          } else if (res.json.success !== false || !CLIENT_ERROR_CODES.includes(String(res.json.code)) || typeof res.json.error !== 'string' || res.json.error === '') {
            problems.push(`${c.label}: malformed 400 body ${res.text.slice(0, 200)}`);
          }
        } catch (err) {
          problems.push(`${c.label}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    expect(problems).toEqual([]);
    // The fuzzing reached both outcomes: some damage is tolerated, some is refused.
    expect(statuses.get('200') ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].some((k) => k.startsWith('400'))).toBe(true);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(cases.length);

    expect((await request(`${service.url}/health`)).json).toEqual({ ok: true });
    const intact = await postParse(service, upload('test_blog.html', readCorpus('html', 'markitdown', 'test_blog.html')));
    expect((intact.json.data as { markdown: string }).markdown).toContain('an example where high cost can easily prevent a generic complex');
    expect(await spoolDrained(service)).toEqual([]);
  }, 180_000);
});
