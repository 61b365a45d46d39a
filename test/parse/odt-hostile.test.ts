/**
 * .odt through parse() (markdown, furniture with onlyMainContent), every corpus file, and
 * hostile input: a zip bomb, deep nesting, a package without content, and a seeded fuzz loop of
 * truncated, byte-flipped and XML-damaged variants. Every answer is a result or a ServiceError,
 * each within a time bound.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.ts';
import { parse, type ParseData } from '../../src/parse/index.ts';
import { parseOptions, type ParseOptionsInput } from '../../src/parse/options.ts';
import { readOdt } from '../../src/parse/readers/odt/index.ts';
import { corpusFiles, readCorpus } from '../helpers/corpus.ts';
import { readInput, serviceFailure } from '../helpers/read-input.ts';
import { mulberry32 as prng } from '../helpers/prng.ts';

function parseOdt(file: string, options: ParseOptionsInput = {}): Promise<ParseData> {
  return parse({ bytes: readCorpus('office', 'odt', file), filename: file }, parseOptions(options));
}

function readBytes(bytes: Uint8Array): ReturnType<typeof readOdt> {
  return readOdt(readInput('odt', bytes));
}

const CONTENT_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"><office:body><office:text>';
const CONTENT_TAIL = '</office:text></office:body></office:document-content>';

function odtPackage(contentXml: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(contentXml),
    ...extra,
  });
}

describe('odt through parse()', () => {
  it('writes headings and a GFM table from the extraction test document', async () => {
    const { markdown } = await parseOdt('kreuzberg-extraction_test.odt');
    expect(markdown).toMatch(/^# Comprehensive Extraction Test Document$/m);
    expect(markdown).toMatch(/^### Subsection 1\.1$/m);
    expect(markdown).toContain('| Cell 2A | Cell 2B | Cell 2C |');
    expect(markdown).toContain('| Banana | $0.50 | 20 |');
  });

  it('keeps the footer with onlyMainContent false and drops it with true', async () => {
    const kept = await parseOdt('tika-testFooter.odt', { onlyMainContent: false });
    expect(kept.markdown).toContain('Here is footer text');
    expect(kept.markdown).toContain('Here is some text on page 2');
    const dropped = await parseOdt('tika-testFooter.odt', { onlyMainContent: true });
    expect(dropped.markdown).not.toContain('Here is footer text');
    expect(dropped.markdown).toContain('Here is some text on page 2');
  });

  it('reports meta.xml in the response metadata', async () => {
    const { metadata } = await parseOdt('tika-testODFwithOOo3.odt');
    expect(metadata).toMatchObject({ title: 'Apache Tika', keywords: 'Apache, Lucene, Tika', author: 'Bart Hanssens' });
  });

  it('reads every corpus .odt or refuses it with a ServiceError', async () => {
    const files = corpusFiles('office/odt', /\.odt$/);
    expect(files.length).toBeGreaterThanOrEqual(15);
    const outcomes: string[] = [];
    for (const file of files) {
      const name = file.split('/').at(-1) as string;
      try {
        const { markdown } = await parseOdt(name);
        outcomes.push(`${name}: ${(markdown ?? '').length > 0 ? 'text' : 'empty'}`);
      } catch (err) {
        if (!isServiceError(err)) throw err;
        outcomes.push(`${name}: ${err.code}`);
      }
    }
    expect(outcomes).toContain('tika-testODTEncrypted.odt: ENCRYPTED_FILE');
    expect(outcomes).toContain('tika-testODTnotaZipFile.odt: UNSUPPORTED_FILE_TYPE');
    expect(outcomes.filter((o) => o.endsWith(': text'))).toHaveLength(files.length - 2);
  });
});

describe('odt reader: hostile input', () => {
  it('refuses a zip bomb before inflating it', async () => {
    const bomb = odtPackage(`${CONTENT_HEAD}<text:p>${' '.repeat(16 * 1024 * 1024)}</text:p>${CONTENT_TAIL}`);
    const started = Date.now();
    const failure = await serviceFailure(readBytes(bomb));
    expect(failure.code).toBe('CORRUPT_FILE');
    expect(failure.message).toMatch(/zip bomb/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses content nested 100 000 levels deep, fast', async () => {
    const depth = 100_000;
    const xml = `${CONTENT_HEAD}<text:p>${'<text:span>'.repeat(depth)}x${'</text:span>'.repeat(depth)}</text:p>${CONTENT_TAIL}`;
    const started = Date.now();
    const failure = await serviceFailure(readBytes(odtPackage(xml)));
    expect(failure.code).toBe('CORRUPT_FILE');
    expect(failure.message).toMatch(/nested/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reads moderately nested lists (20 levels) in full', async () => {
    const depth = 20;
    const xml = `${CONTENT_HEAD}${'<text:list><text:list-item><text:p>item</text:p>'.repeat(depth)}${'</text:list-item></text:list>'.repeat(depth)}${CONTENT_TAIL}`;
    const { document } = await readBytes(odtPackage(xml));
    expect(document.body.querySelectorAll('li')).toHaveLength(depth);
  });

  it('does not expand an embedded object inside itself', async () => {
    const selfRef = '<draw:frame><draw:object xlink:href="./Object 1"/></draw:frame>';
    const objectXml =
      `<?xml version="1.0"?><office:document-content xmlns:office="o" xmlns:table="t" xmlns:text="x" xmlns:draw="d" xmlns:xlink="l"><office:body><office:spreadsheet>` +
      `<table:table><table:table-row><table:table-cell><text:p>inner ${selfRef}</text:p></table:table-cell><table:table-cell><text:p>again ${selfRef}</text:p></table:table-cell></table:table-row></table:table>` +
      `</office:spreadsheet></office:body></office:document-content>`;
    const contentXml = `${CONTENT_HEAD.replace('<office:document-content ', '<office:document-content xmlns:draw="d" xmlns:xlink="l" ')}<text:p>outer ${selfRef}</text:p>${CONTENT_TAIL}`;
    const started = Date.now();
    const { document } = await readBytes(odtPackage(contentXml, { 'Object 1/content.xml': strToU8(objectXml) }));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(document.body.querySelectorAll('table')).toHaveLength(1);
    expect(Array.from(document.body.querySelectorAll('td')).map((td) => td.textContent)).toEqual(['inner', 'again']);
  });

  it('stops expanding repeated rows and cells at a budget, with a warning', async () => {
    const cell = `<table:table-cell table:number-columns-repeated="100"><text:p>${'x'.repeat(10_000)}</text:p></table:table-cell>`;
    const xml = `${CONTENT_HEAD.replace('<office:document-content ', '<office:document-content xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ')}<table:table><table:table-row table:number-rows-repeated="100">${cell}</table:table-row></table:table>${CONTENT_TAIL}`;
    const { document, warnings } = await readBytes(odtPackage(xml));
    const rows = document.body.querySelectorAll('tr');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.length).toBeLessThan(100);
    expect(rows[0]?.children).toHaveLength(100);
    expect(warnings.join(' ')).toMatch(/repeated table rows or cells/);
  });

  it('refuses a package without content.xml', async () => {
    const empty = zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text') });
    expect((await serviceFailure(readBytes(empty))).code).toBe('CORRUPT_FILE');
  });

  it('survives a seeded fuzz loop of damaged variants, each answered fast', async () => {
    const sources = ['tika-testFooter.odt', 'kreuzberg-fake.odt', 'docling-text_document_01.odt', 'tika-testODFwithOOo3.odt', 'kreuzberg-extraction_test.odt'];
    const random = prng(20261122);
    const int = (n: number): number => Math.floor(random() * n);
    const counts = { read: 0, refused: 0 };
    let slowest = 0;
    for (const source of sources) {
      const original = readCorpus('office', 'odt', source);
      const entries = unzipSync(original);
      const content = strFromU8(entries['content.xml'] as Uint8Array);
      for (let i = 0; i < 60; i++) {
        let bytes: Uint8Array;
        const mode = i % 4;
        if (mode === 0) {
          bytes = original.subarray(0, int(original.length));
        } else if (mode === 1) {
          const copy = Buffer.from(original);
          for (let k = 0; k < 1 + int(8); k++) copy[int(copy.length)] = int(256);
          bytes = copy;
        } else if (mode === 2) {
          // The XML itself damaged: cut at a random point, inside a tag as often as not.
          bytes = zipSync({ ...entries, 'content.xml': strToU8(content.slice(0, int(content.length))) }, { level: 1 });
        } else {
          // Characters of the XML overwritten with markup characters.
          const chars = content.split('');
          for (let k = 0; k < 1 + int(40); k++) chars[int(chars.length)] = '<>/"=& '[int(7)] as string;
          bytes = zipSync({ ...entries, 'content.xml': strToU8(chars.join('')) }, { level: 1 });
        }
        const started = Date.now();
        try {
          await readBytes(bytes);
          counts.read++;
        } catch (err) {
          if (!isServiceError(err)) throw new Error(`${source} variant ${i}: ${String(err)}`);
          expect(['CORRUPT_FILE', 'ENCRYPTED_FILE']).toContain(err.code);
          counts.refused++;
        }
        slowest = Math.max(slowest, Date.now() - started);
      }
    }
    expect(counts.read + counts.refused).toBe(300);
    expect(counts.refused).toBeGreaterThan(0);
    expect(counts.read).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(1000);
  }, 30_000);
});

