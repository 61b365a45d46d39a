/**
 * Limits at the source, over HTTP against a started service: each hostile file (built in memory
 * by test/helpers/hostile-files.ts) is refused with a 400 naming the limit within seconds, not
 * at the parse timeout.
 */
// test matrix: once — the readers' limits on hostile files; the store only authenticates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SOURCE_LIMITS } from '../../src/parse/limits.ts';
import { loadConfig } from '../../src/config.ts';
import { docxZipBomb, htmlDeepNesting, htmlManyNodes, odtZipBomb, pdfHugeImage, pdfPathBomb, pdfRepeatedLine } from '../helpers/hostile-files.ts';
import { postParse, request, startTestService, upload, type TestService } from './helpers.ts';

/** Far below the 30 s parse timeout, generous for a loaded 2-core machine. */
const FAST_MS = 10_000;

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
}, 90_000);
afterAll(async () => {
  await service.stop();
});

async function refused(filename: string, bytes: Buffer, limit: RegExp, code = 'CORRUPT_FILE'): Promise<number> {
  const started = Date.now();
  const res = await postParse(service, upload(filename, bytes, { formats: ['markdown'] }), { timeoutMs: 60_000 });
  const ms = Date.now() - started;
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(res.json.success).toBe(false);
  expect(res.json.code).toBe(code);
  expect(String(res.json.error)).toMatch(limit);
  expect(ms).toBeLessThan(FAST_MS);
  return ms;
}

describe('limits at the source (HTTP)', () => {
  it('the config defaults are the core defaults', () => {
    expect(loadConfig({}).sourceLimits).toEqual(DEFAULT_SOURCE_LIMITS);
  });

  it('a .docx whose document.xml declares 200 KB and inflates to 1 GiB is refused in seconds, naming the declared size', async () => {
    await refused('bomb.docx', docxZipBomb(), /word\/document\.xml\) expands past its declared size of 204800 bytes/);
  }, 60_000);

  it('an .odt whose content.xml declares 200 KB and inflates to 1 GiB is refused in seconds, naming the declared size', async () => {
    await refused('bomb.odt', odtZipBomb(), /content\.xml\) expands past its declared size of 204800 bytes/);
  }, 60_000);

  it('an HTML page of 2,000,000 elements is refused in seconds, naming FOLIO_MAX_HTML_NODES', async () => {
    await refused('many.html', htmlManyNodes(), /more than 1000000 elements \(the limit FOLIO_MAX_HTML_NODES\)/);
  }, 60_000);

  it('an HTML page nested 100,000 deep is refused in seconds, naming FOLIO_MAX_HTML_DEPTH', async () => {
    await refused('deep.html', htmlDeepNesting(), /nests its elements more than 5000 deep \(the limit FOLIO_MAX_HTML_DEPTH\)/);
  }, 60_000);

  it('a 0.8 MB PDF whose content stream inflates to 400 MB of path operators is refused in seconds, naming FOLIO_MAX_PDF_STREAM_MB', async () => {
    await refused('paths.pdf', pdfPathBomb(), /one of its streams decodes to more than 256 MB \(the limit FOLIO_MAX_PDF_STREAM_MB\)/);
  }, 60_000);

  it('a PDF with one 20000×20000 image is refused in seconds, naming FOLIO_MAX_IMAGE_MEGAPIXELS', async () => {
    await refused('image.pdf', pdfHugeImage(), /20000×20000 image, more than the 100 million pixels .*FOLIO_MAX_IMAGE_MEGAPIXELS/);
  }, 60_000);

  it('a PDF whose every page carries the same single line in the header band keeps that line: it is each page\'s body, not a running header', async () => {
    const res = await postParse(service, upload('same.pdf', pdfRepeatedLine({ pages: 300, y: 750 }), { formats: ['markdown'] }), { timeoutMs: 60_000 });
    expect(res.status).toBe(200);
    const data = res.json.data as { markdown: string; warning?: string };
    expect(data.markdown.split('The same line on every page.').length - 1).toBe(300);
    expect(data.warning ?? '').not.toMatch(/running headers/);
  }, 60_000);

  it('a PDF whose only text is page numbers answers with a warning saying they were removed', async () => {
    const res = await postParse(service, upload('numbers.pdf', pdfRepeatedLine({ pages: 5, line: '12', y: 750 }), { formats: ['markdown'] }), { timeoutMs: 60_000 });
    expect(res.status).toBe(200);
    const data = res.json.data as { markdown: string; warning?: string };
    expect(data.markdown.trim()).toBe('');
    expect(data.warning).toMatch(/All the text of the document was running headers, footers or page numbers \(5 removed under onlyMainContent\)/);
    const kept = await postParse(service, upload('numbers.pdf', pdfRepeatedLine({ pages: 5, line: '12', y: 750 }), { formats: ['markdown'], onlyMainContent: false }));
    expect((kept.json.data as { markdown: string }).markdown).toContain('12');
  }, 60_000);

  it('the service answers normally afterwards', async () => {
    expect((await request(`${service.url}/health`)).json).toEqual({ ok: true });
  });
});
