/**
 * The .docx package guards and failures: zip bombs, lying sizes, truncated and damaged files
 * all end as CORRUPT_FILE with a message for a person, never as another exception. The damaged
 * packages are built in memory from a real corpus document.
 */
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.ts';
import type { ReadResult } from '../../src/parse/document.ts';
import { readDocx } from '../../src/parse/readers/docx/index.ts';
import { DocxPackage } from '../../src/parse/readers/docx/package.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput, serviceFailure } from '../helpers/read-input.ts';

const SAMPLE = 'mammoth-single-paragraph.docx';

function read(bytes: Uint8Array, signal = new AbortController().signal): Promise<ReadResult> {
  return readDocx(readInput('docx', bytes, { filename: 'x.docx', signal }));
}

const failure = serviceFailure;

/** The sample's parts, with some replaced or removed, zipped again. */
function repack(changes: Record<string, Uint8Array | null>): Uint8Array {
  const parts: Zippable = { ...unzipSync(readCorpus('office', 'docx', SAMPLE)) };
  for (const [name, data] of Object.entries(changes)) {
    if (data === null) delete parts[name];
    else parts[name] = data;
  }
  return zipSync(parts);
}

/**
 * Rewrites the sizes the central directory declares for one entry (APPNOTE 4.3.12: compressed
 * size at +20, uncompressed at +24): how a hostile zip lies.
 */
function declareSizes(zip: Uint8Array, entry: string, sizes: { uncompressed: number; compressed?: number }): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 46 < out.length; i++) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(i + 28, true);
    const name = Buffer.from(out.subarray(i + 46, i + 46 + nameLength)).toString('utf8');
    if (name !== entry) continue;
    if (sizes.compressed !== undefined) view.setUint32(i + 20, sizes.compressed, true);
    view.setUint32(i + 24, sizes.uncompressed, true);
  }
  return out;
}

describe('docx package guards', () => {
  it('reads the untouched sample', async () => {
    const result = await read(repack({}));
    expect(result.document.body.innerHTML).toBe('<p>Walking on imported air</p>');
  });

  it('refuses an entry that claims to expand more than 250 times (a zip bomb) before inflating anything', async () => {
    const bomb = declareSizes(repack({}), 'word/document.xml', { uncompressed: 400 * 1024 * 1024 });
    const { code, message } = await failure(read(bomb));
    expect(code).toBe('CORRUPT_FILE');
    expect(message).toMatch(/zip bomb/);
  });

  it('detects a real high-ratio entry from its central-directory sizes', () => {
    const zeros = repack({ 'word/media/zeros.bin': new Uint8Array(256 * 1024) });
    const limits = { maxTotalUncompressed: 1 << 30, maxEntryRatio: 250, ratioCheckMinSize: 64 * 1024, maxEntries: 1000 };
    expect(() => new DocxPackage(zeros, limits)).toThrow(/zip bomb/);
    expect(() => new DocxPackage(zeros, { ...limits, ratioCheckMinSize: 1 << 20 })).not.toThrow();
  });

  it('refuses a package whose declared sizes add up to more than 512 MB', async () => {
    // Three entries each declared as 200 MB from 1 MB: every ratio stays under 250.
    const names = ['word/media/a.bin', 'word/media/b.bin', 'word/media/c.bin'];
    let zip = repack(Object.fromEntries(names.map((n) => [n, strToU8(n)])));
    for (const name of names) zip = declareSizes(zip, name, { uncompressed: 200 * 1024 * 1024, compressed: 1024 * 1024 });
    const { code, message } = await failure(read(zip));
    expect(code).toBe('CORRUPT_FILE');
    expect(message).toMatch(/more than 512 MB/);
  });

  it('applies the limits it is given', () => {
    const zip = repack({});
    const strict = { maxTotalUncompressed: 100, maxEntryRatio: 250, ratioCheckMinSize: 1 << 20, maxEntries: 1000 };
    expect(() => new DocxPackage(zip, strict)).toThrow(/more than 0 MB/);
    expect(() => new DocxPackage(zip, { ...strict, maxTotalUncompressed: 1 << 30, maxEntries: 3 })).toThrow(/entries, more than the 3/);
  });

  it('never inflates past a declared size: an entry that lies about its size stops the read, and the document is reported damaged', async () => {
    const big = strToU8(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p><w:r><w:t>x</w:t></w:r></w:p>'.repeat(20000)}</w:body></w:document>`);
    const lying = declareSizes(repack({ 'word/document.xml': big }), 'word/document.xml', { uncompressed: 100 });
    const pkg = new DocxPackage(lying);
    expect(() => pkg.bytesOf('word/document.xml')).toThrow(/word\/document\.xml\) expands past its declared size of 100 bytes/);
    expect((await failure(read(lying))).code).toBe('CORRUPT_FILE');
  });
});

describe('docx damaged files', () => {
  it('reports a truncated file as CORRUPT_FILE', async () => {
    const bytes = readCorpus('office', 'docx', 'docling-word_sample.docx');
    const { code, message } = await failure(read(bytes.subarray(0, Math.floor(bytes.length / 2))));
    expect(code).toBe('CORRUPT_FILE');
    expect(message).toMatch(/damaged or truncated/);
  });

  it('reports a package without word/document.xml', async () => {
    const { code, message } = await failure(read(repack({ 'word/document.xml': null })));
    expect(code).toBe('CORRUPT_FILE');
    expect(message).toMatch(/no main document part/);
  });

  it('reports a main part that is not XML, without leaking the parser error', async () => {
    const { code, message } = await failure(read(repack({ 'word/document.xml': strToU8('<w:document><w:body><w:p></w:document') })));
    expect(code).toBe('CORRUPT_FILE');
    expect(message).toBe(
      'The Word document could not be read: its main text is damaged or is not valid WordprocessingML. Re-save it from Word (or export it again) and upload it again.',
    );
  });

  it('keeps the text but not the link of a hyperlink whose scheme runs code', async () => {
    const sample = unzipSync(readCorpus('office', 'docx', SAMPLE));
    const text = (name: string) => Buffer.from(sample[name] as Uint8Array).toString('utf8');
    const rels = text('word/_rels/document.xml.rels').replace(
      '</Relationships>',
      '<Relationship Id="rId90" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="javascript:alert(1)" TargetMode="External"/>' +
        '<Relationship Id="rId91" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/" TargetMode="External"/></Relationships>',
    );
    const document = text('word/document.xml').replace(
      '<w:t>Walking on imported air</w:t></w:r>',
      '<w:t>Walking on </w:t></w:r><w:hyperlink r:id="rId90"><w:r><w:t>imported</w:t></w:r></w:hyperlink><w:hyperlink r:id="rId91"><w:r><w:t> air</w:t></w:r></w:hyperlink>',
    );
    const result = await read(repack({ 'word/_rels/document.xml.rels': strToU8(rels), 'word/document.xml': strToU8(document) }));
    expect(result.document.body.innerHTML).toBe('<p>Walking on imported<a href="https://example.org/"> air</a></p>');
  });

  it('lets an abort through as an abort, not as a damaged file', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(read(repack({}), controller.signal)).rejects.toSatisfy((err: unknown) => !isServiceError(err) && (err as Error).name === 'AbortError');
  });
});
