/**
 * OCR of one PDF page: `pdftoppm -r 300 -gray` renders it to a PGM (grayscale PNM: no PNG
 * compression, ten times faster to write than PNG), `tesseract --psm 3` reads it and prints TSV.
 * The pixels never touch the disk: pdftoppm's stdout is relayed into tesseract's stdin (child.ts),
 * and kept in memory for the weight of the type (weight.ts).
 * A page that read badly is rendered once more for tesseract's script detection (script.ts).
 */
import type { Rule, Word } from '../readers/pdf/page-model.ts';
import { runPipelineKeepingInput, type Command } from './child.ts';
import { rulesFromImage } from './rulings.ts';
import { detectScript, readBadly, type DetectedScript } from './script.ts';
import { wordsFromTsv, type PageSize } from './tsv.ts';
import { parsePgm } from './weight.ts';

/** Rendering resolution: tesseract is trained on text of roughly 10 pt at 300 dpi. */
export const OCR_DPI = 300;
/**
 * The longest side of a rendered page, in pixels: a poster-sized page at 300 dpi would be a
 * 70-megapixel image that takes tesseract many seconds and is mostly no finer than its scan.
 * 4200 px holds A4 and Letter at 300 dpi, A3 at 250.
 */
export const MAX_SIDE_PX = 4200;

/** The resolution a page is rendered at: 300 dpi, less for pages too large for MAX_SIDE_PX. */
export function renderDpi(size: PageSize): number {
  const longest = Math.max(size.width, size.height) / 72;
  return longest > 0 ? Math.max(1, Math.min(OCR_DPI, Math.floor(MAX_SIDE_PX / longest))) : OCR_DPI;
}

export function rasterizeCommand(pdfPath: string, pageNumber: number, dpi: number = OCR_DPI): Command {
  const page = String(pageNumber);
  // No output root: pdftoppm writes the single page's image to stdout.
  return { program: 'pdftoppm', file: 'pdftoppm', args: ['-r', String(dpi), '-gray', '-f', page, '-l', page, pdfPath] };
}

export function tesseractCommand(languages: string, dpi: number = OCR_DPI): Command {
  // One thread per tesseract: OpenMP's default (every core) made one page 6× slower on 2 cores,
  // and folio already runs pages side by side. `env` sets the variable for the child only.
  return {
    program: 'tesseract',
    file: 'env',
    args: ['OMP_THREAD_LIMIT=1', 'tesseract', 'stdin', 'stdout', '--dpi', String(dpi), '--psm', '3', '-l', languages, 'tsv'],
  };
}

export interface OcrPageReading {
  words: Word[];
  /** The ruling lines the image shows (rulings.ts), for a page whose text layer draws none. */
  rules: Rule[];
  /** The script the page is set in, when the reading went badly and OSD is sure of it (script.ts). */
  script?: DetectedScript;
}

/** The words tesseract reads on page `pageNumber` (1-based) of the PDF at `pdfPath`. */
export async function ocrPage(pdfPath: string, pageNumber: number, size: PageSize, languages: string, signal: AbortSignal): Promise<OcrPageReading> {
  const dpi = renderDpi(size);
  const render = rasterizeCommand(pdfPath, pageNumber, dpi);
  // The rendered page is kept for the weight of the type (weight.ts): tesseract reports none.
  const { output: tsv, input } = await runPipelineKeepingInput(render, tesseractCommand(languages, dpi), signal);
  const image = input ? parsePgm(input) : undefined;
  const words = wordsFromTsv(tsv, size, image);
  const rules = image ? rulesFromImage(image, size) : [];
  if (!readBadly(tsv)) return { words, rules };
  const script = await detectScript(render, dpi, signal);
  return script ? { words, rules, script } : { words, rules };
}
