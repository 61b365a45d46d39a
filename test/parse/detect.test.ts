import { describe, expect, it } from 'vitest';
import { detect } from '../../src/parse/detect.ts';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { readCorpus } from '../helpers/corpus.ts';

function refusal(bytes: Buffer, name: string, contentType?: string): { code: string; message: string } {
  try {
    detect(bytes, name, contentType);
  } catch (err) {
    return { code: (err as { code: string }).code, message: (err as Error).message };
  }
  throw new Error('expected detect to refuse');
}

describe('detect', () => {
  it.each([
    ['html/readability/wikipedia/source.html', 'page.html', 'html'],
    ['pdf/pdfjs/tracemonkey.pdf', 'paper.pdf', 'pdf'],
    ['office/docx/docling-word_tables.docx', 'a.docx', 'docx'],
    ['office/xlsx/markitdown-test.xlsx', 'a.xlsx', 'xlsx'],
    ['office/xls/markitdown-test.xls', 'a.xls', 'xls'],
    ['office/doc/word-extractor-test01.doc', 'a.doc', 'doc'],
    ['office/rtf/tika-testRTF.rtf', 'a.rtf', 'rtf'],
  ])('%s named %s is %s', (file, name, kind) => {
    expect(detect(readCorpus(...file.split('/')), name).kind).toBe(kind);
  });

  it('uses the content type only when the name has no extension', () => {
    const html = Buffer.from('<!doctype html><p>hi</p>');
    expect(detect(html, 'upload', 'text/html; charset=utf-8').kind).toBe('html');
    expect(refusal(html, 'upload').code).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('refuses extensions outside the list, naming what is accepted', () => {
    const r = refusal(Buffer.from('hello'), 'notes.txt');
    expect(r.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(r.message).toContain("'.txt'");
    expect(r.message).toContain('.html, .htm, .pdf, .docx, .doc, .odt, .rtf, .xlsx, .xls');
  });

  it('refuses bytes that contradict the name', () => {
    expect(refusal(readCorpus('pdf', 'pdfjs', 'tracemonkey.pdf'), 'report.docx').code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(refusal(readCorpus('office', 'docx', 'docling-word_tables.docx'), 'x.pdf').message).toContain(
      'named as a PDF but its content is a Word (.docx) document',
    );
    expect(refusal(readCorpus('office', 'odt', 'tika-testODTnotaZipFile.odt'), 'x.odt').code).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('accepts what Office saves under legacy names: RTF as .doc, HTML as .xls', () => {
    expect(detect(readCorpus('office', 'rtf', 'tika-testRTF.rtf'), 'old.doc').kind).toBe('rtf');
    expect(detect(Buffer.from('<html><table><tr><td>1</td></tr></table></html>'), 'export.xls')).toMatchObject({ kind: 'xls', format: 'html' });
  });

  it('says a password-protected Office file is encrypted', () => {
    for (const f of ['tika-testWORD_protected_passtika.docx', 'tika-protected_upper_case.docx']) {
      expect(refusal(readCorpus('office', 'docx', f), f).code).toBe('ENCRYPTED_FILE');
    }
    expect(refusal(readCorpus('office', 'xlsx', 'tika-testEXCEL_protected_passtika_2.xlsx'), 'a.xlsx').code).toBe('ENCRYPTED_FILE');
  });

  it('says a truncated container is corrupt, and an empty file is empty', () => {
    const docx = readCorpus('office', 'docx', 'docling-word_tables.docx');
    expect(refusal(docx.subarray(0, docx.length - 200), 'cut.docx').code).toBe('CORRUPT_FILE');
    expect(refusal(readCorpus('office', 'doc', 'word-extractor-badfile-01-bad-header.doc'), 'bad.doc').code).toBe('CORRUPT_FILE');
    expect(refusal(Buffer.alloc(0), 'empty.pdf').message).toContain('empty');
  });

  it('ignores streams of embedded objects when telling Word from Excel', () => {
    expect(detect(readCorpus('office', 'xls', 'tika-testWPSAttachment.xls'), 'a.xls').kind).toBe('xls');
    expect(detect(readCorpus('office', 'doc', 'tika-testWORD_2006ml.doc'), 'a.doc').kind).toBe('doc');
  });
});

describe('detect: RTF with binary data', () => {
  it('reads an RTF whose \\bin picture puts NUL and control bytes in its first kilobytes as RTF', async () => {
    const picture = Buffer.alloc(3000, 0);
    for (let i = 0; i < picture.length; i += 7) picture[i] = i % 31;
    const rtf = Buffer.concat([
      Buffer.from(`{\\rtf1\\ansi {\\pict\\pngblip\\bin${picture.length} `, 'latin1'),
      picture,
      Buffer.from('}Text after the picture.\\par}', 'latin1'),
    ]);
    expect(detect(rtf, 'picture.rtf').kind).toBe('rtf');
    const result = await parse({ bytes: rtf, filename: 'picture.rtf' }, parseOptions({}));
    expect(result.markdown).toContain('Text after the picture.');
    // Binary data without the signature is still refused as binary.
    expect(() => detect(picture, 'picture.rtf')).toThrow(/binary data/);
  });
});
