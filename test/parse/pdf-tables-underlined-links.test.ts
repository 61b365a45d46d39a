/**
 * Words underlined in a borderless table's cells (src/parse/readers/pdf/tables/index.ts,
 * underline): a browser underlines every link, a short rule just under the baseline from the
 * link's first word to its last. Such a rule marks text; it rules no row, so the table's rows
 * stay its text lines (without the rule, the underlines drew rows of their own).
 */
import { describe, expect, it } from 'vitest';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { A4_HEIGHT, firstPageModel, helveticaA4, rowTexts, type TextRun, textRunOps } from './pdf-table-fixtures.ts';

const ROWS: [string, string, string][] = [
  ['Base', '32', 'model-base-32'],
  ['Large', '16', 'model-large-16'],
  ['Huge', '14', 'model-huge-14'],
  ['Giant', '8', 'model-giant-8'],
];

/** A head line and four rows (cells at 50, 120, 190), as laid out before any rule is drawn. */
function linkedTable(): Buffer {
  return linkedTableWithUnderlines([]);
}

describe('PDF tables: links underlined in a borderless table', () => {
  it('keeps the rows of text lines where every link is underlined', async () => {
    const page = await firstPageModel(linkedTable());
    // Underline each link from its word's start to its end, as the browser draws it.
    const bytes = linkedTableWithUnderlines(page.words.filter((w) => w.text.startsWith('model-')).map((w) => [w.x0, w.x1, w.baseline]));
    const tables = findTables(await firstPageModel(bytes));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as NonNullable<(typeof tables)[0]>)).toEqual([['Size', 'Patch', 'Checkpoint'], ...ROWS]);
  });
});

/** The page with a 0.6 pt rule under each link (x0, x1, baseline), 1.5 pt below its baseline. */
function linkedTableWithUnderlines(links: [number, number, number][]): Buffer {
  const runs: TextRun[] = [['Size', 50, 100, true], ['Patch', 120, 100, true], ['Checkpoint', 190, 100, true]];
  ROWS.forEach((cells, r) => cells.forEach((text, c) => runs.push([text, 50 + 70 * c, 114 + 14 * r])));
  const rules = links.map(([x0, x1, baseline]) => `${x0} ${A4_HEIGHT - baseline - 1.5} m ${x1} ${A4_HEIGHT - baseline - 1.5} l S`);
  return helveticaA4(`0.6 w\n${rules.join('\n')}\n${textRunOps(runs).join('\n')}\n`);
}
