/**
 * The lettering inside a captioned figure's frame (layout/figure-frames.ts) is the figure's, not
 * the document's headings: a bold clause inside a ruled box with "Figure 1" under it stays text,
 * the same box with no figure caption (a boxed note) keeps its bold head; and redp5110's syntax
 * diagram (Figure 3-1) and screen (Figure 3-5), whose bold clauses read as headings before.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';
import { gridRuleOps, helveticaA4, textRunOps, type TextRun } from './pdf-table-fixtures.ts';

const TEXT = [
  'The statement that is shown below defines a rule and enables or disables it for each row of',
  'the table, and the clauses that follow the name say where the rule applies and to what data.',
  'Each clause is explained beside it, and the statement ends with the choice of its first state',
  'so that a reader can see at once which part of the statement does what and in which order.',
];

function page(caption: string): Buffer {
  const runs: TextRun[] = [];
  TEXT.forEach((t, i) => runs.push([t, 72, 100 + 11 * i]));
  runs.push(['FOR ROWS', 90, 225, true], ['Specifies a condition that can be true or false for a row.', 90, 240]);
  runs.push(['ENFORCED FOR ALL ACCESS', 90, 265, true], ['Applies to all references of the table and its views.', 90, 280]);
  runs.push([caption, 72, 318]);
  TEXT.forEach((t, i) => runs.push([t, 72, 345 + 11 * i]));
  // The frame: a rectangle of four rules round the diagram.
  const ops = [...textRunOps(runs), ...gridRuleOps([72, 480], [205, 300])];
  return helveticaA4(ops.join('\n'));
}

async function headings(bytes: Buffer): Promise<string[]> {
  const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  return [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.textContent?.trim() ?? '');
}

describe('pdf layout: lettering inside a captioned figure frame', () => {
  it('leaves bold clauses inside a ruled frame with a figure caption under it to the text', async () => {
    expect(await headings(page('Figure 1 The statement and its clauses'))).toEqual([]);
  });

  it('keeps the bold heads of a ruled box that no figure caption stands beside', async () => {
    expect(await headings(page('The statement and its clauses are explained in turn'))).toEqual(['FOR ROWS', 'ENFORCED FOR ALL ACCESS']);
  });

  it('leaves the clauses of a real syntax diagram and a screen to their figures (docling redp5110_sampled)', async () => {
    const heads = await headings(readCorpus('pdf', 'docling', 'redp5110_sampled.pdf'));
    for (const clause of ['FOR ROWS', 'ENFORCED FOR ALL ACCESS', 'ENABLE', 'Signed on as ALICE']) expect(heads).not.toContain(clause);
    expect(heads.some((h) => h.startsWith('CREATE PERMISSION'))).toBe(false);
    expect(heads).toContain('Column mask');
    expect(heads).toContain('3.2.2 Built-in global variables');
  });
});
