/**
 * The parts of word-extractor 1.0.4 folio uses (the package ships no types): its OLE extractor
 * class, subclassed to keep the raw piece text (cell marks, field codes) its clean-up discards.
 */
declare module 'word-extractor/lib/buffer-reader.js' {
  class BufferReader {
    constructor(buffer: Buffer);
    open(): Promise<void>;
    close(): Promise<void>;
  }
  export = BufferReader;
}

declare module 'word-extractor/lib/word-ole-extractor.js' {
  import type BufferReader from 'word-extractor/lib/buffer-reader.js';

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
    extract(reader: BufferReader): Promise<WordOleExtractor.ExtractedDocument>;
    protected writeCharacterProperties(buffer: Buffer, tableBuffer: Buffer): void;
    protected writeParagraphProperties(buffer: Buffer, tableBuffer: Buffer): void;
    protected normalizeHeaders(buffer: Buffer, tableBuffer: Buffer): void;
    protected buildDocument(): WordOleExtractor.ExtractedDocument;
  }
  export = WordOleExtractor;
}
