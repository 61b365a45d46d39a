/**
 * Header rows of tables with merged cells: the markdown writes such a table as an HTML `<table>`
 * (span-table.ts) with the rows the table's structure calls header rows inside `<thead>` as
 * `<th>`. On real documents of every format whose reader makes tables with merged cells (docx
 * through mammoth, odt, xlsx, xls, pdf), the markdown's header rows are the html format's.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { readCorpus } from '../helpers/corpus.ts';

interface TableShape {
  /** Cells per row, each `colspan x rowspan`: what matches a markdown table to its html one. */
  shape: string;
  /** The text of each header row's cells. */
  head: string[][];
  /** Whether every cell of the header rows is a `<th>`. */
  headCellsTh: boolean;
}

function spans(cell: Element): string {
  return `${cell.getAttribute('colspan') ?? '1'}x${cell.getAttribute('rowspan') ?? '1'}`;
}

function tableShapes(html: string): TableShape[] {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const out: TableShape[] = [];
  for (const table of Array.from(document.querySelectorAll('table'))) {
    if (table.parentElement?.closest('table')) continue;
    const rows = Array.from(table.querySelectorAll('tr')).filter((tr) => tr.closest('table') === table);
    const headRows = rows.filter((tr) => tr.parentElement?.nodeName === 'THEAD');
    const cells = (tr: Element): Element[] => Array.from(tr.children).filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH');
    out.push({
      shape: rows.map((tr) => cells(tr).map(spans).join(',')).join('|'),
      head: headRows.map((tr) => cells(tr).map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim())),
      headCellsTh: headRows.every((tr) => cells(tr).every((c) => c.nodeName === 'TH')),
    });
  }
  return out;
}

/** The HTML tables the markdown holds (tables with merged cells), as written. */
function markdownHtmlTables(markdown: string): string[] {
  return markdown.match(/^<table>\n[\s\S]*?\n<\/table>$/gm) ?? [];
}

async function bothFormats(folder: string, name: string): Promise<{ markdown: string; html: string }> {
  const options = parseOptions({ formats: ['markdown', 'html'], parsers: [{ type: 'pdf', mode: 'fast' }] });
  const data = await parse({ bytes: readCorpus(folder, name), filename: name }, options);
  return { markdown: data.markdown ?? '', html: data.html ?? '' };
}

describe('tables with merged cells: header rows in the markdown are the html format\'s', () => {
  it.each([
    ['office/docx', 'docling-word_tables.docx', 0],
    ['office/odt', 'docling-text_document_02.odt', 0],
    ['office/xlsx', 'sheetjs-merge_cells.xlsx', 1],
    ['office/xls', 'sheetjs-merge_cells.xls', 1],
    ['office/xlsx', 'docling-xlsx_01.xlsx', 2],
    ['pdf/olmocr/pdfs', 'earnings.pdf', 1],
    ['pdf/olmocr/pdfs', 'olmo2-pg4.pdf', 1],
    ['pdf/olmocr/pdfs', 'discoverworld_crazy_table4.pdf', 0],
  ] as const)('%s/%s', async (folder, name, withHead) => {
    const { markdown, html } = await bothFormats(folder, name);
    const written = markdownHtmlTables(markdown);
    expect(written.length).toBeGreaterThan(0);
    const source = tableShapes(html);
    let headed = 0;
    let next = 0;
    for (const table of written) {
      const [md] = tableShapes(table);
      if (md === undefined) throw new Error('no table parsed');
      // The html format's next table of the same shape (the same rows, cells and spans).
      const at = source.findIndex((t, i) => i >= next && t.shape === md.shape);
      expect(at, `no table of this shape in the html format:\n${table.slice(0, 300)}`).toBeGreaterThanOrEqual(0);
      const match = source[at];
      next = at + 1;
      expect(md.head).toEqual(match?.head);
      expect(md.headCellsTh).toBe(true);
      // One <thead>, before every body row, or none.
      expect(table.match(/<thead>/g)?.length ?? 0).toBe(md.head.length > 0 ? 1 : 0);
      if (md.head.length > 0) {
        headed++;
        expect(table.split('\n')[1]).toBe('<thead>');
      }
    }
    expect(headed).toBeGreaterThanOrEqual(withHead);
  });
});
