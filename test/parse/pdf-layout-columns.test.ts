/**
 * Columns interrupted by a figure (issue 16): a page built in the test — two justified columns
 * of 10 pt Helvetica, a chart taking the middle of the right column whose percentage ticks
 * (8 pt, right-aligned against the column) hang into the gutter. The ticks close the whitespace
 * valley between the columns; the gutter still runs between the lines of running text, and the
 * page must read column by column, the chart's labels where the chart stands. And the cases the
 * gutter of running text must leave alone: a table across the page between two sets of columns,
 * a heading centred across the page between them. And columns of short lines (a contents list
 * beside short heads and a listing) that stand on baselines of their own, which are no
 * borderless table's rows.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readingOrder } from '../../src/parse/readers/pdf/layout/reading-order.ts';
import type { Box } from '../../src/parse/readers/pdf/page-model.ts';
import { readInput } from '../helpers/read-input.ts';
import { helveticaWidth, placedTextPdf, type PlacedText } from './pdf-placed-text.ts';

const WORDS = 'the survey asked each person how often they had seen such content and what they made of it afterwards'.split(' ');

/** `count` lines of running text filling `width` points, each opening with its tag and number ("L07"). */
function prose(tag: string, count: number, width: number): string[] {
  const lines: string[] = [];
  let k = 0;
  for (let i = 0; i < count; i++) {
    let line = `${tag}${String(i + 1).padStart(2, '0')}`;
    while (helveticaWidth(`${line} ${WORDS[k % WORDS.length]}`, 10) <= width - 4) line += ` ${WORDS[k++ % WORDS.length]}`;
    lines.push(line);
  }
  return lines;
}

const LEADING = 14;
const TOP = 80;
const COLUMN = 246;

/** Two columns at 50 and `rightX`; the right one breaks after line 10 for a chart and goes on 14 lines lower. */
function figurePage(rightX: number): Buffer {
  const runs: PlacedText[] = [];
  prose('L', 40, COLUMN).forEach((text, i) => runs.push({ text, x: 50, y: TOP + i * LEADING, width: i % 8 === 7 ? undefined : COLUMN }));
  const right = prose('R', 30, COLUMN);
  right.slice(0, 10).forEach((text, i) => runs.push({ text, x: rightX, y: TOP + i * LEADING, width: COLUMN }));
  // The chart: y-axis ticks right-aligned 3 pt left of the column, between the left column's lines.
  ['100%', '75%', '50%', '25%', '0%'].forEach((text, i) =>
    runs.push({ text, x: rightX - 3 - helveticaWidth(text, 8), y: TOP + 7 + 11 * LEADING + i * 2 * LEADING, size: 8 }),
  );
  ['2019', '2020', '2021', '2022'].forEach((text, i) => runs.push({ text, x: rightX + 16 + i * 55, y: TOP + 21 * LEADING, size: 8 }));
  runs.push({ text: 'Figure 2: Share of respondents by year', x: rightX + 16, y: TOP + 22.5 * LEADING, size: 8 });
  right.slice(10).forEach((text, i) => runs.push({ text, x: rightX, y: TOP + (i + 24) * LEADING, width: COLUMN }));
  return placedTextPdf(runs);
}

async function paragraphs(bytes: Buffer): Promise<string[]> {
  const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  return [...result.document.querySelectorAll('section p')].map((p) => (p.textContent ?? '').replace(/\s+/g, ' ').trim());
}

