/**
 * File-type detection: the name (or content type) says what the file claims to be, the bytes
 * decide. A claim the bytes contradict, or a name outside the spec's list, is refused with
 * UNSUPPORTED_FILE_TYPE. Password-protected Office files (an OLE container holding
 * `EncryptedPackage`, MS-OFFCRYPTO §2.3.4) are ENCRYPTED_FILE; an unreadable container is
 * CORRUPT_FILE.
 */
import path from 'node:path';
import { unzipSync } from 'fflate';
import XLSX from 'xlsx';
import { ServiceError } from '../errors.ts';

/** What the bytes are; one reader per kind. */
export type DocumentKind = 'html' | 'pdf' | 'docx' | 'doc' | 'odt' | 'rtf' | 'xlsx' | 'xls';

export const ACCEPTED_EXTENSIONS = ['.html', '.htm', '.pdf', '.docx', '.doc', '.odt', '.rtf', '.xlsx', '.xls'] as const;
type Extension = (typeof ACCEPTED_EXTENSIONS)[number];

export const CONTENT_TYPES: Record<DocumentKind, string> = {
  html: 'text/html',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
};

const EXTENSION_CLAIM: Record<Extension, DocumentKind> = {
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.doc': 'doc',
  '.odt': 'odt',
  '.rtf': 'rtf',
  '.xlsx': 'xlsx',
  '.xls': 'xls',
};

/**
 * What each claim may turn out to be. Word and Excel save other formats under their legacy
 * extensions (RTF or WordprocessingML as `.doc`, HTML or SpreadsheetML as `.xls`), and open an
 * OOXML file misnamed with the legacy extension; those pairs are accepted, nothing else is.
 */
const COMPATIBLE: Record<DocumentKind, readonly Sniffed[]> = {
  html: ['html'],
  pdf: ['pdf'],
  docx: ['docx'],
  doc: ['doc', 'rtf', 'docx', 'wordml'],
  odt: ['odt'],
  rtf: ['rtf'],
  xlsx: ['xlsx'],
  xls: ['xls', 'xlsx', 'spreadsheetml', 'html'],
};

/** What sniffing can tell apart; `wordml`/`spreadsheetml` are the Office 2003 XML formats. */
type Sniffed = DocumentKind | 'wordml' | 'spreadsheetml' | 'word2' | 'zip' | 'ole' | 'binary' | 'text';

export interface Detected {
  kind: DocumentKind;
  /** The finer format when the kind's reader needs it (e.g. `rtf` for a `.doc` that is RTF). */
  format: Sniffed;
  contentType: string;
}

const acceptedList = ACCEPTED_EXTENSIONS.join(', ');

function unsupported(message: string): ServiceError {
  return new ServiceError('UNSUPPORTED_FILE_TYPE', `${message} Accepted file types: ${acceptedList}.`);
}

function claimFromContentType(contentType: string | undefined): DocumentKind | undefined {
  if (!contentType) return undefined;
  const mime = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime === 'application/xhtml+xml') return 'html';
  for (const [kind, type] of Object.entries(CONTENT_TYPES) as [DocumentKind, string][]) {
    if (type === mime) return kind;
  }
  return undefined;
}

export function extensionOf(filename: string): string {
  return path.extname(filename).toLowerCase();
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];

/** The head of a text file, decoded loosely, BOM and leading white space skipped. */
function textHead(bytes: Uint8Array, length = 4096): string {
  let start = 0;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) start = 3;
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    const le = bytes[0] === 0xff;
    const slice = Buffer.from(bytes.subarray(2, 2 + length * 2));
    if (!le) slice.swap16();
    return slice.toString('utf16le').trimStart();
  }
  return Buffer.from(bytes.subarray(start, start + length)).toString('latin1').trimStart();
}

function looksBinary(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return false;
  const n = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20)) control++;
  }
  return n > 0 && control / n > 0.1;
}

/** Zip entry names, from the central directory, decompressing nothing. */
function zipEntryNames(bytes: Uint8Array): string[] {
  const names: string[] = [];
  try {
    unzipSync(bytes, {
      filter(file) {
        names.push(file.name);
        return false;
      },
    });
  } catch {
    throw new ServiceError('CORRUPT_FILE', 'The file is a damaged or truncated zip container and cannot be read.');
  }
  return names;
}

function sniffZip(bytes: Uint8Array): Sniffed {
  const names = zipEntryNames(bytes);
  const has = (n: string) => names.includes(n);
  if (has('word/document.xml') || names.some((n) => /^word\/document\d*\.xml$/.test(n))) return 'docx';
  if (has('xl/workbook.xml') || has('xl/workbook.bin')) return 'xlsx';
  if (has('mimetype') || has('content.xml')) {
    // ODF 1.2 §3.3: the first entry is `mimetype`, stored uncompressed, naming the package type.
    const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
    if (head.includes('application/vnd.oasis.opendocument.text')) return 'odt';
    if (has('content.xml') && !head.includes('application/vnd.oasis.opendocument')) return 'odt';
  }
  if (has('[Content_Types].xml')) {
    throw new ServiceError(
      'CORRUPT_FILE',
      'The file is an Office Open XML package without a main document part (word/document.xml or xl/workbook.xml).',
    );
  }
  return 'zip';
}

