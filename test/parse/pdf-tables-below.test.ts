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
