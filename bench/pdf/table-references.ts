/**
 * Reference tables for PDFs outside the bench's split (bench/pdf/tables-outside.ts, issue 16):
 *
 * - a tagged PDF's structure tree (ISO 32000-1 §14.8.4.3.4): each `Table` element is a table,
 *   its `TR` elements (directly or under `THead`/`TBody`/`TFoot`) the rows, their `TH`/`TD`
 *   children the cells, a cell's text the text of the marked content under it. pdf.js's
 *   `getStructTree()` does not report the `ColSpan`/`RowSpan` attributes, so every reference
 *   cell spans one column and one row (a tagged table with merged cells scores a little low);
 * - docling's Markdown beside its test PDFs: its pipe tables, turned into HTML by the bench's own
 *   converter (markdown-tables.ts). Another tool's output, not the truth; it has no page breaks,
 *   so each table is placed on the page whose text holds the most of its words.
 *
 * Matching (found / missed / extra) pairs a reference table with the predicted table of the same
 * page sharing the most of its words, when they share at least a third of the reference's words
 * (each predicted table matched once).
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { extractTables, unescapeHtml } from './html-table.ts';
import { htmlEscape, markdownTablesToHtml } from './markdown-tables.ts';
import { sharedCount } from './multiset.ts';

/** A node of pdf.js's `page.getStructTree()`: an element (role, children) or content (id). */
export interface StructNode {
  role?: string;
  type?: string;
  id?: string;
  children?: StructNode[];
}

const CELL = new Set(['TH', 'TD']);
const SECTION = new Set(['THead', 'TBody', 'TFoot']);

function contentIds(node: StructNode, into: string[]): void {
  if (node.type === 'content' && typeof node.id === 'string') into.push(node.id);
  for (const child of node.children ?? []) contentIds(child, into);
}

