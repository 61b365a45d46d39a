/**
 * Headings on pages set as a browser prints a web page (issue 16, seventh round; bench:printed):
 * text in a proportional face, code listings in a smaller fixed-pitch face, heads in the
 * browser's sizes. Pages built in the test (Helvetica /F1, Helvetica-Bold /F2, Courier /F3).
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readInput } from '../helpers/read-input.ts';
import { A4_HEIGHT as HEIGHT, helveticaA4 } from './pdf-table-fixtures.ts';

async function headings(bytes: Buffer): Promise<string[]> {
  const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  return [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => `${h.tagName.toLowerCase()} ${h.textContent?.trim()}`);
}

const esc = (t: string) => t.replace(/[()\\]/g, '\\$&');
const text = (t: string, y: number, size = 12, font = 'F1') => `BT /${font} ${size} Tf 56 ${HEIGHT - y} Td (${esc(t)}) Tj ET`;

/** A listing of `n` Courier lines at 10 pt from `y` down; returns the y after it. */
function listing(ops: string[], y: number, n: number): number {
  for (let i = 0; i < n; i++) ops.push(`BT /F3 10 Tf ${56 + (i % 3) * 12} ${HEIGHT - y - i * 13} Td (${esc(`value_${i} = compute(items[${i}], factor * ${i + 1});`)}) Tj ET`);
  return y + n * 13 + 14;
}

describe('the body size of a page that is mostly code', () => {
  it('is the text face\'s size: the sentences introducing listings are no headings', async () => {
    const ops: string[] = [text('Vectorising a loop', 60, 24, 'F2')];
    let y = 100;
    ops.push(text('Here is a function that processes an array:', y));
    y = listing(ops, y + 20, 14);
    ops.push(text('The compiler generates vectorized code that processes four values at a time.', y));
    y = listing(ops, y + 20, 14);
    ops.push(text('Results', y + 10, 18, 'F2'));
    ops.push(text('It runs four times faster on the same machine.', y + 36));
    const found = await headings(helveticaA4(ops.join('\n')));
    expect(found).toEqual(['h1 Vectorising a loop', 'h2 Results']);
  });
});
