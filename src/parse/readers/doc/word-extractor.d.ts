/**
 * The parts of word-extractor 1.0.4 folio uses (the package ships no types): its OLE extractor
 * class, subclassed to keep the raw piece text (cell marks, field codes) its clean-up discards
 * and fed with streams folio reads itself (its own OLE reader follows sector chains without
 * cycle detection: a looped FAT grows an array until the process dies).
 */
declare module 'word-extractor/lib/word-ole-extractor.js' {
  namespace WordOleExtractor {
    interface Piece {
      startCp: number;
      endCp: number;
      startFilePos: number;
      bpc: number;
      text: string;
    }
    interface Boundaries {
      ccpText: number;
      ccpFtn: number;
      ccpHdd: number;
      ccpAtn: number;
      ccpEdn: number;
      ccpTxbx: number;
      ccpHdrTxbx: number;
    }
    interface TaggedStory {
      type: 'headers' | 'footers' | 'footnoteSeparators' | 'endSeparators';
      text: string;
    }
    /** word-extractor's own result object; folio reads the extractor's fields instead. */
    interface ExtractedDocument {
      getBody(): string;
    }
  }

  class WordOleExtractor {
    protected _pieces: WordOleExtractor.Piece[];
    protected _boundaries: WordOleExtractor.Boundaries;
    protected _taggedHeaders: WordOleExtractor.TaggedStory[];
    /** Reads the FIB, piece table and stories from the WordDocument stream; the table stream comes through documentStream/streamBuffer. */
    extractWordDocument(document: unknown, buffer: Buffer): Promise<WordOleExtractor.ExtractedDocument>;
    protected documentStream(document: unknown, streamName: string): Promise<unknown>;
    protected streamBuffer(stream: unknown): Promise<Buffer>;
    protected writeCharacterProperties(buffer: Buffer, tableBuffer: Buffer): void;
    protected writeParagraphProperties(buffer: Buffer, tableBuffer: Buffer): void;
    protected normalizeHeaders(buffer: Buffer, tableBuffer: Buffer): void;
    protected buildDocument(): WordOleExtractor.ExtractedDocument;
  }
  export = WordOleExtractor;
}
