import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Progress, ReadResult } from '../../src/parse/document.ts';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput, serviceFailure, type ReadInputOverrides } from '../helpers/read-input.ts';

function readBytes(bytes: Buffer, extra: ReadInputOverrides = {}): Promise<ReadResult> {
  return readPdf(readInput('pdf', bytes, extra));
}

function read(file: string, extra: ReadInputOverrides = {}): Promise<ReadResult> {
  return readBytes(readCorpus('pdf', ...file.split('/')), extra);
}

const failure = serviceFailure;

function pageParagraphs(result: ReadResult, page: number): string[] {
  return [...result.document.querySelectorAll(`section[data-page="${page}"] > p`)].map((p) => p.textContent ?? '');
}

/** The page's headings and paragraphs, in document order. */
function pageBlocks(result: ReadResult, page: number): string[] {
  const s = `section[data-page="${page}"]`;
  return [...result.document.querySelectorAll(`${s} > p, ${s} > h1, ${s} > h2, ${s} > h3, ${s} > h4, ${s} > h5, ${s} > h6`)].map((p) => p.textContent ?? '');
}

/** Standard security handler, RC4 40-bit (ISO 32000-1 §7.6.3, algorithms 2–4), one page. */
function encryptedPdf(text: string, ownerPassword: string, userPassword: string): Buffer {
  const PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');
  const rc4 = (key: Buffer, data: Buffer): Buffer => {
    const s = Array.from({ length: 256 }, (_, i) => i);
    for (let i = 0, j = 0; i < 256; i++) {
      j = (j + (s[i] as number) + (key[i % key.length] as number)) & 255;
      [s[i], s[j]] = [s[j] as number, s[i] as number];
    }
    const out = Buffer.alloc(data.length);
    for (let n = 0, i = 0, j = 0; n < data.length; n++) {
      i = (i + 1) & 255;
      j = (j + (s[i] as number)) & 255;
      [s[i], s[j]] = [s[j] as number, s[i] as number];
      out[n] = (data[n] as number) ^ (s[((s[i] as number) + (s[j] as number)) & 255] as number);
    }
    return out;
  };
  const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
  const padded = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);
  const id = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
  const permissions = -64; // no printing, no copying, no changes
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const o = rc4(md5(padded(ownerPassword)).subarray(0, 5), padded(userPassword));
  const key = md5(padded(userPassword), o, p, id).subarray(0, 5);
  const u = rc4(key, PAD);
  const objectKey = (num: number) => md5(key, Buffer.from([num & 255, (num >> 8) & 255, num >> 16, 0, 0])).subarray(0, 10);
  const content = rc4(objectKey(4), Buffer.from(`BT /F1 18 Tf 72 700 Td (${text}) Tj ET`, 'latin1'));
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P ${permissions} >>`,
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = 9;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body), Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n `)].join('\n');
  const hex = id.toString('hex');
  chunks.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 6 0 R /ID [<${hex}> <${hex}>] >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

describe('pdf reader: text', () => {
  it('reads a page as headings and paragraphs: title lines joined, hyphenation undone, ligatures spelled out', async () => {
    const result = await read('pdfjs/tracemonkey.pdf');
    const page1 = pageBlocks(result, 1);
    expect(result.document.querySelector('section[data-page="1"] > h1')?.textContent).toBe('Trace-based Just-in-Time Type Specialization for Dynamic Languages');
    expect(page1[0]).toBe('Trace-based Just-in-Time Type Specialization for Dynamic Languages');
    expect(page1).toContain('Abstract');
    const abstract = page1[page1.indexOf('Abstract') + 1] ?? '';
    expect(abstract.startsWith('Dynamic languages such as JavaScript are more difficult to compile than statically typed ones.')).toBe(true);
    expect(abstract).toContain('generates machine code on the fly that is specialized for the actual dynamic types');
    expect(result.document.body.textContent).not.toMatch(/[\uFB00-\uFB06]/);
    expect(result.document.querySelectorAll('section[data-page]').length).toBe(14);
  });

  it('reads the text of a later page (rotation.pdf page 2, landscape)', async () => {
    const result = await read('pdfjs/rotation.pdf');
    expect(pageParagraphs(result, 2)).toEqual(['This is my second page. It will have a landscape layout. Second line here.']);
  });

  it('makes list items of bulleted paragraphs (docling multi_page.pdf, page 3)', async () => {
    const result = await read('docling/multi_page.pdf');
    const page3 = pageBlocks(result, 3);
    expect(page3[0]).toBe('Specialized Word Processing Tools');
    const items = [...result.document.querySelectorAll('section[data-page="3"] > ul > li')].map((li) => li.textContent ?? '');
    expect(items.slice(0, 3).map((p) => p.split(':')[0])).toEqual(['Academic and Technical Writing', 'Screenwriting Software', 'Legal Document Processors']);
    expect(page3).toContain('Key Features That Changed Word Processing');
  });

  it('marks running headers and footers as furniture', async () => {
    const result = await read('pdfjs/basicapi.pdf');
    const footers = [...result.document.querySelectorAll('footer[data-furniture="footer"]')].map((f) => f.textContent);
    // Page 3's foot also holds TCPDF's 1 pt producer line at the page's edge, under the number.
    expect(footers).toEqual(['page 1 / 3', 'page 2 / 3', 'page 3 / 3Powered by TCPDF (www.tcpdf.org)']);
    expect(pageBlocks(result, 2)).toEqual(['Chapter 1']);
    const agreement = await read('docling/bookmark_sample.pdf');
    expect(agreement.document.querySelector('section[data-page="2"] > header[data-furniture="header"]')?.textContent).toBe('Sample Agreement — page 2');
  });
});

