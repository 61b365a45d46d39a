import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
import type { PageModel } from '../../src/parse/readers/pdf/page-model.ts';
import { documentParameters, loadPdfjs } from '../../src/parse/readers/pdf/pdfjs.ts';
import { findTables, tableHtml, type PdfTable, type PdfTableCell } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT, firstPageModel, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

async function benchPage(id: string): Promise<PageModel> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument(documentParameters(readCorpus('pdf-bench', 'pdfs', `${id}.pdf`), { images: false })).promise;
  try {
    return await extractPage(pdfjs, await doc.getPage(1), 1);
  } finally {
    await doc.destroy();
  }
}

function cell(t: PdfTable, row: number, col: number): PdfTableCell | undefined {
  return t.cells.find((c) => c.row === row && c.col === col);
}

/** The table as rows of cell texts (spans not expanded). */
function texts(t: PdfTable): string[][] {
  return Array.from({ length: t.rows }, (_, r) => t.cells.filter((c) => c.row === r).map((c) => c.text));
}

describe('PDF tables: ruled', () => {
  it('reads a fully ruled table cell by cell, with its total row and an empty cell', async () => {
    // DP-Bench page: the NEC's accredited observers, a 3-column grid with a total row.
    const page = await benchPage('01030000000045');
    const tables = findTables(page);
    expect(tables).toHaveLength(1);
    const [t] = tables as [PdfTable];
    expect([t.rows, t.cols]).toEqual([9, 3]);
    expect(texts(t)[0]).toEqual(['No.', 'Name of organization', 'Number of accredited observers']);
    expect(texts(t)[1]).toEqual(['1', 'Union of Youth Federations of Cambodia (UYFC)', '17,266']);
    expect(texts(t)[8]).toEqual(['', 'Total', '27,926']);
    // The table's words are claimed (so layout leaves them out of the running text); the caption is not.
    const claimed = new Set(t.words.map((i) => page.words[i]?.text));
    expect(claimed.has('17,266')).toBe(true);
    expect(claimed.has('Table:')).toBe(false);
    const html = tableHtml(t);
    expect(html).toMatch(/^<table>.*<\/table>$/);
    expect(html).toContain('<td>Union of Youth Federations of Cambodia (UYFC)</td><td>17,266</td>');
  });

  it('merges grid cells where an inner rule is missing (a two-level header) and keeps multi-line cells whole', async () => {
    const page = await benchPage('01030000000046');
    const [t] = findTables(page) as [PdfTable];
    expect([t.rows, t.cols]).toEqual([12, 7]);
    expect(cell(t, 0, 0)).toMatchObject({ text: 'No.', rowSpan: 2, colSpan: 1 });
    expect(cell(t, 0, 2)).toMatchObject({ text: 'Provisional registration result on 7 March', rowSpan: 1, colSpan: 2 });
    expect(cell(t, 0, 6)).toMatchObject({ text: 'Difference in the number of candidates', rowSpan: 2 });
    expect(cell(t, 1, 2)?.text).toBe('Number of commune/ sangkat');
    expect(texts(t)[2]).toEqual(['1', 'Cambodian People’s Party', '1,652', '28,008', '1,652', '28,008', '0']);
    expect(tableHtml(t)).toContain('<td colspan="2">Provisional registration result on 7 March</td>');
  });

  it('keeps a table whose shaded rows alternate with unpainted ones whole, with its two-level head', async () => {
    // Remittance inflows: head cells shaded, body rows shaded every other pair, no rules at all.
    const [t, ...more] = findTables(await benchPage('01030000000078'));
    expect(more).toEqual([]);
    expect([t?.rows, t?.cols]).toEqual([10, 7]);
    if (!t) return;
    expect(cell(t, 0, 1)).toMatchObject({ text: 'Average Annual Growth', colSpan: 5 });
    expect(cell(t, 0, 6)).toMatchObject({ text: 'Remittance inflows in 2020 (US$ Million)', rowSpan: 2 });
    expect(texts(t)[2]).toEqual(['Cambodia', '7.5%', '-0.7%', '50.6%', '6.7%', '-16.6%', '1,272']);
    // The bar chart above the table (bars and grid lines) is not a table.
    expect(t.y0).toBeGreaterThan(page078Chart);
  });
});

/** Below the figure of page 01030000000078 (its chart ends above this y, in points). */
const page078Chart = 300;

