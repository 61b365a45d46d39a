/**
 * A document of each accepted format carrying a marker string in its text, written so that the
 * marker's bytes also stand in the file as they are (zip parts stored, not deflated; 8-bit text
 * in the Word 6 .doc and the BIFF8 .xls; an uncompressed PDF content stream): a scan of a disk
 * for the marker then finds the uploaded file itself, not only the text extracted from it.
 */
import XLSX from 'xlsx';
import { buildZip, docxPackageParts, pdfRepeatedLine, zipEntry } from '../helpers/hostile-files.ts';
import { buildWord6Doc } from '../helpers/word6.ts';

export interface MarkerDocument {
  format: 'html' | 'pdf' | 'docx' | 'doc' | 'odt' | 'rtf' | 'xlsx' | 'xls';
  filename: string;
  contentType: string;
  bytes: Buffer;
}

function docx(text: string): Buffer {
  return buildZip([
    ...docxPackageParts(0),
    zipEntry(
      'word/document.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
      0,
    ),
  ]);
}

function odt(text: string): Buffer {
  return buildZip([
    zipEntry('mimetype', 'application/vnd.oasis.opendocument.text', 0),
    zipEntry(
      'META-INF/manifest.xml',
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
      0,
    ),
    zipEntry(
      'content.xml',
      '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
        `xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text><text:p>${text}</text:p></office:text></office:body></office:document-content>`,
      0,
    ),
  ]);
}

function workbook(text: string, bookType: 'xlsx' | 'biff8'): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Item', 'Note'], ['first', text]]), 'Sheet1');
  return XLSX.write(wb, { type: 'buffer', bookType, compression: false }) as Buffer;
}

/** One document per accepted format, each with `marker` in a sentence of its text. */
export function markerDocuments(marker: string): MarkerDocument[] {
  const sentence = `The code word is ${marker} and nothing else.`;
  return [
    { format: 'html', filename: 'note.html', contentType: 'text/html', bytes: Buffer.from(`<!doctype html><html><head><title>Note</title></head><body><main><h1>Note</h1><p>${sentence}</p></main></body></html>`) },
    { format: 'pdf', filename: 'note.pdf', contentType: 'application/pdf', bytes: pdfRepeatedLine({ pages: 1, line: sentence }) },
    { format: 'docx', filename: 'note.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', bytes: docx(sentence) },
    { format: 'doc', filename: 'note.doc', contentType: 'application/msword', bytes: buildWord6Doc([sentence]) },
    { format: 'odt', filename: 'note.odt', contentType: 'application/vnd.oasis.opendocument.text', bytes: odt(sentence) },
    { format: 'rtf', filename: 'note.rtf', contentType: 'application/rtf', bytes: Buffer.from(`{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Helvetica;}}\\f0\\pard ${sentence}\\par}`) },
    { format: 'xlsx', filename: 'note.xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes: workbook(sentence, 'xlsx') },
    { format: 'xls', filename: 'note.xls', contentType: 'application/vnd.ms-excel', bytes: workbook(sentence, 'biff8') },
  ];
}

/** A long HTML page (many paragraphs, the marker in each), for results that need continuation. */
export function longMarkerHtml(marker: string, paragraphs = 400): Buffer {
  const body = Array.from({ length: paragraphs }, (_, i) => `<p>Paragraph ${i + 1} repeats the code word ${marker} among other words to make it long.</p>`).join('');
  return Buffer.from(`<!doctype html><html><head><title>Long</title></head><body><main><h1>Long</h1>${body}</main></body></html>`);
}
