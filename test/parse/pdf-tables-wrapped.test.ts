/**
 * Cells whose text wraps, in tables ruled across only (src/parse/readers/pdf/tables/aligned.ts
 * `cellLeading`, `wrapsOn`; grow.ts): a row's wrapped lines, set tighter than the rows stand
 * apart, are one row where each line's first word would not have fitted on the line above; rows
 * of short cells grouped by extra space, and rows whose values are figures, stay rows; a column
 * head wrapped onto a second line above
 * a lone head rule is the table's head.
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { A4_HEIGHT, firstPageModel, ruledPdf, rowTexts, type TextRun } from './pdf-table-fixtures.ts';

const rule = (y: number): string => `50 ${A4_HEIGHT - y} m 450 ${A4_HEIGHT - y} l S`;

describe('PDF tables: wrapped cells set tighter than the rows', () => {
  it('keeps each row of two lines one row (booktabs: top rule, head rule, bottom rule)', async () => {
    const runs: TextRun[] = [
      ['Feature', 52, 128, true], ['Action', 170, 128, true], ['Comment', 320, 128, true],
      ['Cross-Reference', 52, 146], ['Replace the informal references', 170, 146], ['References use the forms', 320, 146],
      ['Normalization', 52, 155], ['with clause references.', 170, 155], ['see 7.3.2.', 320, 155],
      ['Hanging Paragraph', 52, 169], ['Insert general subclauses', 170, 169], ['Prevents hanging', 320, 169],
      ['Subclauses', 52, 178], ['beneath major clauses.', 170, 178], ['paragraphs.', 320, 178],
      ['Orphan Subclause', 52, 192], ['Ensure that every clause holds', 170, 192], ['Numbering rules always', 320, 192],
      ['Remediation', 52, 201], ['two subclauses.', 170, 201], ['forbid one child.', 320, 201],
    ];
    const tables = findTables(await firstPageModel(ruledPdf([rule(118), rule(133), rule(206)], runs)));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as PdfTable)).toEqual([
      ['Feature', 'Action', 'Comment'],
      ['Cross-Reference Normalization', 'Replace the informal references with clause references.', 'References use the forms see 7.3.2.'],
      ['Hanging Paragraph Subclauses', 'Insert general subclauses beneath major clauses.', 'Prevents hanging paragraphs.'],
      ['Orphan Subclause Remediation', 'Ensure that every clause holds two subclauses.', 'Numbering rules always forbid one child.'],
    ]);
  });

  it('keeps rows of short cells grouped by extra space apart', async () => {
    const rows: [string, string, string][] = [['Alpha', '12', '9'], ['Beta', '7', '5'], ['Gamma', '3', '2'], ['Delta', '8', '1'], ['Epsilon', '4', '4'], ['Zeta', '6', '6']];
    const ys = [146, 155, 169, 178, 192, 201];
    const runs: TextRun[] = [['Name', 52, 128, true], ['Count', 170, 128, true], ['Rank', 320, 128, true], ...rows.flatMap(([a, b, c], i): TextRun[] => [[a, 52, ys[i] as number], [b, 170, ys[i] as number], [c, 320, ys[i] as number]])];
    const tables = findTables(await firstPageModel(ruledPdf([rule(118), rule(133), rule(206)], runs)));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as PdfTable)).toEqual([['Name', 'Count', 'Rank'], ...rows]);
  });

  it('keeps a row whose values are figures a row of its own, however long its label', async () => {
    // The label "Characterisations of it" would not fit after "Introduction here", but "17"
    // under "11" is the next row's value, not a wrapped line.
    const rows: [string, string][] = [['Introduction here', '11'], ['Characterisations of it', '17'], ['Methods', '24'], ['Extraordinary results', '31'], ['Discussion', '38'], ['Conclusions', '45']];
    const ys = [146, 155, 169, 178, 192, 201];
    const runs: TextRun[] = [['Section', 52, 128, true], ['Page', 320, 128, true], ...rows.flatMap(([a, b], i): TextRun[] => [[a, 52, ys[i] as number], [b, 320, ys[i] as number]])];
    const tables = findTables(await firstPageModel(ruledPdf([rule(118), rule(133), rule(206)], runs)));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as PdfTable)).toEqual([['Section', 'Page'], ...rows]);
  });
});

describe('PDF tables: a cell wrapped under its row below a lone head rule', () => {
  it('takes the wrapped lines of a cell as its row\'s, and stops at the paragraph after the table', async () => {
    const runs: TextRun[] = [
      ['Symptom', 52, 100, true], ['Cause', 200, 100, true],
      ['Serving errors', 52, 118], ['Database servers refuse connections', 200, 118],
      ['Slow responses', 52, 130], ['CPUs are overloaded by a bogosort, or a cable', 200, 130],
      ['is crimped under a rack, visible as partial packet', 200, 139], ['loss on every link of the rack', 200, 148],
      ['Missing files', 52, 160], ['A push forgot the access lists', 200, 160],
      ['What versus why is one of the most important distinctions in writing good monitoring with signal.', 52, 180],
    ];
    const tables = findTables(await firstPageModel(ruledPdf([rule(106)], runs)));
    expect(tables).toHaveLength(1);
    expect(rowTexts(tables[0] as PdfTable)).toEqual([
      ['Symptom', 'Cause'],
      ['Serving errors', 'Database servers refuse connections'],
      ['Slow responses', 'CPUs are overloaded by a bogosort, or a cable is crimped under a rack, visible as partial packet loss on every link of the rack'],
      ['Missing files', 'A push forgot the access lists'],
    ]);
  });
});

describe('PDF tables: a column head wrapped above a lone head rule', () => {
  it('takes both lines of the head into the table', async () => {
    const runs: TextRun[] = [
      ['The states of a task and the timestamps they update are as follows.', 52, 80],
      ['Entity status', 52, 100], ['Assoc', 160, 100], ['Next trigger', 260, 100], ['Comment', 360, 100],
      ['status', 160, 109],
      ['new', 52, 125], ['new', 160, 125], ['scheduled', 260, 125], ['Pick up new tasks', 360, 125],
      ['enqueued', 52, 137], ['started', 160, 137], ['enqueued', 260, 137], ['Enqueue again', 360, 137],
      ['claimed', 52, 149], ['started', 160, 149], ['claimed', 260, 149], ['Enqueue if never run', 360, 149],
    ];
    const tables = findTables(await firstPageModel(ruledPdf([rule(113)], runs)));
    expect(tables).toHaveLength(1);
    const rows = rowTexts(tables[0] as PdfTable);
    expect(rows[0]).toEqual(['Entity status', 'Assoc status', 'Next trigger', 'Comment']);
    expect(rows).toHaveLength(4);
  });
});
