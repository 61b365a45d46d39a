/**
 * The reference tables of bench:tables (bench/pdf/table-references.ts): a structure tree's
 * Table/TR/TH/TD elements and their marked-content text, docling's pipe tables, the page a
 * table stands on, and the found / missed / extra matching — passing and failing cases, and the
 * real tagged invoice of the corpus.
 */
import { describe, expect, it } from 'vitest';
import { doclingTables, markedContentText, matchTables, pageOfTable, structureTables, taggedTables, type StructNode } from '../../bench/pdf/table-references.ts';
import { readCorpus } from '../helpers/corpus.ts';

const content = (id: string): StructNode => ({ type: 'content', id });
const cell = (role: 'TH' | 'TD', ...ids: string[]): StructNode => ({ role, children: ids.map(content) });

describe('structureTables', () => {
  const texts = new Map([
    ['mc1', 'Item'],
    ['mc2', 'Price (€)'],
    ['mc3', 'Kite'],
    ['mc4', '20.00'],
    ['mc5', 'Total <net>'],
    ['mc6', 'Turbo'],
    ['mc7', 'Flyer'],
  ]);
  const textOf = (id: string): string => texts.get(id) ?? '';

  it('reads rows under THead and TBody, TH as th, a cell of several contents joined by a space', () => {
    const tree: StructNode = {
      role: 'Root',
      children: [
        { role: 'P', children: [content('mc5')] },
        {
          role: 'Table',
          children: [
            { role: 'THead', children: [{ role: 'TR', children: [cell('TH', 'mc1'), cell('TH', 'mc2')] }] },
            { role: 'TBody', children: [{ role: 'TR', children: [cell('TD', 'mc3'), cell('TD', 'mc4')] }, { role: 'TR', children: [cell('TD', 'mc6', 'mc7'), cell('TD')] }] },
          ],
        },
      ],
    };
    expect(structureTables(tree, textOf)).toEqual(['<table><tr><th>Item</th><th>Price (€)</th></tr><tr><td>Kite</td><td>20.00</td></tr><tr><td>Turbo Flyer</td><td></td></tr></table>']);
  });

  it('escapes cell text, reads TR directly under Table, and leaves text outside tables out', () => {
    const tree: StructNode = { role: 'Document', children: [{ role: 'Table', children: [{ role: 'TR', children: [cell('TD', 'mc5')] }] }] };
    expect(structureTables(tree, textOf)).toEqual(['<table><tr><td>Total &lt;net&gt;</td></tr></table>']);
  });

  it('finds no table in an untagged page, a tree without Table, or a Table without rows', () => {
    expect(structureTables(null, textOf)).toEqual([]);
    expect(structureTables({ role: 'Root', children: [{ role: 'P', children: [content('mc1')] }, { role: 'L', children: [{ role: 'LI', children: [content('mc2')] }] }] }, textOf)).toEqual([]);
    expect(structureTables({ role: 'Root', children: [{ role: 'Table', children: [{ role: 'Caption', children: [content('mc1')] }] }] }, textOf)).toEqual([]);
  });
});

describe('markedContentText', () => {
  it('gives each string to the innermost marked content with an id, a line end as a space', () => {
    const texts = markedContentText([
      { type: 'beginMarkedContentProps', id: 'p1R_mc0' },
      { str: 'Super', hasEOL: true },
      { type: 'beginMarkedContent' },
      { str: 'Kite' },
      { type: 'endMarkedContent' },
      { type: 'endMarkedContent' },
      { str: 'artifact' },
      { type: 'beginMarkedContentProps', id: 'p1R_mc1' },
      { str: '20.00' },
      { type: 'endMarkedContent' },
    ]);
    expect(Object.fromEntries(texts)).toEqual({ p1R_mc0: 'Super Kite', p1R_mc1: '20.00' });
  });

  it('gives nothing to text outside marked content with an id', () => {
    expect(markedContentText([{ type: 'beginMarkedContent' }, { str: 'Page 1' }, { type: 'endMarkedContent' }, { str: 'loose' }]).size).toBe(0);
  });
});

describe('doclingTables', () => {
  it('turns a pipe table into an HTML table with the bench converter', () => {
    const md = 'Intro\n\n| Model | TEDS |\n|---|---|\n| OTSL | 0.965 |\n\nAfter';
    expect(doclingTables(md)).toEqual(['<table><tr><th>Model</th><th>TEDS</th></tr><tr><td>OTSL</td><td>0.965</td></tr></table>']);
  });

  it('finds no table in lines with pipes but no separator row', () => {
    expect(doclingTables('a | b\nc | d\n')).toEqual([]);
  });
});

describe('pageOfTable and matchTables', () => {
  const table = '<table><tr><td>Super Kite</td><td>40.00</td></tr><tr><td>Turbo Flyer</td><td>200.00</td></tr></table>';

  it('places a table on the page holding the most of its words, nowhere when no page holds any', () => {
    expect(pageOfTable(table, ['Intro text', 'Super Kite 40.00 Turbo Flyer 200.00', 'Super'])).toBe(1);
    expect(pageOfTable(table, ['nothing here', 'or here'])).toBe(-1);
  });

  it('pairs a reference table with the predicted one sharing its words; a stranger is extra, the reference missed', () => {
    const other = '<table><tr><td>Name</td><td>Address</td></tr></table>';
    expect(matchTables([table], [other, table])).toEqual({ pairs: [1], extra: 1 });
    expect(matchTables([table], [other])).toEqual({ pairs: [-1], extra: 1 });
    expect(matchTables([table, table], [table])).toEqual({ pairs: [0, -1], extra: 0 });
  });
});

describe('taggedTables on the corpus', () => {
  it("reads the PDF/UA invoice's table: 9 rows, its head row in TH", async () => {
    const pages = await taggedTables(readCorpus('pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-02_Invoice.pdf'));
    expect(pages).toHaveLength(1);
    const [table] = pages?.[0] ?? [];
    expect(table?.match(/<tr>/g)).toHaveLength(9);
    expect(table).toContain('<tr><th>ITEM</th><th>DESCRIPTION</th><th>QUANTITY</th><th>PRICE (€)</th><th>AMOUNT (€)</th></tr>');
    expect(table).toContain('<td>Super Kite</td>');
  });

  it('gives a PDF/UA file that tags no table pages with no table, so tables found there are extra', async () => {
    const pages = await taggedTables(readCorpus('pdf', 'opendataloader-pdf', 'PDFUA-Ref-2-03_AcademicAbstract.pdf'));
    expect(pages).toEqual([[], []]);
  });

  it('gives null for a PDF with no structure tree', async () => {
    expect(await taggedTables(readCorpus('pdf', 'docling', 'multi_page.pdf'))).toBeNull();
  });
});
