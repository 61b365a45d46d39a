/**
 * The row below a table of alternating shaded rows (src/parse/readers/pdf/tables/below.ts): an
 * unpainted total row after the last painted one belongs to the table; a line under a table
 * closed by its own ruled border does not.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { A4_HEIGHT as HEIGHT, firstPageModel as firstPage, helveticaA4, rowTexts as texts } from './pdf-table-fixtures.ts';

/** A page with `ops` drawn (top-down y given as PDF y already), then runs in Helvetica 8 pt. */
function pagePdf(ops: readonly string[], runs: readonly [string, number, number][]): Buffer {
  const text = runs.map(([t, x, y]) => `0 g BT /F1 8 Tf ${x} ${HEIGHT - y} Td (${t}) Tj ET`);
  return helveticaA4(`${[...ops, ...text].join('\n')}\n`);
}

const BODY: [string, number, number][] = [
  ['Cost of revenue', 52, 128], ['178', 262, 128], ['141', 362, 128],
  ['Research', 52, 140], ['3,423', 262, 140], ['2,532', 362, 140],
  ['Sales', 52, 152], ['1,136', 262, 152], ['876', 362, 152],
  ['Total', 52, 165], ['4,737', 262, 165], ['3,549', 362, 165],
];

/** A row painted as three boxes side by side, from `top` to `bottom`. */
function paintedRow(top: number, bottom: number): string[] {
  return [[50, 250], [250, 350], [350, 450]].map(([a, b]) => `0.85 g ${a} ${HEIGHT - bottom} ${(b as number) - (a as number)} ${bottom - top} re f`);
}

describe('PDF tables: shaded rows apart by an unpainted row of wrapped cells (ruled.ts stackFrames)', () => {
  const painted: [string, number, number][] = [['Alpha', 52, 128], ['178', 262, 128], ['141', 362, 128], ['Gamma', 52, 174], ['1,136', 262, 174], ['876', 362, 174]];

  it('joins the painted rows over an unpainted row three lines tall', async () => {
    // Head and first row painted (one block), then an unpainted row of three lines, a painted
    // row, an unpainted row of one line, a painted row: a browser's zebra table.
    const runs: [string, number, number][] = [
      ['Name', 52, 116], ['Count', 262, 116], ['Note', 362, 116],
      ...painted,
      ['Beta', 52, 142], ['3,423', 262, 142], ['first', 362, 142], ['second', 362, 152], ['third', 362, 162],
      ['Delta', 52, 188], ['12', 262, 188], ['9', 362, 188],
      ['Epsilon', 52, 202], ['7', 262, 202], ['5', 362, 202],
    ];
    const tables = findTables(await firstPage(pagePdf([...paintedRow(108, 120), ...paintedRow(120, 131), ...paintedRow(166, 177), ...paintedRow(194, 205)], runs)));
    expect(tables).toHaveLength(1);
    expect(texts(tables[0] as PdfTable)).toEqual([
      ['Name', 'Count', 'Note'],
      ['Alpha', '178', '141'],
      ['Beta', '3,423', 'first second third'],
      ['Gamma', '1,136', '876'],
      ['Delta', '12', '9'],
      ['Epsilon', '7', '5'],
    ]);
  });

  it('does not join them over running text across their columns', async () => {
    const runs: [string, number, number][] = [...painted, ['A paragraph of running text set between two shaded rows crosses the', 52, 142], ['column lines of both, so the rows are two things and not one table.', 52, 152]];
    const tables = findTables(await firstPage(pagePdf([...paintedRow(120, 131), ...paintedRow(166, 177)], runs)));
    for (const t of tables) expect(t.cells.map((c) => c.text)).not.toEqual(expect.arrayContaining(['Alpha', 'Gamma']));
  });
});

