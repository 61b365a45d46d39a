/**
 * What the PDF table tests share: a page's model as the reader extracts it (mode fast: no
 * images), a table as rows of cell texts, and a one-page A4 PDF in Helvetica (F1) and
 * Helvetica-Bold (F2) and Courier (F3) around a content stream the test draws: runs of text and ruled grids.
 */
import { expect } from 'vitest';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import type { PageModel } from '../../src/parse/readers/pdf/page-model.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { buildPdf } from '../helpers/hostile-files.ts';

export const A4_HEIGHT = 842;

/** Page `page` of the PDF, as the reader's page model. */
export async function pageModel(bytes: Buffer, page: number): Promise<PageModel> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument(documentParameters(bytes, { images: false })).promise;
  try {
    return await extractPage(pdfjs, await doc.getPage(page), page);
  } finally {
    await doc.destroy();
  }
}

/** Page 1 of the PDF, as the reader's page model. */
export function firstPageModel(bytes: Buffer): Promise<PageModel> {
  return pageModel(bytes, 1);
}

/** The tables the finder lays out on page `page` of the PDF. */
export async function tablesOnPage(bytes: Buffer, page: number): Promise<PdfTable[]> {
  return findTables(await pageModel(bytes, page));
}

/** The table as rows of cell texts (spans not expanded). */
export function rowTexts(t: PdfTable): string[][] {
  return Array.from({ length: t.rows }, (_, r) => t.cells.filter((c) => c.row === r).map((c) => c.text));
}

/** One A4 page drawing `content` (PDF operators; fonts /F1 Helvetica, /F2 Helvetica-Bold and /F3 Courier). */
export function helveticaA4(content: string): Buffer {
  const stream = Buffer.from(content, 'latin1');
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 ${A4_HEIGHT}] /Resources << /Font << /F1 4 0 R /F2 6 0 R /F3 7 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from('\nendstream')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
  ]);
}

/** A run of text: left edge, baseline (from the page's top), bold or not. */
export type TextRun = [text: string, x: number, y: number, bold?: boolean];

/** The runs in Helvetica 8 pt (bold: Helvetica-Bold), parentheses and backslashes escaped for a PDF string. */
export function textRunOps(runs: readonly TextRun[]): string[] {
  return runs.map(([t, x, y, bold]) => `BT /${bold ? 'F2' : 'F1'} 8 Tf ${x} ${A4_HEIGHT - y} Td (${t.replace(/[()\\]/g, '\\$&')}) Tj ET`);
}

/** A ruled grid: column edges xs, row edges ys (from the page's top), every line running edge to edge. */
export function gridRuleOps(xs: readonly number[], ys: readonly number[]): string[] {
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  const y0 = ys[0] as number;
  const y1 = ys[ys.length - 1] as number;
  return [...ys.map((y) => `${x0} ${A4_HEIGHT - y} m ${x1} ${A4_HEIGHT - y} l S`), ...xs.map((x) => `${x} ${A4_HEIGHT - y0} m ${x} ${A4_HEIGHT - y1} l S`)];
}

/** One A4 page: half-point rules (`ruleOps`), then the runs. */
export function ruledPdf(ruleOps: readonly string[], runs: readonly TextRun[]): Buffer {
  return helveticaA4(`0.5 w\n${[...ruleOps, ...textRunOps(runs)].join('\n')}\n`);
}

/** The page's one table (the test fails when there is none or more than one). */
export async function onlyTable(bytes: Buffer): Promise<PdfTable> {
  const tables = findTables(await firstPageModel(bytes));
  expect(tables).toHaveLength(1);
  return tables[0] as PdfTable;
}
