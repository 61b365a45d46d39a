/**
 * One PDF page as the layout analysis sees it, whatever produced it: the text layer (pdf.js text
 * items, split into words, plus the ruling lines and images of the operator list) or OCR
 * (tesseract's word boxes). Layout, table finding and the OCR decision read only this.
 *
 * Coordinates are PDF points in the page's displayed orientation (the page's /Rotate applied):
 * origin at the top-left corner, x grows to the right, y grows DOWNWARDS. A box is
 * `x0 ≤ x1`, `y0 ≤ y1`.
 */

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A run of text without spaces, with its box. */
export interface Word extends Box {
  text: string;
  /** Font size in points (the glyph height for OCR words). */
  size: number;
  /** Identifies the typeface: equal keys, same font. OCR words share one key. */
  font: string;
  bold: boolean;
  italic: boolean;
  /** Set in a fixed-pitch font (the font says so, or its name: Courier, …Mono, Consolas). */
  monospace?: boolean;
  /** Position in the source order (content stream / tesseract output): the fallback reading order. */
  order: number;
  /** The word is set along another direction than left-to-right horizontal (rotated or vertical text). */
  rotated: boolean;
  /** The baseline's y (same axis as y0/y1). */
  baseline: number;
  /**
   * Tagged PDF (ISO 32000-1 §14.8): the standard structure type of the block the word belongs to
   * ('H1'…'H6', 'H', 'Title', 'P', 'LI', 'Table', 'TH', 'TD', 'Caption', 'Note', 'Figure', …; role
   * maps applied). Absent when the document is not tagged.
   */
  role?: string;
  /** Marked as an artifact (§14.8.2.2): page furniture such as running headers and page numbers. */
  artifact?: boolean;
}

/**
 * A ruling line: a stroked segment or a thin filled rectangle (≤ 2 pt across), horizontal or
 * vertical (within a degree). Table borders and underlines come out as rules.
 */
export interface Rule extends Box {
  orientation: 'horizontal' | 'vertical';
}

/** A painted image (or inline image) and where it lands on the page. */
export interface ImageBox extends Box {
  /** Alternative text from a tagged PDF's structure tree (`/Alt`), when there is one. */
  alt?: string;
}

/** A link annotation with a URI action. */
export interface LinkBox extends Box {
  url: string;
}

export interface PageModel {
  /** 1-based page number. */
  number: number;
  width: number;
  height: number;
  words: Word[];
  rules: Rule[];
  /** Filled rectangles larger than rules (cell shading, boxes): optional evidence for tables. */
  fills: Box[];
  images: ImageBox[];
  links: LinkBox[];
  source: 'text' | 'ocr';
  /** The page drew more than a limit allows (FOLIO_MAX_PDF_OPERATORS, …): its rules, boxes and images were left out, and this names the limit. */
  drawingSkipped?: string;
}