describe('pdf reader: pages and options', () => {
  it('limits the pages read with maxPages and reports numPages / totalPages and progress', async () => {
    const seen: Progress[] = [];
    const result = await read('pdfjs/tracemonkey.pdf', { options: { parsers: [{ type: 'pdf', maxPages: 3 }] }, onProgress: (p) => seen.push(p) });
    expect(result.numPages).toBe(3);
    expect(result.totalPages).toBe(14);
    expect([...result.document.querySelectorAll('section')].map((s) => s.getAttribute('data-page'))).toEqual(['1', '2', '3']);
    expect(seen).toEqual([1, 2, 3].map((done) => ({ done, total: 3, unit: 'page' })));
  });

  it('warns in fast mode about pages without a text layer (auto OCRs them: pdf-ocr.test.ts)', async () => {
    const result = await read('olmocr/pdfs/lincoln_letter.pdf', { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } });
    expect(result.warnings).toEqual(["Page 1 has no usable text layer; it looks scanned. Parse with mode 'auto' or 'ocr' to read it."]);
    expect(result.document.querySelector('section[data-page="1"]')?.children.length).toBe(0);
    // fast mode reads no images, so it cannot tell these blank pages from scans; auto can.
    const fast = await read('pdfjs/vertical.pdf', { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } });
    expect(fast.warnings).toEqual(["Pages 2 and 3 have no usable text layer; they look scanned. Parse with mode 'auto' or 'ocr' to read them."]);
    const auto = await read('pdfjs/vertical.pdf');
    expect(auto.warnings).toEqual([]);
    // Vertical (top-to-bottom) Japanese that the text layer reports as upright: both runs are read.
    const text = pageParagraphs(auto, 1).join(' ');
    expect(text).toContain('あいうえお');
    expect(text).toContain('日本語');
  });

  it('stops between pages when the signal is aborted', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const reading = read('pdfjs/tracemonkey.pdf', {
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p.done);
        if (p.done === 2) controller.abort();
      },
    });
    await expect(reading).rejects.toThrow();
    expect(seen).toEqual([1, 2]);
    // Nothing is left half-open: the next document reads normally.
    expect(pageParagraphs(await read('pdfjs/rotation.pdf'), 1)).toEqual(['This is my first page with normal layout. This is the second line on the page.']);
  });
});

describe('pdf reader: metadata', () => {
  it('reads title, subject, keywords and the catalog language, author and dates as extra keys', async () => {
    const { metadata } = await read('opendataloader-pdf/PDFUA-Ref-2-03_AcademicAbstract.pdf');
    expect(metadata.title).toBe('More than just digital paper—hidden features of the PDF format');
    expect(metadata.description).toBe('- Applied computing -> Publishing; Document preparation;');
    expect(metadata.keywords).toBe('PDF, Tagging, Machine-readable structure, Workflows, Document formats');
    expect(metadata.language).toBe('en-GB');
    expect(metadata.extra.author).toBe('Dietrich von Seggern, Klaas Posselt, Tamir Hassan, and Thomas Zellmann');
    expect(metadata.extra.created).toBe('2019-07-25T13:30:25.000Z');
  });

  it('sets the document language from the PDF', async () => {
    const result = await read('opendataloader-pdf/PDFUA-Ref-2-02_Invoice.pdf');
    expect(result.document.documentElement.getAttribute('lang')).toBe('en');
    expect(result.document.querySelector('section[data-page="1"]')?.textContent).toContain('Terms of payment');
  });
});

describe('pdf reader: protected and broken files', () => {
  it('answers a user (open) password with ENCRYPTED_FILE', async () => {
    expect((await failure(read('opendataloader-pdf/password-protected.pdf'))).code).toBe('ENCRYPTED_FILE');
    expect((await failure(read('docling/2206.01062_pg3.pdf'))).code).toBe('ENCRYPTED_FILE');
    expect((await failure(readBytes(encryptedPdf('Secret text', 'owner', 'user')))).code).toBe('ENCRYPTED_FILE');
  });

  it('opens a PDF that has only an owner (permissions) password', async () => {
    const result = await readBytes(encryptedPdf('Readable without any password', 'owner-secret', ''));
    expect(pageParagraphs(result, 1)).toEqual(['Readable without any password']);
  });

  it('answers empty and truncated files with CORRUPT_FILE, not a crash', async () => {
    const empty = await failure(read('opendataloader-pdf/empty.pdf'));
    expect(empty.code).toBe('CORRUPT_FILE');
    const bytes = readCorpus('pdf', 'pdfjs', 'tracemonkey.pdf');
    for (const share of [0.01, 0.5, 0.9]) {
      const cut = Buffer.from(bytes.subarray(0, Math.floor(bytes.length * share)));
      const { code, message } = await failure(readBytes(cut));
      expect(code).toBe('CORRUPT_FILE');
      expect(message).toContain('truncated');
    }
  });

  it('reads what it can of a truncated file and says it looks truncated', async () => {
    const bytes = readCorpus('pdf', 'pdfjs', 'TAMReview.pdf');
    const result = await readBytes(Buffer.from(bytes.subarray(0, Math.floor(bytes.length / 2))));
    expect(result.warnings).toEqual(['The PDF does not end with an end-of-file marker, so it is probably truncated: pages or text may be missing.']);
    expect(pageBlocks(result, 1)[0]).toBe('Working Papers on Information Systems ISSN 1535-6078');
  });
});
