/**
 * OCR through the real service: FOLIO_OCR_LANGUAGES reaches the parse pool's workers, and the
 * request's `timeout` gives the reader a deadline (the pool's clock), so a long scan returns the
 * pages done with a warning instead of a 408.
 */
// test matrix: once — OCR settings reaching the parse workers; the store only authenticates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postParse, startTestService, upload, type TestService } from '../http/helpers.ts';
import { buildPdf, ocrChildren, type FixturePage } from './pdf-ocr-fixtures.ts';

const scan = (page: number): FixturePage => ({ scan: { file: ['pdf', 'docling', 'multi_page.pdf'], page } });
const TEXT_PAGE: FixturePage = { text: ['Folio keeps this text layer'] };

let service: TestService;

beforeAll(async () => {
  service = await startTestService({}, { FOLIO_OCR_LANGUAGES: 'eng+klingon' });
});

afterAll(async () => {
  await service?.stop();
});

describe('PDF OCR through POST /v2/parse', () => {
  it('OCRs a scanned page with the configured languages that are installed, and names the missing one', async () => {
    const res = await postParse(service, upload('scan.pdf', buildPdf([scan(1), TEXT_PAGE])), { timeoutMs: 60_000 });
    expect(res.status).toBe(200);
    const data = res.json.data as { markdown: string; warning?: string; metadata: { numPages: number } };
    expect(data.markdown).toContain('The Evolution of the Word Processor');
    expect(data.markdown).toContain('Folio keeps this text layer');
    expect(data.metadata.numPages).toBe(2);
    expect(data.warning).toBe('OCR ran with eng only: the configured language klingon is not installed on this server (tesseract-ocr-klingon).');
  });

  it('returns the pages done within the timeout, with a warning, rather than a 408', async () => {
    const bytes = buildPdf([TEXT_PAGE, scan(1), scan(2), scan(3), scan(4)]);
    // Reading must end 1 s before the 3 s timeout; four scans take at least twice that on 2 cores.
    const res = await postParse(service, upload('long-scan.pdf', bytes, { timeout: 3000 }), { timeoutMs: 20_000 });
    expect(res.status).toBe(200);
    const data = res.json.data as { markdown: string; warning: string; metadata: { numPages: number; totalPages: number } };
    const stopped = /Stopped after page (\d) of 5: the request's timeout was reached; raise `timeout` or use `maxPages`\./.exec(data.warning);
    expect(stopped).not.toBeNull();
    expect(Number(stopped?.[1])).toBeLessThan(5);
    expect(data.metadata.numPages).toBe(Number(stopped?.[1]));
    expect(data.metadata.totalPages).toBe(5);
    expect(data.markdown).toContain('Folio keeps this text layer');
    expect(ocrChildren()).toEqual([]);
  });
});