/** Names of the streams in the container's root storage, lower-cased. */
function oleStreamNames(bytes: Uint8Array): string[] {
  try {
    const container = XLSX.CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { type: 'buffer' });
    // Root-level streams only: embedded objects (ObjectPool/…, MBD…) have Word or Excel streams of their own.
    return (container.FullPaths as string[])
      .map((p) => p.split('/').filter(Boolean))
      .filter((parts) => parts.length === 2)
      .map((parts) => (parts[1] ?? '').toLowerCase());
  } catch {
    throw new ServiceError('CORRUPT_FILE', 'The file is a damaged or truncated OLE (legacy Office) container and cannot be read.');
  }
}

function sniffOle(bytes: Uint8Array): Sniffed {
  const names = new Set(oleStreamNames(bytes));
  if (names.has('encryptedpackage') || names.has('encryptioninfo')) {
    throw new ServiceError(
      'ENCRYPTED_FILE',
      'The file is password-protected (an encrypted Office package). Remove the password and upload it again.',
    );
  }
  if (names.has('worddocument')) return 'doc';
  if (names.has('workbook') || names.has('book')) return 'xls';
  return 'ole';
}

/** BIFF2–BIFF4 worksheets are bare record streams, not OLE: a BOF record comes first. */
function isBareBiff(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x09 &&
    (bytes[1] === 0x00 || bytes[1] === 0x02 || bytes[1] === 0x04) &&
    (bytes[3] === 0x00 || bytes[3] === 0x08)
  );
}

export function sniff(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return 'binary';
  if (startsWith(bytes, OLE_MAGIC)) return sniffOle(bytes);
  if (startsWith(bytes, ZIP_MAGIC) || startsWith(bytes, ZIP_EMPTY)) return sniffZip(bytes);
  // PDF 2.0 §7.5.2: readers accept the header within the first 1024 bytes.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  if (isBareBiff(bytes)) return 'xls';
  // Word for Windows 1.x/2.0: a bare stream (not OLE) whose FIB starts with wIdent 0xA5DB.
  if (bytes.length >= 4 && bytes[0] === 0xdb && bytes[1] === 0xa5) return 'word2';
  const text = textHead(bytes);
  // The RTF signature before the binary heuristic: `\binN` carries raw bytes (NULs included) in
  // an RTF file, often in its first kilobytes (an embedded picture or object).
  if (text.startsWith('{\\rtf')) return 'rtf';
  if (looksBinary(bytes)) return 'binary';
  const lower = text.slice(0, 4096).toLowerCase();
  if (lower.includes('schemas.microsoft.com/office/word/2003/wordml')) return 'wordml';
  if (lower.includes('urn:schemas-microsoft-com:office:spreadsheet') && lower.includes('<workbook')) return 'spreadsheetml';
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body|meta|title|div|p|table|h[1-6]|!--|article|section|span|a\s|main)/i.test(lower)) {
    return 'html';
  }
  return 'text';
}

const DESCRIBE: Record<Sniffed, string> = {
  html: 'an HTML document',
  pdf: 'a PDF',
  docx: 'a Word (.docx) document',
  doc: 'a Word 97–2003 (.doc) document',
  odt: 'an OpenDocument text (.odt) document',
  rtf: 'an RTF document',
  xlsx: 'an Excel (.xlsx) workbook',
  xls: 'an Excel 97–2003 (.xls) workbook',
  wordml: 'a Word 2003 XML document',
  spreadsheetml: 'an Excel 2003 XML workbook',
  word2: 'a Word for Windows 2.0 (or 1.x) document, a format folio does not read: open it in Word or LibreOffice, save it as .docx and upload that',
  zip: 'a zip archive',
  ole: 'an OLE container that is neither a Word nor an Excel file',
  binary: 'binary data',
  text: 'plain text',
};

/**
 * Detects the document kind of an upload. `filename` is the client's name for the file (only its
 * extension is used); `contentType` is consulted only when the name has no extension.
 */
export function detect(bytes: Uint8Array, filename: string, contentType?: string): Detected {
  const ext = extensionOf(filename);
  let claim: DocumentKind | undefined;
  if (ext) {
    claim = (EXTENSION_CLAIM as Record<string, DocumentKind | undefined>)[ext];
    if (!claim) throw unsupported(`Files with the extension '${ext}' are not supported.`);
  } else {
    claim = claimFromContentType(contentType);
    if (!claim) {
      throw unsupported(`The file '${filename}' has no extension${contentType ? ` and its content type '${contentType}' is not one parse accepts` : ''}, so its type cannot be told.`);
    }
  }
  if (bytes.length === 0) {
    throw new ServiceError('CORRUPT_FILE', `The file '${filename}' is empty (0 bytes).`);
  }
  const sniffed = sniff(bytes);
  // Plain text with an .html/.htm name is still readable as HTML (a fragment with no tags).
  const effective: Sniffed = sniffed === 'text' && claim === 'html' ? 'html' : sniffed;
  if (!COMPATIBLE[claim].includes(effective)) {
    throw unsupported(`The file is named as ${DESCRIBE[claim]} but its content is ${DESCRIBE[effective]}.`);
  }
  // The 2003 XML formats and HTML-as-.xls go to the legacy readers, which tell them apart by `format`.
  const kind: DocumentKind =
    effective === 'wordml' ? 'doc' : effective === 'spreadsheetml' || (claim === 'xls' && effective === 'html') ? 'xls' : (effective as DocumentKind);
  return { kind, format: effective, contentType: CONTENT_TYPES[kind] };
}
