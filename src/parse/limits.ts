/**
 * Limits at the source: how much a hostile file may make a reader inflate, decode, draw or nest
 * before the read stops with a 400 naming the limit (docs/parsing.md, "Limits at the source").
 * The doors build them from config (FOLIO_MAX_…) and hand them to parse(); the core never reads
 * the environment. Every field left out takes its default, the same figure as config.ts's.
 */
export interface SourceLimits {
  /** Bytes all parts of one zip package (DOCX, ODT, XLSX) may inflate to, together. */
  maxUnzippedBytes: number;
  /** Pixels (width × height) of one PDF image; a bigger one is not decoded and the file refused. */
  maxImagePixels: number;
  /** Bytes one PDF stream may inflate to. */
  maxPdfStreamBytes: number;
  /** Drawing operators on one PDF page. */
  maxPdfOperatorsPerPage: number;
  /** Path segments (moves, lines, curves) on one PDF page. */
  maxPdfPathSegments: number;
  /** Elements of one HTML page. */
  maxHtmlNodes: number;
  /** Nesting depth of one HTML page's elements. */
  maxHtmlDepth: number;
}

export const DEFAULT_SOURCE_LIMITS: SourceLimits = {
  maxUnzippedBytes: 512 * 1024 * 1024,
  maxImagePixels: 100_000_000,
  maxPdfStreamBytes: 256 * 1024 * 1024,
  maxPdfOperatorsPerPage: 2_000_000,
  maxPdfPathSegments: 2_000_000,
  maxHtmlNodes: 1_000_000,
  maxHtmlDepth: 5_000,
};

export function sourceLimits(partial: Partial<SourceLimits> = {}): SourceLimits {
  return { ...DEFAULT_SOURCE_LIMITS, ...partial };
}

/** "512 MB", "100 million": a limit as a person reads it. */
export function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}