describe('PDF tables: one ruled column with a head', () => {
  it('reads a ruled one-column grid whose bold head row sits over its entries as a table', async () => {
    const [t, ...rest] = findTables(await benchPage('01030000000149')) as [PdfTable];
    expect(rest).toEqual([]);
    expect([t.rows, t.cols]).toEqual([8, 1]);
    expect(cell(t, 0, 0)).toMatchObject({ text: 'Eco-Circle Competence Framework', header: true });
    expect(cell(t, 1, 0)).toMatchObject({ text: '#1: The 3 Rs: Recycle-Reuse-Reduce', header: false });
    expect(cell(t, 7, 0)?.text).toBe('#7: Supporting Local Eco-friendly and Green Activities');
  });
});

describe('PDF tables: column heads above the grid', () => {
  it('takes the line right above a grid without a head of its own as its head row', async () => {
    // Product comparison: "OCR", "Recommendation", "Product semantic search" sit above the top rule.
    const [t, ...more] = findTables(await benchPage('01030000000182'));
    expect(more).toEqual([]);
    if (!t) throw new Error('no table');
    expect([t.rows, t.cols]).toEqual([4, 4]);
    expect(texts(t)[0]).toEqual(['', 'OCR', 'Recommendation', 'Product semantic search']);
    expect(cell(t, 1, 0)?.text).toBe('Pack');
  });

  it('leaves a caption above a grid that has its own head row out of the table', async () => {
    const page = await benchPage('01030000000178');
    const [t] = findTables(page);
    if (!t) throw new Error('no table');
    expect(texts(t)[0]).toEqual(['Communication Channel', 'Medium', 'Examples']);
    expect(new Set(t.words.map((i) => page.words[i]?.text)).has('promotional')).toBe(false);
  });
});

describe('PDF tables: columns from alignment', () => {
  it('reads a table ruled across only (top, head and bottom rules): its columns from the alignment of the text', async () => {
    // Table 13.4: a rule above, under the head, and below; two aligned columns.
    const [t, ...more] = findTables(await benchPage('01030000000166'));
    expect(more).toEqual([]);
    expect([t?.rows, t?.cols]).toEqual([7, 2]);
    if (!t) return;
    expect(texts(t)[0]).toEqual(['Mineral or colloid type', 'CEC of pure colloid']);
    // The longest name runs close to the numbers' column without joining it.
    expect(texts(t)).toContainEqual(['montmorillonite/smectite', '100']);
    expect(texts(t)[6]).toEqual(['humus', '200']);
  });
});

describe('PDF tables: columns from a bold head line', () => {
  it('reads a table ruled above and below whose columns but the first are blank, its columns from the bold head', async () => {
    // A worksheet's table: "Added cation" and "Relative Size & Settling Rates of Floccules" in
    // bold, a little further apart than their word spaces; the second column left to fill in.
    const page = await benchPage('01030000000165');
    const [t, ...more] = findTables(page);
    expect(more).toEqual([]);
    if (!t) throw new Error('no table');
    expect([t.rows, t.cols]).toEqual([6, 2]);
    expect(texts(t)[0]).toEqual(['Added cation', 'Relative Size & Settling Rates of Floccules']);
    expect(t.cells.filter((c) => c.header).map((c) => c.row)).toEqual([0, 0]);
    expect(texts(t).slice(1)).toEqual([['K+', ''], ['Na+', ''], ['Ca2+', ''], ['Al3+', ''], ['Check', '']]);
    // The paragraphs under the table (down to the underlined blanks) stay text.
    const claimed = new Set(t.words.map((i) => page.words[i]?.text));
    expect(claimed.has('Activity')).toBe(false);
  });
});

describe('PDF tables: booktabs', () => {
  it('splits three small-type tables of one width and marks the row above the mid rule as the head', async () => {
    // Ablation tables of a paper: top, mid and bottom rules only, captions between the tables.
    const tables = findTables(await benchPage('01030000000189'));
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([
      [6, 11],
      [4, 10],
      [3, 9],
    ]);
    const [first] = tables as [PdfTable];
    expect(texts(first)[0]?.slice(0, 3)).toEqual(['Model', 'Alpaca-GPT4', 'OpenOrca']);
    expect(texts(first)[1]?.slice(0, 5)).toEqual(['SFT v1', 'O', '✗', '✗', '69.15']);
    expect(first.cells.filter((c) => c.header).map((c) => c.row)).toEqual(new Array<number>(11).fill(0));
  });
});

describe('PDF tables: borderless', () => {
  it('reads a table of shaded rows with a rule after the first column: its columns kept in the unpainted rows', async () => {
    // Top ports by ship calls: body rows shaded every other one, a rule after the port names,
    // "Foreign"/"Domestic" in the first row; "PORT" and "SHIPCALLS" above the frame (the
    // second over both figure columns) stay text.
    const page = await benchPage('01030000000064');
    const [t, ...more] = findTables(page);
    expect(more).toEqual([]);
    if (!t) throw new Error('no table');
    expect([t.rows, t.cols]).toEqual([11, 3]);
    expect(texts(t)[0]).toEqual(['', 'Foreign', 'Domestic']);
    expect(texts(t)[1]).toEqual(['MANILA', '2454', '6,125']);
    expect(texts(t)[2]).toEqual(['CEBU', '1138', '79,500']);
    expect(texts(t)).toContainEqual(['CAGAYAN DE ORO', '137', '3,159']);
    // The paragraph under the table and the caption stay running text.
    const claimed = new Set(t.words.map((i) => page.words[i]?.text));
    expect(claimed.has('Table')).toBe(false);
  });
});

