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
  return {
    wordDocument: contentOf(CFB.find(container, '/WordDocument')),
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