describe('PDF tables: the unpainted row under alternating shaded rows', () => {
  it('takes the total row under the last painted row of olmocr\'s earnings page', async () => {
    const tables = findTables(await firstPage(readCorpus('pdf', 'olmocr', 'pdfs', 'earnings.pdf')));
    expect(tables).toHaveLength(1);
    const rows = texts(tables[0] as PdfTable);
    // Three head rows (underlined.ts), three painted rows and the total under them; its
    // currency signs join their figures (currency.ts).
    expect(rows).toHaveLength(7);
    expect(rows[6]).toEqual(['Total', '$ 4,737', '$ 3,549', '$ 2,710']);
  });

  it('takes it on a built page: three column boxes painted on rows 1 and 3, the total under them', async () => {
    // Each painted row is three boxes side by side (their edges give the columns).
    const band = (top: number, bottom: number): string[] =>
      [[50, 250], [250, 350], [350, 450]].map(([a, b]) => `0.85 g ${a} ${HEIGHT - bottom} ${(b as number) - (a as number)} ${bottom - top} re f`);
    const tables = findTables(await firstPage(pagePdf([...band(120, 131), ...band(144, 155)], BODY)));
    expect(tables).toHaveLength(1);
    expect(texts(tables[0] as PdfTable)).toEqual([
      ['Cost of revenue', '178', '141'],
      ['Research', '3,423', '2,532'],
      ['Sales', '1,136', '876'],
      ['Total', '4,737', '3,549'],
    ]);
  });

  it('takes it when each cell is painted apart and the first column is narrow (a browser\'s zebra rows)', async () => {
    // The label column is an eighth of the width: the row is painted by three boxes side by side.
    const band = (top: number, bottom: number): string[] =>
      [[50, 100], [100, 300], [300, 450]].map(([a, b]) => `0.85 g ${a} ${HEIGHT - bottom} ${(b as number) - (a as number)} ${bottom - top} re f`);
    const body: [string, number, number][] = BODY.map(([t, x, y]) => [x === 52 ? (t.split(' ')[0] as string) : t, x, y]);
    const tables = findTables(await firstPage(pagePdf([...band(120, 131), ...band(144, 155)], body)));
    expect(tables).toHaveLength(1);
    expect(texts(tables[0] as PdfTable)).toEqual([
      ['Cost', '178', '141'],
      ['Research', '3,423', '2,532'],
      ['Sales', '1,136', '876'],
      ['Total', '4,737', '3,549'],
    ]);
  });

  it('takes the wrapped lines of the row under it, not the text after the table', async () => {
    const band = (top: number, bottom: number): string[] =>
      [[50, 250], [250, 350], [350, 450]].map(([a, b]) => `0.85 g ${a} ${HEIGHT - bottom} ${(b as number) - (a as number)} ${bottom - top} re f`);
    const runs: [string, number, number][] = [...BODY, ['(restated)', 362, 175], ['The figures are in millions of dollars, as reported.', 52, 200]];
    const tables = findTables(await firstPage(pagePdf([...band(120, 131), ...band(144, 155)], runs)));
    expect(tables).toHaveLength(1);
    const rows = texts(tables[0] as PdfTable);
    expect(rows).toHaveLength(4);
    expect(rows[3]).toEqual(['Total', '4,737', '3,549 (restated)']);
  });

  it('takes it under two rows painted each on its own (a zebra table\'s head and first row)', async () => {
    const runs: [string, number, number][] = [['Region', 52, 116], ['Sales', 262, 116], ['Share', 362, 116], ['United States', 52, 128], ['106.7', 262, 128], ['50.4%', 362, 128], ['Other countries', 52, 140], ['105.2', 262, 140], ['49.6%', 362, 140]];
    const tables = findTables(await firstPage(pagePdf([...paintedRow(108, 120), ...paintedRow(120, 131)], runs)));
    expect(tables).toHaveLength(1);
    expect(texts(tables[0] as PdfTable)).toEqual([
      ['Region', 'Sales', 'Share'],
      ['United States', '106.7', '50.4%'],
      ['Other countries', '105.2', '49.6%'],
    ]);
  });

  it('does not take it under two rows in one painted box (a panel, not a row\'s shading)', async () => {
    const runs: [string, number, number][] = [['Region', 52, 116], ['Sales', 262, 116], ['Share', 362, 116], ['United States', 52, 128], ['106.7', 262, 128], ['50.4%', 362, 128], ['Other countries', 52, 140], ['105.2', 262, 140], ['49.6%', 362, 140]];
    const box = [[50, 250], [250, 350], [350, 450]].map(([a, b]) => `0.85 g ${a} ${HEIGHT - 131} ${(b as number) - (a as number)} 23 re f`);
    const rule = `0 G 0.5 w 50 ${HEIGHT - 120} m 450 ${HEIGHT - 120} l S`;
    const tables = findTables(await firstPage(pagePdf([...box, rule], runs)));
    for (const t of tables) expect(texts(t).flat()).not.toContain('Other countries');
  });

  it('leaves a line under a table closed by its ruled border out of it', async () => {
    const xs = [50, 250, 350, 450];
    const ys = [120, 132, 144, 156];
    const rules = ['0.5 w', ...ys.map((y) => `50 ${HEIGHT - y} m 450 ${HEIGHT - y} l S`), ...xs.map((x) => `${x} ${HEIGHT - 120} m ${x} ${HEIGHT - 156} l S`)];
    const tables = findTables(await firstPage(pagePdf(rules, BODY)));
    expect(tables).toHaveLength(1);
    const rows = texts(tables[0] as PdfTable);
    expect(rows).toHaveLength(3);
    expect(rows.flat()).not.toContain('Total');
  });
});