describe('PDF tables: no rules at all', () => {
  it('finds a table from aligned columns alone, its head line included', async () => {
    // Saccharometer volumes: four aligned columns under a head line, no rule, no box.
    const [t, ...more] = findTables(await benchPage('01030000000117'));
    expect(more).toEqual([]);
    if (!t) throw new Error('no table');
    expect([t.rows, t.cols]).toEqual([4, 4]);
    expect(texts(t)[0]).toEqual(['Saccharometer', 'DI Water', 'Glucose Solution', 'Yeast Suspension']);
    expect(texts(t)[1]).toEqual(['2', '24 ml', '0 ml', '4 ml']);
    expect(texts(t)[3]).toEqual(['4', '4 ml', '12 ml', '12 ml']);
    // The head is bold and the body is not: a header row, rendered in <thead> as <th>.
    expect(t.cells.filter((c) => c.header).map((c) => c.row)).toEqual([0, 0, 0, 0]);
    expect(tableHtml(t)).toMatch(/^<table><thead><tr><th>Saccharometer<\/th>.*<\/thead><tbody><tr><td>2<\/td>/);
  });
});

describe('PDF tables: one row under a bold head', () => {
  it('reads a bold head line over a single row whose cells start flush under its words as a table of two rows', async () => {
    // Two saccharometer tables: the first of four rows found by alignment, the second (doubled
    // amounts) only a head set close in bold and one row, each cell flush under its head word.
    const page = await benchPage('01030000000116');
    const tables = findTables(page);
    expect(tables).toHaveLength(2);
    const second = tables[1] as PdfTable;
    expect(texts(second)).toEqual([
      ['Saccharometer', 'DI Water', 'Glucose Solution', 'Yeast Suspension'],
      ['1', '16 ml', '12 ml', '0 ml'],
    ]);
    expect(second.cells.filter((c) => c.header).map((c) => c.row)).toEqual([0, 0, 0, 0]);
    // The bold note between the tables stays text.
    const claimed = new Set(tables.flatMap((t) => t.words.map((i) => page.words[i]?.text)));
    expect(claimed.has('*Double')).toBe(false);
  });
});

describe('PDF tables: columns set tight', () => {
  it('parts two head cells and their columns at a narrow gutter every line is flush on both sides of', async () => {
    // PDF/UA invoice: item numbers flush right against descriptions flush left, four points apart.
    const pdfjs = await loadPdfjs();
    const doc = await pdfjs.getDocument(documentParameters(readCorpus('pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-02_Invoice.pdf'), { images: false })).promise;
    const page = await extractPage(pdfjs, await doc.getPage(1), 1);
    await doc.destroy();
    const [t, ...more] = findTables(page);
    expect(more).toEqual([]);
    if (!t) throw new Error('no table');
    expect(texts(t)[0]).toEqual(['ITEM', 'DESCRIPTION', 'QUANTITY', 'PRICE (€)', 'AMOUNT (€)']);
    expect(texts(t)).toContainEqual(['6', 'Pretty Dark Flyer', '1', '75.00', '75.00']);
  });

  it('keeps numbered entries under a one-word head whole ("1.1 Valuing sustainability")', async () => {
    const [t] = findTables(await benchPage('01030000000146')) as [PdfTable];
    expect(t.cols).toBe(2);
    expect(texts(t)[0]).toEqual(['Area', 'Competence']);
    expect(texts(t)[1]).toContain('1.1 Valuing sustainability');
  });
});

describe('PDF tables: a word space repeated down a column', () => {
  it('keeps "Cell 1A" one cell where every row repeats its first word at one place', async () => {
    // Three columns, each cell "Cell" and a code: the word space after "Cell" stands at the same
    // x on every line, but is no wider than the table's other word spaces.
    const rule = (y: number): string => `50 ${A4_HEIGHT - y} m 450 ${A4_HEIGHT - y} l S`;
    const xs = [52, 170, 320];
    const runs: TextRun[] = [1, 2, 3].flatMap((r): TextRun[] => ['A', 'B', 'C'].map((c, k): TextRun => [`Cell ${r}${c}`, xs[k] as number, 128 + 14 * r]));
    const tables = findTables(await firstPageModel(ruledPdf([rule(118), rule(147), rule(178)], runs)));
    expect(tables).toHaveLength(1);
    expect(texts(tables[0] as PdfTable)).toEqual([
      ['Cell 1A', 'Cell 1B', 'Cell 1C'],
      ['Cell 2A', 'Cell 2B', 'Cell 2C'],
      ['Cell 3A', 'Cell 3B', 'Cell 3C'],
    ]);
  });
});