describe('pdf layout: columns interrupted by a figure', () => {
  for (const [gutter, rightX] of [
    ['18 pt', 314],
    ['one em', 306],
  ] as const) {
    it(`reads the columns one after the other when a chart's ticks reach into a gutter of ${gutter}`, async () => {
      const paras = await paragraphs(figurePage(rightX));
      const text = paras.join('\n');
      const at = (s: string) => {
        const i = text.indexOf(s);
        expect(i, s).toBeGreaterThanOrEqual(0);
        return i;
      };
      // No paragraph holds lines of both columns, and no line joins a tick.
      expect(paras.filter((p) => p.includes('L0') && p.includes('R0'))).toEqual([]);
      expect(paras.filter((p) => /^[LR]\d\d/.test(p) && /\d+%/.test(p))).toEqual([]);
      // The left column whole, then the right one, the chart where it stands in it.
      expect(at('L12 ')).toBeLessThan(at('L13 '));
      expect(at('L40 ')).toBeLessThan(at('R01 '));
      expect(at('R10 ')).toBeLessThan(at('100%'));
      expect(at('0%\n')).toBeLessThan(at('Figure 2: Share of respondents by year'));
      expect(at('Figure 2: Share of respondents by year')).toBeLessThan(at('R11 '));
      // The right column's text before and after the chart keeps its order.
      expect(at('R11 ')).toBeLessThan(at('R30 '));
    });
  }

  it('reads a table across the page between two sets of columns after the columns above it and before those below', async () => {
    // The table reaches into the text of both columns: it is no figure inside one of them.
    const runs: PlacedText[] = [];
    const left = prose('L', 24, COLUMN);
    const right = prose('R', 24, COLUMN);
    const tableTop = TOP + 12 * LEADING + 8;
    const belowTop = tableTop + 5 * LEADING + 8;
    for (let i = 0; i < 24; i++) {
      const y = i < 12 ? TOP + i * LEADING : belowTop + (i - 12) * LEADING;
      runs.push({ text: left[i] as string, x: 50, y, width: COLUMN }, { text: right[i] as string, x: 314, y, width: COLUMN });
    }
    const rows = [
      ['Country', 'Often', 'Sometimes', 'Never'],
      ['Indonesia', '53%', '30%', '17%'],
      ['Philippines', '41%', '38%', '21%'],
      ['Thailand', '28%', '44%', '28%'],
      ['Malaysia', '22%', '47%', '31%'],
    ];
    rows.forEach((row, i) => row.forEach((text, j) => runs.push({ text, x: 50 + 140 * j, y: tableTop + i * LEADING, bold: i === 0 })));
    const result = await readPdf(readInput('pdf', placedTextPdf(runs), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const order = [...(result.document.querySelector('section')?.children ?? [])].map((e) => (e.tagName === 'TABLE' ? 'table' : (e.textContent ?? '').slice(0, 3)));
    expect(order).toEqual(['L01', 'R01', 'table', 'L13', 'R13']);
  });

  it('reads a heading centred across the page between two sets of columns after the columns above it', async () => {
    // Both columns leave a hole at the heading's height: it belongs to neither column.
    const runs: PlacedText[] = [];
    const left = prose('L', 24, COLUMN);
    const right = prose('R', 24, COLUMN);
    const headingY = TOP + 12 * LEADING + 10;
    for (let i = 0; i < 24; i++) {
      const y = i < 12 ? TOP + i * LEADING : headingY + 24 + (i - 12) * LEADING;
      runs.push({ text: left[i] as string, x: 50, y, width: COLUMN }, { text: right[i] as string, x: 314, y, width: COLUMN });
    }
    runs.push({ text: 'Results', x: 305 - helveticaWidth('Results', 12) / 2, y: headingY, size: 12 });
    const result = await readPdf(readInput('pdf', placedTextPdf(runs), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const order = [...(result.document.querySelector('section')?.children ?? [])].map((e) => (e.textContent ?? '').slice(0, 3));
    expect(order).toEqual(['L01', 'R01', 'Res', 'L13', 'R13']);
  });
});

describe('pdf layout: lines that never stand side by side', () => {
  for (const [where, formula] of [
    ['set well apart from the short lines', 230],
    ['starting just after the longer short line', 50 + helveticaWidth('and the difference for 2h equals', 10) + 4],
  ] as const) {
    it(`reads short lines and display formulae ${where} top to bottom, each formula's number after it`, async () => {
      // A paragraph ends short, a formula is set in from both margins with its number flush right,
      // a short line carries on, a second formula: nothing stands beside the short lines (set
      // apart, the x projection has a valley there), and the numbers end their formulae's lines.
      const runs: PlacedText[] = [
        { text: 'As an example the forward difference method is considered here. The error in the', x: 50, y: 100, width: 420 },
        { text: 'formula may be written as', x: 50, y: 124 },
        { text: 'f(x) - Q(h) = c h + O(h),', x: formula, y: 137 },
        { text: '(3.17)', x: 440, y: 137 },
        { text: 'and the difference for 2h equals', x: 50, y: 151 },
        { text: 'f(x) - Q(2h) = 2c h + O(h).', x: formula, y: 165 },
        { text: '(3.18)', x: 440, y: 165 },
      ];
      const text = (await paragraphs(placedTextPdf(runs))).join('\n');
      const at = (s: string) => {
        const i = text.indexOf(s);
        expect(i, s).toBeGreaterThanOrEqual(0);
        return i;
      };
      expect(at('formula may be written as')).toBeLessThan(at('f(x) - Q(h) = c h'));
      expect(at('f(x) - Q(h) = c h')).toBeLessThan(at('and the difference for 2h equals'));
      expect(at('and the difference for 2h equals')).toBeLessThan(at('f(x) - Q(2h)'));
      // Each number flush right ends its formula's line, not a column read after both.
      expect(at('f(x) - Q(h) = c h')).toBeLessThan(at('(3.17)'));
      expect(at('(3.17)')).toBeLessThan(at('and the difference for 2h equals'));
      expect(at('f(x) - Q(2h)')).toBeLessThan(at('(3.18)'));
    });
  }

  it('still reads double-spaced columns whose baselines never line up column by column', async () => {
    // Lines 24 pt apart, the right column's baselines half a line lower: no line shares height
    // with one beside it, but the columns run side by side down the page.
    const runs: PlacedText[] = [];
    const left = prose('L', 12, COLUMN);
    const right = prose('R', 12, COLUMN);
    for (let i = 0; i < 12; i++) {
      runs.push({ text: left[i] as string, x: 50, y: TOP + 24 * i, width: COLUMN });
      runs.push({ text: right[i] as string, x: 314, y: TOP + 12 + 24 * i, width: COLUMN });
    }
    const text = (await paragraphs(placedTextPdf(runs))).join('\n');
    expect(text.indexOf('L12 ')).toBeGreaterThan(text.indexOf('L01 '));
    expect(text.indexOf('R01 ')).toBeGreaterThan(text.indexOf('L12 '));
    expect(text.indexOf('R12 ')).toBeGreaterThan(text.indexOf('R01 '));
  });
});

describe('pdf layout: columns of short lines on baselines of their own', () => {
  // A contents list of short links in the left column (12 pt apart), short heads and lines of
  // a listing in the right one (18 pt apart, 6 pt lower): every line three words or fewer, as a
  // borderless table's cells are, but no line of one column stands on a baseline of the other.
  const LEFT = ['Start', 'Acquire image', 'Prepare USB', 'Configure', 'Set font', 'Set keyboard', 'Boot mode', 'Connect', 'Prepare disk', 'Define variables', 'Wipe disk', 'Partition'];
  const RIGHT = ['Acquire', 'Download it', 'Verify it', 'sha256sum', 'Prepare', 'Write it', 'dd command', 'Boot mode', 'Check it'];

  it('reads them column by column, not row by row across the gutter', async () => {
    const runs: PlacedText[] = [];
    LEFT.forEach((text, i) => runs.push({ text: `${text} L${String(i + 1).padStart(2, '0')}`, x: 50, y: TOP + 12 * i }));
    RIGHT.forEach((text, i) => runs.push({ text: `${text} R${String(i + 1).padStart(2, '0')}`, x: 314, y: TOP + 6 + 18 * i }));
    const text = (await paragraphs(placedTextPdf(runs))).join('\n');
    const at = (s: string) => {
      const i = text.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    // No line of one column joined to a line of the other, and the left column whole first.
    expect(text.split('\n').filter((p) => /L\d\d/.test(p) && /R\d\d/.test(p))).toEqual([]);
    expect(at('L12')).toBeLessThan(at('R01'));
    expect(at('R01')).toBeLessThan(at('R09'));
  });

  it('still reads short cells standing on common baselines row by row (reading-order.ts)', () => {
    // A borderless grid the table finder left (a form's labels and values): each row's two
    // cells on one baseline. Given straight to the XY-cut, with the same cells set on baselines
    // of their own (each column its own spacing), which read column by column.
    interface Cell extends Box {
      text: string;
      baseline: number;
    }
    const cell = (text: string, x: number, baseline: number): Cell => ({ text, baseline, x0: x, x1: x + 50, y0: baseline - 8, y1: baseline + 2 });
    const options = { em: 10, words: (b: Box) => (b as Cell).text.split(' ').length, numeric: () => false, baseline: (b: Box) => (b as Cell).baseline };
    const grid: Cell[] = [];
    const offset: Cell[] = [];
    for (let r = 0; r < 8; r++) {
      grid.push(cell(`A${r + 1}`, 50, TOP + 13 * r), cell(`B${r + 1}`, 314, TOP + 13 * r));
      offset.push(cell(`A${r + 1}`, 50, TOP + 12 * r), cell(`B${r + 1}`, 314, TOP + 6 + 18 * r));
    }
    expect(readingOrder(grid, options).map((c) => c.text).slice(0, 4)).toEqual(['A1', 'B1', 'A2', 'B2']);
    expect(readingOrder(offset, options).map((c) => c.text).slice(0, 9)).toEqual(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'B1']);
  });
});

describe("the table finder and a two-column page's gutter (tables/index.ts textGutter)", () => {
  /** Running text in both columns, then a short list in each column, then running text again. */
  function listsPage(offset: number): Buffer {
    const runs: PlacedText[] = [];
    const left = prose('L', 10, COLUMN);
    const right = prose('R', 10, COLUMN);
    for (let i = 0; i < 5; i++) runs.push({ text: left[i] as string, x: 50, y: TOP + i * LEADING, width: COLUMN }, { text: right[i] as string, x: 314, y: TOP + i * LEADING, width: COLUMN });
    const listTop = TOP + 6 * LEADING;
    ['Jobs', 'Finance', 'Marketing', 'Engineering', 'Design'].forEach((text, i) => runs.push({ text: `${text} A${i + 1}`, x: 50, y: listTop + 12 * i }));
    ['Contact us', 'Advertise', 'Preferences', 'Captions', 'Newsletters'].forEach((text, i) => runs.push({ text: `${text} B${i + 1}`, x: 314, y: listTop + offset + 12 * i }));
    const belowTop = listTop + 6 * 12 + 10;
    for (let i = 5; i < 10; i++) runs.push({ text: left[i] as string, x: 50, y: belowTop + (i - 5) * LEADING, width: COLUMN }, { text: right[i] as string, x: 314, y: belowTop + (i - 5) * LEADING, width: COLUMN });
    return placedTextPdf(runs);
  }

  it('takes two lists side by side in the two columns, each on baselines of its own, for no table', async () => {
    const result = await readPdf(readInput('pdf', listsPage(3.5), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    expect(result.document.querySelectorAll('table')).toHaveLength(0);
    const text = (result.document.querySelector('section')?.textContent ?? '').replace(/\s+/g, ' ');
    expect(text.indexOf('A5')).toBeLessThan(text.indexOf('B1'));
  });

  it('still finds a table whose rows run across the gutter on common baselines', async () => {
    const result = await readPdf(readInput('pdf', listsPage(0), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    expect(result.document.querySelectorAll('table')).toHaveLength(1);
  });
});
