/**
 * A grid of text boxes (src/parse/readers/pdf/tables/boxes.ts): a shaded panel holding a painted
 * text box per cell, no rule between them. On a benchmark page of the tuning half and on pages
 * built here, where the geometry is exactly known.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, helveticaA4, rowTexts as texts } from './pdf-table-fixtures.ts';

interface Run {
  text: string;
  x: number;
  /** Baseline, points from the page's top. */
  y: number;
  bold?: boolean;
}

/** A box painted in a grey (0 black … 1 white), top-down coordinates. */
interface Paint {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  grey: number;
}

/** One A4 page: the boxes painted first, then the runs in Helvetica 8 pt. */
function boxedPdf(paints: readonly Paint[], runs: readonly Run[]): Buffer {
  const fills = paints.map((p) => `${p.grey} g ${p.x0} ${HEIGHT - p.y1} ${p.x1 - p.x0} ${p.y1 - p.y0} re f`);
  const text = runs.map((r) => `0 g BT /${r.bold ? 'F2' : 'F1'} 8 Tf ${r.x} ${HEIGHT - r.y} Td (${r.text}) Tj ET`);
  return helveticaA4(`${[...fills, ...text].join('\n')}\n`);
}

const PANEL: Paint = { x0: 40, y0: 100, x1: 560, y1: 270, grey: 0.8 };
const A = { x0: 50, x1: 150 };
const B = { x0: 160, x1: 300 };
const C = { x0: 310, x1: 550 };
// A tint, not white: the page model keeps no white paint (it is the paper's colour).
const box = (col: { x0: number; x1: number }, y0: number, y1: number): Paint => ({ ...col, y0, y1, grey: 0.95 });

/**
 * Five rows. Each column's boxes are centred on their own text, so the columns' boxes do not
 * line up: column C's first box runs over by a line ("member" lies below it, nearer column B's
 * second box than its first), and column A's third box stands beside two of column B's (a group
 * label spanning two rows).
 */
const GRID_PAINTS: Paint[] = [
  PANEL,
  box(A, 110, 124), box(B, 110, 124), box(C, 110, 124),
  box(A, 134, 148), box(B, 134, 148), box(C, 130, 152),
  box(A, 164, 230), box(B, 164, 178), box(C, 180, 194),
  box(B, 200, 214), box(C, 204, 218),
  box(A, 240, 254), box(B, 240, 254), box(C, 240, 254),
];
const GRID_RUNS: Run[] = [
  { text: 'Stage', x: 52, y: 120, bold: true }, { text: 'Function', x: 162, y: 120, bold: true }, { text: 'Benefit', x: 312, y: 120, bold: true },
  { text: 'Creation', x: 52, y: 144 }, { text: 'Project setup', x: 162, y: 144 },
  { text: 'The intuitive UI', x: 312, y: 133 }, { text: 'saves time for', x: 312, y: 142 }, { text: 'every team', x: 312, y: 151 }, { text: 'member', x: 312, y: 160 },
  { text: 'Group label', x: 52, y: 200 }, { text: 'Model training', x: 162, y: 174 }, { text: 'Training support', x: 312, y: 190 },
  { text: 'Deployment', x: 162, y: 210 }, { text: 'Endpoints', x: 312, y: 214 },
  { text: 'Monitoring', x: 52, y: 250 }, { text: 'Usage', x: 162, y: 250 }, { text: 'Alerts', x: 312, y: 250 },
];

describe('PDF tables: a grid of text boxes in a panel', () => {
  it('takes the columns from the boxes\' edges, the rows from the fullest column, each column\'s text by its own boxes', async () => {
    const tables = findTables(await firstPage(boxedPdf(GRID_PAINTS, GRID_RUNS)));
    expect(tables).toHaveLength(1);
    const [t] = tables as [PdfTable];
    expect([t.rows, t.cols]).toEqual([5, 3]);
    expect(texts(t)).toEqual([
      ['Stage', 'Function', 'Benefit'],
      ['Creation', 'Project setup', 'The intuitive UI saves time for every team member'],
      ['Group label', 'Model training', 'Training support'],
      ['Deployment', 'Endpoints'],
      ['Monitoring', 'Usage', 'Alerts'],
    ]);
    expect(t.cells.find((c) => c.text === 'Group label')).toMatchObject({ row: 2, col: 0, rowSpan: 2 });
    expect(t.cells.filter((c) => c.header).map((c) => c.text)).toEqual(['Stage', 'Function', 'Benefit']);
  });

  it('is no grid when a column holds two boxes in one row (frames laid over each other)', async () => {
    // A second box in column B over "Model training"'s own.
    const paints = [...GRID_PAINTS, box(B, 170, 190)];
    const tables = findTables(await firstPage(boxedPdf(paints, GRID_RUNS)));
    const cells = tables.flatMap((t) => t.cells);
    expect(cells.some((c) => c.rowSpan === 2 || c.text === 'The intuitive UI saves time for every team member')).toBe(false);
  });

  it('is no table: two columns of prose in two boxes each', async () => {
    const paints = [PANEL, box({ x0: 50, x1: 290 }, 110, 180), box({ x0: 310, x1: 550 }, 110, 180), box({ x0: 50, x1: 290 }, 190, 260), box({ x0: 310, x1: 550 }, 190, 260)];
    const line = 'the text of a paragraph runs on here';
    const runs: Run[] = [];
    for (const y of [120, 130, 140, 150, 160, 170, 200, 210, 220, 230, 240, 250]) runs.push({ text: line, x: 52, y }, { text: line, x: 312, y });
    expect(findTables(await firstPage(boxedPdf(paints, runs)))).toEqual([]);
  });

  it('reads a benchmark page\'s panel of text boxes row by row (01030000000200, tuning half)', async () => {
    const pdf = readCorpus('pdf-bench', 'pdfs', '01030000000200.pdf');
    const [t] = findTables(await firstPage(pdf));
    if (!t) throw new Error('no table');
    expect([t.rows, t.cols]).toEqual([10, 4]);
    const rows = texts(t);
    expect(rows[0]).toEqual(['Service Stage', 'Function Name', 'Explanation', 'Expected Benefit']);
    expect(rows[2]?.[0]).toBe('2. Data labeling and fine-tuning');
    expect(rows[2]?.[3]).toBe('Conveniently manage raw data to be used for OCR Pack and actual date from live service');
    // Row 4's first cell is under the group box of rows 3 and 4 (an empty one): its cells start at the second column.
    expect(rows[4]?.[0]).toBe('Model training');
    expect(rows[5]?.[0]).toBe('3. Pipeline configuration and deployment');
    // Text grown past its box stays in its cell, not the next row's.
    expect(rows[4]?.[1]).toMatch(/frequently modified while developing specialized models$/);
  });
});