describe('PDF tables: the sentence introducing a borderless table', () => {
  it('is left out of the table: a line ending in a colon is no head', async () => {
    const rows: [string, string, string, string][] = [['Python', '1991', 'Dynamic', 'General purpose'], ['Rust', '2015', 'Static', 'Systems'], ['TypeScript', '2012', 'Static', 'Web development'], ['Go', '2009', 'Static', 'Cloud services']];
    const xs = [52, 150, 230, 320];
    const runs: TextRun[] = [
      ['Here is a comparison of the popular programming languages of the web:', 52, 100],
      ...['Language', 'Year', 'Typing', 'Primary Use'].map((t, k): TextRun => [t, xs[k] as number, 114, true]),
      ...rows.flatMap((r, i) => r.map((t, k): TextRun => [t, xs[k] as number, 126 + 12 * i])),
    ];
    const tables = findTables(await firstPageModel(ruledPdf([], runs)));
    expect(tables).toHaveLength(1);
    expect(texts(tables[0] as PdfTable)).toEqual([['Language', 'Year', 'Typing', 'Primary Use'], ...rows]);
  });
});

describe('PDF tables: a row set tight', () => {
  it('keeps a row whose two cells sit closer than a gutter, and a head spanning both columns', async () => {
    // Fish species on the IUCN Red List: common and scientific names, no rules.
    const [t, ...more] = findTables(await benchPage('01030000000132'));
    expect(more).toEqual([]);
    if (!t) throw new Error('no table');
    expect([t.rows, t.cols]).toEqual([5, 2]);
    expect(cell(t, 0, 0)).toMatchObject({ text: 'Fish species on IUCN Red List', colSpan: 2 });
    expect(texts(t)[1]).toEqual(['Potosi Pupfish', 'Cyprinodon alvarezi']);
    expect(texts(t)[2]).toEqual(['La Palma Pupfish', 'Cyprinodon longidorsalis']);
  });
});

describe('PDF tables: heads centred over narrow columns', () => {
  it('keeps a head centred over a column of item numbers in that column', async () => {
    // Table 2: "Saccharometer" is centred over the column of 1–4, wider than it.
    const tables = findTables(await benchPage('01030000000116'));
    const t = tables.find((x) => x.cells.some((c) => c.text === 'Saccharometer'));
    if (!t) throw new Error('no table');
    expect([t.rows, t.cols]).toEqual([5, 4]);
    expect(texts(t)[0]).toEqual(['Saccharometer', 'DI Water', 'Glucose Solution', 'Yeast Suspension']);
    expect(texts(t)[1]).toEqual(['1', '*8 ml', '*6 ml', '0 ml']);
  });
});

describe('PDF tables: wrapped column heads', () => {
  it('reads staggered, wrapped head lines above the first full row as head rows, not rows of their own', async () => {
    // P values for contour farming: heads over two lines ("Slope Gradient" / "(%)"), then figures.
    const [t] = findTables(await benchPage('01030000000170'));
    if (!t) throw new Error('no table');
    expect([t.rows, t.cols]).toEqual([8, 6]);
    expect(texts(t)[1]).toEqual(['Slope Gradient (%)', 'Max Slope Length (ft)', 'P Value', 'Strip Width (ft)', 'P Value, RGMM', 'P Value, RRGM']);
    expect(texts(t)[2]).toEqual(['1 - 2', '400', '0.6', '130', '0.30', '0.45']);
  });
});

describe('PDF tables: not tables', () => {
  it('finds none on a two-column prose page with a bar chart', async () => {
    expect(findTables(await benchPage('01030000000036'))).toEqual([]);
  });

  it('finds none in a table of contents (entries and page numbers read as text), boxed in rules or not', async () => {
    expect(findTables(await benchPage('01030000000016'))).toEqual([]);
    expect(findTables(await benchPage('01030000000044'))).toEqual([]);
  });

  it('finds none in a chart’s frame stacked over its caption box (label cell and caption)', async () => {
    expect(findTables(await benchPage('01030000000072'))).toEqual([]);
  });

  it('finds none in a numbered list set with hanging numbers inside a shaded panel', async () => {
    expect(findTables(await benchPage('01030000000162'))).toEqual([]);
    expect(findTables(await benchPage('01030000000161'))).toEqual([]);
  });
});
