/**
 * A page ruled with many lone head rules (src/parse/readers/pdf/tables/index.ts): each rule a
 * seed for a borderless table grown from its head, every rule below it in its column a candidate
 * next head. The finder searches the page's words many times here, so it reads them through its
 * index by position (wordsIn); every table must come out as a search of all the words would
 * find it. (bench/pdf/hostile-tables.ts times the same kind of page at hundreds of rules.)
 */
import { describe, expect, it } from 'vitest';
import { A4_HEIGHT, helveticaA4, rowTexts, tablesOnPage, textRunOps, type TextRun } from './pdf-table-fixtures.ts';

const BLOCKS = 12;
const PITCH = 60;
const COLUMNS = [40, 310];

/** Two columns of BLOCKS tables, each "Name Value" on a rule with two rows under it, and a margin of stray words. */
function manyHeadsPdf(): Buffer {
  const runs: TextRun[] = [];
  const rules: string[] = [];
  COLUMNS.forEach((x, c) => {
    for (let b = 0; b < BLOCKS; b++) {
      const at = 60 + b * PITCH;
      const n = c * BLOCKS + b;
      rules.push(`0.5 w ${x} ${A4_HEIGHT - at} m ${x + 220} ${A4_HEIGHT - at} l S`);
      runs.push(['Name', x + 2, at - 3], ['Value', x + 140, at - 3]);
      runs.push([`r${n}a`, x + 2, at + 10], [`${n * 7}`, x + 140, at + 10]);
      runs.push([`r${n}b`, x + 2, at + 20], [`${n * 7 + 1}`, x + 140, at + 20]);
    }
  });
  for (let k = 0; k < BLOCKS * 10; k++) runs.push(['x', 560, 50 + k * 6]);
  return helveticaA4(`${[...rules, ...textRunOps(runs)].join('\n')}\n`);
}

describe('PDF tables: a page of many lone head rules', () => {
  it('grows one table from each of 24 head rules, its head and both rows, and nothing of the margin', async () => {
    const tables = await tablesOnPage(manyHeadsPdf(), 1);
    const expected = COLUMNS.flatMap((_, c) =>
      Array.from({ length: BLOCKS }, (_, b) => {
        const n = c * BLOCKS + b;
        return [['Name', 'Value'], [`r${n}a`, `${n * 7}`], [`r${n}b`, `${n * 7 + 1}`]];
      }),
    );
    // Top to bottom, left before right on a level.
    const found = tables.map(rowTexts);
    expect(found).toHaveLength(expected.length);
    expect(new Set(found.map((t) => JSON.stringify(t)))).toEqual(new Set(expected.map((t) => JSON.stringify(t))));
  });
});
