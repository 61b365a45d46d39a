/**
 * A symbol font's bullets (issue 16, lists round on office documents): Word prints a bulleted
 * list's bullet in the Symbol font, and the PDF's text layer (LibreOffice's ToUnicode map) gives
 * it as U+F0B7, the private-use page Windows gives a symbol font's characters. Read as nothing,
 * the items ran together as one paragraph. A page built in the test draws the bullet in a font
 * whose ToUnicode maps it to U+F0B7, each item's text beside it at the list's indent.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { normaliseText } from '../../src/parse/readers/pdf/text-normalise.ts';
import { buildPdf } from '../helpers/hostile-files.ts';
import { readInput } from '../helpers/read-input.ts';

const HEIGHT = 842;

function stream(text: string): Buffer {
  const data = Buffer.from(text, 'latin1');
  return Buffer.concat([Buffer.from(`<< /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
}

/**
 * A page with a heading line and three items, each bullet drawn in the symbol font (code 0xB7);
 * `nested` items are drawn after the second, each with Word's second-level bullet, "o" in
 * Courier, at the next indent; `closing` is a last line opening with a Courier "o" closed up to
 * the word after it.
 */
function bulletedListPdf(nested: readonly string[] = [], closing = false): Buffer {
  const toUnicode = stream(
    ['/CIDInit /ProcSet findresource begin', '12 dict begin', 'begincmap', '/CMapName /SymbolBullet def', '/CMapType 2 def',
      '1 begincodespacerange', '<00> <FF>', 'endcodespacerange', '1 beginbfchar', '<B7> <F0B7>', 'endbfchar',
      'endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end'].join('\n'),
  );
  const lines = ['BT /F1 10 Tf 72 ' + (HEIGHT - 100) + ' Td (Things to bring to the lake:) Tj ET'];
  let y = HEIGHT - 118;
  for (const item of ['List item 1', 'List item 2', 'List item 3']) {
    lines.push(`BT /F2 10 Tf 90 ${y} Td (\\267) Tj ET`, `BT /F1 10 Tf 108 ${y} Td (${item}) Tj ET`);
    y -= 14;
    if (item !== 'List item 2') continue;
    for (const sub of nested) {
      lines.push(`BT /F3 10 Tf 126 ${y} Td (o) Tj ET`, `BT /F1 10 Tf 144 ${y} Td (${sub}) Tj ET`);
      y -= 14;
    }
  }
  if (closing) lines.push(`BT /F3 10 Tf 72 ${y - 14} Td (o) Tj ET`, `BT /F1 10 Tf 79 ${y - 14} Td (clock is the hour) Tj ET`);
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Symbol /ToUnicode 7 0 R >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 ${HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 8 0 R >> >> /Contents 6 0 R >>`,
    stream(lines.join('\n') + '\n'),
    toUnicode,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
  ]);
}

describe('pdf: a symbol font\'s bullets', () => {
  it('maps the common Symbol and Wingdings bullets to the marks they show; other private-use glyphs still go', () => {
    expect(normaliseText('\uF0B7 List item 1')).toBe('\u2022 List item 1');
    expect(normaliseText('\uF0A7 a')).toBe('\u25AA a');
    expect(normaliseText('\uF06C b \uF06E c \uF076 d \uF0D8 e')).toBe('\u25CF b \u25A0 c \u2756 d \u27A2 e');
    expect(normaliseText('\uF0FC checked \uE000')).toBe(' checked ');
  });

  it('reads a list whose bullets are U+F0B7 as a list, each item its own', async () => {
    const result = await readPdf(readInput('pdf', bulletedListPdf(), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const items = Array.from(result.document.querySelectorAll('ul > li')).map((li) => (li.textContent ?? '').replace(/\s+/g, ' ').trim());
    expect(items).toEqual(['List item 1', 'List item 2', 'List item 3']);
    expect(result.document.querySelector('section')?.textContent ?? '').not.toMatch(/List item 1 List item 2/u);
  });

  it('reads a lone Courier "o" opening a line at an item\'s indent as the bullet it shows, and one closed up to its word as a letter', async () => {
    const result = await readPdf(readInput('pdf', bulletedListPdf(['List item 1.1', 'List item 1.2'], true), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const inner = Array.from(result.document.querySelectorAll('ul ul > li')).map((li) => (li.textContent ?? '').replace(/\s+/g, ' ').trim());
    expect(inner).toEqual(['List item 1.1', 'List item 1.2']);
    const text = (result.document.querySelector('section')?.textContent ?? '').replace(/\s+/g, ' ');
    expect(text).not.toMatch(/List item 2 o List item 1\.1/u);
    expect(text).toMatch(/o ?clock is the hour/u);
  });
});