function cellText(cell: StructNode, textOf: (id: string) => string): string {
  const ids: string[] = [];
  contentIds(cell, ids);
  return ids
    .map(textOf)
    .join(' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

function rowsOf(table: StructNode): StructNode[] {
  const rows: StructNode[] = [];
  for (const child of table.children ?? []) {
    if (child.role === 'TR') rows.push(child);
    else if (child.role !== undefined && SECTION.has(child.role)) rows.push(...(child.children ?? []).filter((c) => c.role === 'TR'));
  }
  return rows;
}

/** One `Table` element → `<table><tr><th>…</th><td>…</td></tr>…</table>` (empty rows dropped). */
export function structTableHtml(table: StructNode, textOf: (id: string) => string): string {
  const rows = rowsOf(table)
    .map((row) => (row.children ?? []).filter((c) => c.role !== undefined && CELL.has(c.role)))
    .filter((cells) => cells.length > 0)
    .map((cells) => `<tr>${cells.map((c) => { const tag = c.role === 'TH' ? 'th' : 'td'; return `<${tag}>${htmlEscape(cellText(c, textOf))}</${tag}>`; }).join('')}</tr>`);
  return `<table>${rows.join('')}</table>`;
}

/** Every `Table` element of a page's structure tree, outermost first, as HTML (nested ones apart). */
export function structureTables(tree: StructNode | null, textOf: (id: string) => string): string[] {
  const tables: string[] = [];
  const walk = (node: StructNode): void => {
    if (node.role === 'Table') tables.push(structTableHtml(node, textOf));
    for (const child of node.children ?? []) walk(child);
  };
  if (tree) walk(tree);
  return tables.filter((t) => t !== '<table></table>');
}

/** The items of `getTextContent({ includeMarkedContent: true })` this file reads. */
export type MarkedItem = { type: 'beginMarkedContent' | 'beginMarkedContentProps' | 'endMarkedContent'; id?: string | null } | { str: string; hasEOL?: boolean };

/** Marked-content id → its text: each string goes to the innermost open marked content with an id. */
export function markedContentText(items: MarkedItem[]): Map<string, string> {
  const texts = new Map<string, string>();
  const open: (string | null)[] = [];
  for (const item of items) {
    if ('str' in item) {
      const id = [...open].reverse().find((o): o is string => o !== null);
      if (id === undefined) continue;
      texts.set(id, (texts.get(id) ?? '') + item.str + (item.hasEOL ? ' ' : ''));
    } else if (item.type === 'endMarkedContent') open.pop();
    else open.push(item.type === 'beginMarkedContentProps' && typeof item.id === 'string' ? item.id : null);
  }
  return texts;
}

/**
 * The `Table` elements of each page's structure tree (the first `maxPages` pages: the corpus's long
 * PDFs hold their tagged tables early, if at all); null when the PDF is not tagged, or tags no
 * table and is not PDF/UA.
 */
export async function taggedTables(bytes: Buffer, maxPages = 40): Promise<string[][] | null> {
  const pdfjs = await loadPdfjs();
  let doc: PDFDocumentProxy;
  try {
    doc = await pdfjs.getDocument(documentParameters(bytes, { images: false })).promise;
  } catch {
    return null;
  }
  try {
    const pages: string[][] = [];
    let any = false;
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const page = await doc.getPage(n);
      const tree = (await page.getStructTree()) as StructNode | null;
      if (!tree) return null;
      const content = await page.getTextContent({ includeMarkedContent: true });
      const texts = markedContentText(content.items as MarkedItem[]);
      const tables = structureTables(tree, (id) => texts.get(id) ?? '');
      if (tables.length > 0) any = true;
      pages.push(tables);
      page.cleanup();
    }
    // A PDF/UA file (ISO 14289, named in its XMP metadata) must tag every table: its pages
    // without a Table element have none, and a table found there is extra.
    const pdfua = (await doc.getMetadata()).metadata?.get('pdfuaid:part');
    return any || (pdfua !== undefined && pdfua !== null) ? pages : null;
  } finally {
    await doc.destroy();
  }
}

/** docling's pipe tables (and any HTML tables) of a Markdown text, as HTML. */
export function doclingTables(markdown: string): string[] {
  return extractTables(markdownTablesToHtml(markdown));
}

/** Letters-and-digits words of a table's cells (or of any text), lower case. */
export function wordsOf(htmlOrText: string): string[] {
  const text = unescapeHtml(htmlOrText.replace(/<[^>]*>/gu, ' ')).toLowerCase();
  return text.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** The page (0-based) whose text holds the most of the table's words; -1 when none holds any. */
export function pageOfTable(tableHtml: string, pageTexts: string[]): number {
  const words = wordsOf(tableHtml);
  let best = -1;
  let bestShared = 0;
  pageTexts.forEach((text, i) => {
    const n = sharedCount(words, wordsOf(text));
    if (n > bestShared) {
      best = i;
      bestShared = n;
    }
  });
  return best;
}

export interface TableMatch {
  /** For each reference table, the index of its predicted table, or -1 (missed). */
  pairs: number[];
  /** Predicted tables matched to no reference table. */
  extra: number;
}

export const MATCH_SHARE = 1 / 3;

/** Pair the reference tables of a page with the predicted ones (see the file comment). */
export function matchTables(reference: string[], predicted: string[]): TableMatch {
  const refWords = reference.map(wordsOf);
  const predWords = predicted.map(wordsOf);
  const candidates: { r: number; p: number; share: number }[] = [];
  refWords.forEach((rw, r) => {
    predWords.forEach((pw, p) => {
      const share = rw.length === 0 ? 0 : sharedCount(rw, pw) / rw.length;
      if (share >= MATCH_SHARE) candidates.push({ r, p, share });
    });
  });
  candidates.sort((a, b) => b.share - a.share);
  const pairs = reference.map(() => -1);
  const used = new Set<number>();
  for (const c of candidates) {
    if (pairs[c.r] !== -1 || used.has(c.p)) continue;
    pairs[c.r] = c.p;
    used.add(c.p);
  }
  return { pairs, extra: predicted.length - used.size };
}
