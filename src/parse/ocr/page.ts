/**
 * OCR of one PDF page: `pdftoppm -r 300 -gray` renders it to a PGM (grayscale PNM: no PNG
 * compression, ten times faster to write than PNG), `tesseract --psm 3` reads it and prints TSV.
 */
import type { Word } from '../readers/pdf/page-model.ts';
import { runPipeline, type Command } from './child.ts';
import { wordsFromTsv, type PageSize } from './tsv.ts';

/** Rendering resolution: tesseract is trained on text of roughly 10 pt at 300 dpi. */
export const OCR_DPI = 300;

export function rasterizeCommand(pdfPath: string, pageNumber: number): Command {
  const page = String(pageNumber);
  // No output root: pdftoppm writes the single page's image to stdout.
  return { program: 'pdftoppm', file: 'pdftoppm', args: ['-r', String(OCR_DPI), '-gray', '-f', page, '-l', page, pdfPath] };
}

export function tesseractCommand(languages: string): Command {
  // One thread per tesseract: OpenMP's default (every core) made one page 6× slower on 2 cores,
  // and folio already runs pages side by side. `env` sets the variable for the child only.
  return {
    program: 'tesseract',
    file: 'env',
    args: ['OMP_THREAD_LIMIT=1', 'tesseract', 'stdin', 'stdout', '--dpi', String(OCR_DPI), '--psm', '3', '-l', languages, 'tsv'],
  };
}

/** The words tesseract reads on page `pageNumber` (1-based) of the PDF at `pdfPath`. */
export async function ocrPage(pdfPath: string, pageNumber: number, size: PageSize, languages: string, signal: AbortSignal): Promise<Word[]> {
  const tsv = await runPipeline(rasterizeCommand(pdfPath, pageNumber), tesseractCommand(languages), signal);
  return wordsFromTsv(tsv, size);
}
