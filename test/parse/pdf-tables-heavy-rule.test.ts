/**
 * A heavy rule is a rule (src/parse/readers/pdf/extract.ts `strokeThickness`): a word processor
 * rules a table's head off with a stroke 3 pt wide (LibreOffice printing docling's
 * word_sample.docx), thicker than a hairline but long for its weight; the table ruled across
 * starts there, not at the first thin rule. A stroke as wide that is short for its weight (a
 * bar) is still no rule. And a head set over the heavy rule, with none above it, is the table's
 * head row (src/parse/readers/pdf/tables/index.ts `headOverHeavyRule`).
 */
import { describe, expect, it } from 'vitest';
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import { A4_HEIGHT, firstPageModel, rowTexts, ruledPdf, type TextRun } from './pdf-table-fixtures.ts';

const rule = (y: number, width: number, x0 = 67, x1 = 545): string => `q ${width} w ${x0} ${A4_HEIGHT - y} m ${x1} ${A4_HEIGHT - y} l S Q`;

const ROWS: TextRun[] = [
  ['Leaves', 120, 275],
  ['Ash, Elm, Maple', 240, 275],
  ['50', 400, 275],
  ['Berries', 120, 312],
  ['Blueberry, Strawberry', 240, 312],
  ['150', 400, 312],
  ['Grain', 120, 362],
  ['Corn, Buckwheat, Barley', 240, 362],
  ['200', 400, 362],
];

describe('PDF tables: a heavy rule under the head', () => {
  it('reads a 3 pt stroke as a rule: the table starts under it', async () => {
    const page = await firstPageModel(ruledPdf([rule(263, 3), rule(300, 1), rule(351, 1), rule(402, 1)], ROWS));
    expect(page.rules.filter((r) => r.orientation === 'horizontal')).toHaveLength(4);
    const tables = findTables(page);
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as NonNullable<(typeof tables)[0]>)).toEqual([
      ['Leaves', 'Ash, Elm, Maple', '50'],
      ['Berries', 'Blueberry, Strawberry', '150'],
      ['Grain', 'Corn, Buckwheat, Barley', '200'],
    ]);
  });

  it('leaves a stroke short for its weight out (a bar, not a rule)', async () => {
    const page = await firstPageModel(ruledPdf([rule(263, 4, 67, 120)], []));
    expect(page.rules).toHaveLength(0);
  });

  it('takes the head set over a heavy rule into the table, its wrapped head cell whole', async () => {
    const head: TextRun[] = [
      ['Here are some interesting things a respectful duck could eat:', 67, 225],
      ['Food', 240, 246],
      ['Calories per', 400, 246],
      ['portion', 400, 255],
    ];
    const rules = [rule(263, 3), rule(300, 1), rule(351, 1), rule(402, 1)];
    const tables = findTables(await firstPageModel(ruledPdf(rules, [...head, ...ROWS])));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as NonNullable<(typeof tables)[0]>)).toEqual([
      ['', 'Food', 'Calories per portion'],
      ['Leaves', 'Ash, Elm, Maple', '50'],
      ['Berries', 'Blueberry, Strawberry', '150'],
      ['Grain', 'Corn, Buckwheat, Barley', '200'],
    ]);
    // rules of one weight: the line over the top rule is not the table's
    const even = findTables(await firstPageModel(ruledPdf([rule(263, 1), rule(300, 1), rule(351, 1), rule(402, 1)], [...head, ...ROWS])));
    expect(even.flatMap((t) => t.cells.map((c) => c.text))).not.toContain('Food');
    // a sentence over the heavy rule (one chunk) is no head
    const prose = findTables(await firstPageModel(ruledPdf(rules, [['Here are some interesting things a respectful duck could eat:', 67, 252], ...ROWS])));
    expect(prose.flatMap((t) => t.cells.map((c) => c.text)).join(' ')).not.toMatch(/duck/u);
  });
});
