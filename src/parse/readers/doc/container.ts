/**
 * The OLE compound file of a .doc, opened with SheetJS's CFB (MS-CFB): the WordDocument
 * stream's FIB flags (encryption, MS-DOC §2.5.2 FibBase) and the summary-information stream.
 */
import XLSX from 'xlsx';

interface CfbEntry {
  content?: unknown;
}

interface CfbApi {
  read(data: Buffer, options: { type: 'buffer' }): unknown;
  find(container: unknown, path: string): CfbEntry | null | undefined;
}

const CFB = XLSX.CFB as CfbApi;

export interface DocContainer {
  wordDocument: Buffer | undefined;
  /** The table stream the FIB names (fWhichTblStm: 1Table or 0Table). */
  table: Buffer | undefined;
  summaryInformation: Buffer | undefined;
}

function contentOf(entry: CfbEntry | null | undefined): Buffer | undefined {
  const content = entry?.content;
  if (content instanceof Uint8Array) return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (Array.isArray(content)) return Buffer.from(content as number[]);
  return undefined;
}

/** Throws when the container cannot be read at all. */
export function openContainer(bytes: Buffer): DocContainer {
  const container = CFB.read(bytes, { type: 'buffer' });
  const wordDocument = contentOf(CFB.find(container, '/WordDocument'));
  const which = wordDocument && wordDocument.length >= 0x0c && (wordDocument.readUInt16LE(0x0a) & 0x0200) !== 0 ? '/1Table' : '/0Table';
  return {
    wordDocument,
    table: contentOf(CFB.find(container, which)),
    summaryInformation: contentOf(CFB.find(container, '/\u0005SummaryInformation')),
  };
}

const WORD_MAGIC = 0xa5ec;
const F_ENCRYPTED = 0x0100;
const F_OBFUSCATED = 0x8000;

export type FibState = 'ok' | 'encrypted' | 'not-word';

/** FibBase.wIdent and the fEncrypted / fObfuscated flags (offset 0x0A). */
export function fibState(wordDocument: Buffer): FibState {
  if (wordDocument.length < 0x0c || wordDocument.readUInt16LE(0) !== WORD_MAGIC) return 'not-word';
  const flags = wordDocument.readUInt16LE(0x0a);
  return (flags & (F_ENCRYPTED | F_OBFUSCATED)) !== 0 ? 'encrypted' : 'ok';
}

const FIB_CLX = 0x01a2;
const MAX_PIECES = 1_000_000;

/**
 * Whether the piece table (MS-DOC §2.9.38 Clx, §2.9.177 PlcPcd) is safe to hand to
 * word-extractor: CPs ascending, each piece's text inside the WordDocument stream, and all
 * pieces together no larger than twice the stream (real pieces do not overlap). A crafted table
 * whose pieces all point at the same megabyte would otherwise make gigabytes of strings.
 */
export function pieceTableIsSane(wordDocument: Buffer, table: Buffer): boolean {
  if (wordDocument.length < FIB_CLX + 8) return false;
  const fcClx = wordDocument.readUInt32LE(FIB_CLX);
  const lcbClx = wordDocument.readUInt32LE(FIB_CLX + 4);
  const end = fcClx + lcbClx;
  if (lcbClx === 0 || end > table.length) return false;
  let at = fcClx;
  while (at < end && table[at] === 1) {
    if (at + 3 > end) return false;
    at += 3 + table.readUInt16LE(at + 1);
  }
  if (at + 5 > end || table[at] !== 2) return false;
  const lcb = table.readUInt32LE(at + 1);
  const plc = at + 5;
  if (plc + lcb > end || lcb < 16 || (lcb - 4) % 12 !== 0) return false;
  const count = (lcb - 4) / 12;
  if (count > MAX_PIECES) return false;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const cpStart = table.readUInt32LE(plc + i * 4);
    const cpEnd = table.readUInt32LE(plc + (i + 1) * 4);
    if (cpEnd < cpStart) return false;
    const fc = table.readUInt32LE(plc + (count + 1) * 4 + i * 8 + 2);
    const compressed = (fc & 0x40000000) !== 0;
    const start = compressed ? Math.floor((fc & ~0x40000000) / 2) : fc;
    const bytes = (cpEnd - cpStart) * (compressed ? 1 : 2);
    if (start + bytes > wordDocument.length) return false;
    total += bytes;
  }
  return total <= wordDocument.length * 2;
}
