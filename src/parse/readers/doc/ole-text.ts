/**
 * The text of an OLE .doc through word-extractor, kept raw: word-extractor reads the FIB, the
 * piece table, deletions (tracked changes) and the header stories, then its clean-up turns cell
 * marks into tabs and drops field codes. folio subclasses its extractor to keep the piece text
 * before that clean-up, and the WordDocument and table streams for the properties it reads
 * itself (paragraph properties, styles, note positions: properties.ts; character properties:
 * character.ts).
 */
import WordOleExtractor from 'word-extractor/lib/word-ole-extractor.js';
import { blankDeletions, readCharacterRuns, type CharacterRun } from './character.ts';
import { OutOfRange } from './properties.ts';

export interface Piece {
  startCp: number;
  endCp: number;
  /** Byte offset of the piece's first character in the WordDocument stream. */
  startFilePos: number;
  /** Bytes per character: 1 (cp1252) or 2 (UTF-16). */
  bpc: number;
}

export interface RawDoc {
  /** Every story's text, in CP order: main text, footnotes, headers, comments, endnotes, text boxes. */
  text: string;
  pieces: Piece[];
  ccpText: number;
  ccpFtn: number;
  ccpHdd: number;
  ccpAtn: number;
  ccpEdn: number;
  ccpTxbx: number;
  /** Raw text of each header and footer story, in the file's order. */
  headers: string[];
  footers: string[];
  wordDocument: Buffer;
  table: Buffer;
  /** Bold or italic character runs, by file position. */
  formatRuns: CharacterRun[];
  /** The character properties were damaged: deletions may show and formatting is missing. */
  characterPropertiesDamaged: boolean;
}

class RawExtractor extends WordOleExtractor {
  streams: { wordDocument: Buffer; table: Buffer } | undefined;

  constructor(private readonly tableStream: Buffer) {
    super();
  }

  /** The only other stream word-extractor asks for is the table stream (0Table or 1Table). */
  protected override documentStream(_document: unknown, streamName: string): Promise<unknown> {
    return Promise.resolve(streamName);
  }

  protected override streamBuffer(stream: unknown): Promise<Buffer> {
    if (stream === '0Table' || stream === '1Table') return Promise.resolve(this.tableStream);
    return Promise.reject(new Error('unexpected stream'));
  }

  raw: RawDoc | undefined;

  formatRuns: CharacterRun[] = [];
  characterPropertiesDamaged = false;

  /** Deletions and formatting read by folio (character.ts) instead of word-extractor's quadratic pass. */
  protected override writeCharacterProperties(buffer: Buffer, tableBuffer: Buffer): void {
    this.streams = { wordDocument: buffer, table: tableBuffer };
    try {
      const runs = readCharacterRuns(buffer, tableBuffer);
      blankDeletions(this._pieces, runs);
      this.formatRuns = runs.filter((run) => run.bold || run.italic);
    } catch (err) {
      if (!(err instanceof OutOfRange || err instanceof RangeError)) throw err;
      this.characterPropertiesDamaged = true;
    }
  }

  /**
   * word-extractor turns each table row's end mark into a newline here, rewriting a piece's
   * whole text per row (quadratic on long tables); folio reads row ends from the paragraph
   * properties itself (properties.ts), so this pass is skipped.
   */
  protected override writeParagraphProperties(): void {}

  /**
   * The header stories (MS-DOC §2.9.155 Plcfhdd: per section, even/odd/first headers and
   * footers after six note-separator stories), sliced from the text once: word-extractor's own
   * pass also rewrote a piece's whole text per story, quadratic with many sections.
   */
  protected override normalizeHeaders(buffer: Buffer, tableBuffer: Buffer): void {
    const fc = buffer.readUInt32LE(0x00f2);
    const lcb = buffer.readUInt32LE(0x00f6);
    if (lcb < 8 || fc + lcb > tableBuffer.length) return;
    const text = this._pieces.map((piece) => piece.text).join('');
    const b = this._boundaries;
    const first = b.ccpText + b.ccpFtn;
    const limit = first + b.ccpHdd;
    let start = first + tableBuffer.readUInt32LE(fc);
    for (let i = 1; i < Math.floor(lcb / 4); i++) {
      const end = Math.min(first + tableBuffer.readUInt32LE(fc + i * 4), limit);
      const story = i - 1;
      if (end > start && story >= 6) {
        const type = [0, 1, 4].includes(story % 6) ? 'headers' : 'footers';
        this._taggedHeaders.push({ type, text: text.slice(start, end) });
      }
      start = Math.max(start, end);
    }
  }

  protected override buildDocument(): WordOleExtractor.ExtractedDocument {
    const document = super.buildDocument();
    const streams = this.streams;
    if (!streams) throw new Error('no streams');
    const b = this._boundaries;
    this.raw = {
      text: this._pieces.map((piece) => piece.text).join(''),
      pieces: this._pieces.map(({ startCp, endCp, startFilePos, bpc }) => ({ startCp, endCp, startFilePos, bpc })),
      ccpText: b.ccpText,
      ccpFtn: b.ccpFtn,
      ccpHdd: b.ccpHdd,
      ccpAtn: b.ccpAtn,
      ccpEdn: b.ccpEdn,
      ccpTxbx: b.ccpTxbx,
      headers: this._taggedHeaders.filter((s) => s.type === 'headers').map((s) => s.text),
      footers: this._taggedHeaders.filter((s) => s.type === 'footers').map((s) => s.text),
      ...streams,
      formatRuns: this.formatRuns,
      characterPropertiesDamaged: this.characterPropertiesDamaged,
    };
    return document;
  }
}

/**
 * The raw text of a .doc from its WordDocument and table streams (read from the OLE container
 * by container.ts). Rejects with word-extractor's own error on anything it cannot read (the
 * caller maps it).
 */
export async function extractRaw(wordDocument: Buffer, table: Buffer): Promise<RawDoc> {
  const extractor = new RawExtractor(table);
  await extractor.extractWordDocument(null, wordDocument);
  if (!extractor.raw) throw new Error('no text');
  return extractor.raw;
}
