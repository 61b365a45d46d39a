/**
 * Document properties of a .doc from its `\x05SummaryInformation` stream (MS-OLEPS §2.21
 * PropertySetStream, §2.20 PropertySet; ids from the SummaryInformation FMTID): title, subject,
 * author, keywords, comments. Strings are VT_LPSTR in the set's code page (property 1) or
 * VT_LPWSTR. Anything out of bounds ends the reading with what was found.
 */
import iconv from 'iconv-lite';
import { emptyMetadata, type DocumentMetadata } from '../../document.ts';

const PID_CODEPAGE = 1;
const PID_TITLE = 2;
const PID_SUBJECT = 3;
const PID_AUTHOR = 4;
const PID_KEYWORDS = 5;
const PID_COMMENTS = 6;
const PID_LAST_AUTHOR = 8;
const VT_I2 = 0x02;
const VT_LPSTR = 0x1e;
const VT_LPWSTR = 0x1f;
const MAX_PROPERTIES = 1024;

function encodingOf(codepage: number | undefined): string {
  if (codepage === undefined) return 'cp1252';
  if (codepage === 1200) return 'utf-16le';
  if (codepage === 65001) return 'utf-8';
  const name = `cp${codepage}`;
  return iconv.encodingExists(name) ? name : 'cp1252';
}

function readValue(stream: Buffer, at: number, codepage: number | undefined): string | number | undefined {
  if (at + 8 > stream.length) return undefined;
  const type = stream.readUInt16LE(at);
  if (type === VT_I2) return stream.readInt16LE(at + 4);
  const size = stream.readUInt32LE(at + 4);
  if (type === VT_LPSTR) {
    const end = at + 8 + size;
    if (end > stream.length) return undefined;
    return iconv.decode(stream.subarray(at + 8, end), encodingOf(codepage));
  }
  if (type === VT_LPWSTR) {
    const end = at + 8 + size * 2;
    if (end > stream.length) return undefined;
    return stream.subarray(at + 8, end).toString('utf16le');
  }
  return undefined;
}

function clean(value: string | number | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\0[\s\S]*$/, '').trim();
  return text || undefined;
}

export function readSummaryInformation(stream: Buffer | undefined): DocumentMetadata {
  const metadata = emptyMetadata();
  if (!stream || stream.length < 48 || stream.readUInt16LE(0) !== 0xfffe) return metadata;
  const setStart = stream.readUInt32LE(44);
  if (setStart + 8 > stream.length) return metadata;
  const count = Math.min(stream.readUInt32LE(setStart + 4), MAX_PROPERTIES);
  const offsets = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const at = setStart + 8 + i * 8;
    if (at + 8 > stream.length) break;
    offsets.set(stream.readUInt32LE(at), setStart + stream.readUInt32LE(at + 4));
  }
  const get = (id: number, codepage?: number): string | number | undefined => {
    const at = offsets.get(id);
    return at === undefined ? undefined : readValue(stream, at, codepage);
  };
  const cp = get(PID_CODEPAGE);
  const codepage = typeof cp === 'number' ? cp & 0xffff : undefined;

  const title = clean(get(PID_TITLE, codepage));
  const subject = clean(get(PID_SUBJECT, codepage));
  const comments = clean(get(PID_COMMENTS, codepage));
  const keywords = clean(get(PID_KEYWORDS, codepage));
  const author = clean(get(PID_AUTHOR, codepage));
  const lastAuthor = clean(get(PID_LAST_AUTHOR, codepage));
  if (title) metadata.title = title;
  if (comments) {
    metadata.description = comments;
    if (subject) metadata.extra.subject = subject;
  } else if (subject) metadata.description = subject;
  if (keywords) metadata.keywords = keywords;
  // Word joins several authors with semicolons (as the DOCX reader reads them).
  const authors = (author ?? '').split(';').map((a) => a.trim()).filter(Boolean);
  if (authors.length === 1) metadata.extra.author = authors[0] as string;
  else if (authors.length > 1) metadata.extra.author = authors;
  if (lastAuthor) metadata.extra.lastModifiedBy = lastAuthor;
  return metadata;
}
