/**
 * The .rtf reader on the corpus (office/rtf) and on small hand-written RTF for features no
 * corpus file has (footnotes, merged cells): text, code pages, structure, metadata, and one
 * document through parse() to markdown.
 */
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { readRtf } from '../../src/parse/readers/rtf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

function read(file: string): Promise<ReadResult> {
  return readRtf(readInput('rtf', readCorpus('office', 'rtf', file), { filename: file }));
}

function readText(rtf: string): Promise<ReadResult> {
  return readRtf(readInput('rtf', Buffer.from(rtf, 'latin1')));
}

function texts(root: Element, selector: string): string[] {
  return Array.from(root.querySelectorAll(selector)).map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim());
}

describe('rtf reader: text and code pages', () => {
  it('decodes Windows-1250 text (\\ansicpg1250) and Czech \\u characters', async () => {
    const polish = await read('tika-testRTFWindowsCodepage1250.rtf');
    expect(texts(polish.document.body, 'p')).toEqual(['zażółć gęślą jaźń', 'ZAŻÓŁĆ GĘŚLĄ JAŹŃ']);
    const czech = await read('tika-testRTFWord2010CzechCharacters.rtf');
    expect(texts(czech.document.body, 'p')).toContain('Část svitku s textem Knihy Izajáš');
  });

  it('decodes Japanese double-byte \\\'hh pairs of a Shift-JIS font', async () => {
    const { document } = await read('tika-testRTFJapanese.rtf');
    expect(texts(document.body, 'strong')).toContain('ゾルゲと尾崎、淡々と最期');
    expect(document.body.textContent).toContain('「何等取乱シタル態度無ク」と記されていた＝渡部富哉さん提供');
  });

  it('skips \\uc fallback characters (no doubling) and keeps umlauts', async () => {
    const { document } = await read('tika-testRTFUnicodeUCNControlWordCharacterDoubling.rtf');
    expect(texts(document.body, 'p')).toEqual(['0 年 abc 念']);
    const umlaut = await read('tika-testRTFUmlautSpaces2.rtf');
    expect(texts(umlaut.document.body, 'p')).toEqual(['Übersicht']);
  });

  it('reads raw UTF-8 text as UTF-8 whatever \\ansicpg says (RTF written from HTML), escapes by their code page', async () => {
    const rtf = Buffer.concat([
      Buffer.from('{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}\\f0 ', 'latin1'),
      Buffer.from('Café crème — naïve', 'utf8'),
      Buffer.from(" \\'e9t\\'e9\\par}", 'latin1'),
    ]);
    const { document } = await readRtf(readInput('rtf', rtf));
    expect(texts(document.body, 'p')).toEqual(['Café crème — naïve été']);
    // Raw Windows-1252 bytes (not well-formed UTF-8) stay Windows-1252.
    const latin = await readText('{\\rtf1\\ansi caf\xe9 cr\xe8me\\par}');
    expect(texts(latin.document.body, 'p')).toEqual(['café crème']);
  });

  it('drops the optional hyphen, keeps text after a mid-group \\*, ends paragraphs at \\par', async () => {
    expect(texts((await read('tika-testOptionalHyphen.rtf')).document.body, 'p')).toEqual(['optionalhyphen']);
    expect(texts((await read('tika-testRTFIgnoredControlWord.rtf')).document.body, 'p')).toEqual(['The quick brown fox jumps over the lazy dog']);
    expect(texts((await read('tika-testRTFNewlines.rtf')).document.body, 'p')).toEqual(['one', 'two', 'three', 'four']);
  });

  it('ignores unknown control words, also those named like Object properties', async () => {
    const { document } = await readText('{\\rtf1\\ansi \\constructor\\valueOf\\toString\\insrsid123 x\\fakeword99 y\\par}');
    expect(document.body.innerHTML).toBe('<p>xy</p>');
  });

  it('reads control symbols, \\line, character formatting and \\bin data', async () => {
    const { document } = await readText('{\\rtf1\\ansi {\\b bold}\\~x\\_y\\{z\\}\\\\ {\\i it}{\\super 2}{\\strike gone}\\line next{\\bin4 }}}}}\\par}');
    const p = document.body.querySelector('p');
    expect(p?.innerHTML).toBe('<strong>bold</strong>&#160;x\u2011y{z}\\ <em>it</em><sup>2</sup><s>gone</s><br>next');
  });
});

describe('rtf reader: structure', () => {
  it('reads headings from outline levels, and tables with a header row', async () => {
    const { document } = await read('kreuzberg-extraction_test.rtf');
    expect(texts(document.body, 'h1')).toEqual(['Comprehensive Extraction Test Document']);
    expect(texts(document.body, 'h2')).toContain('First Section');
    const table = document.body.querySelector('table');
    expect(texts(table as Element, 'thead th')).toEqual(['Header 1', 'Header 2', 'Header 3']);
    expect(texts(table as Element, 'tbody tr:first-child td')).toEqual(['Cell 1A', 'Cell 1B', 'Cell 1C']);
  });

  it('separates table cells', async () => {
    const { document } = await read('tika-testRTFTableCellSeparation2.rtf');
    expect(texts(document.body, 'td')).toEqual(['Fax / Phone Station', 'Fax / Phone #']);
  });

  it('reads ordered, bullet and nested lists from the list table (\\listtext dropped)', async () => {
    const { document } = await read('tika-testRTFListMicrosoftWord.rtf');
    const lists = Array.from(document.body.children).filter((el) => el.tagName === 'OL' || el.tagName === 'UL');
    expect(lists.map((l) => l.tagName)).toEqual(['OL', 'UL', 'OL']);
    expect(texts(lists[0] as Element, ':scope > li')).toEqual(['one', 'two', 'three']);
    expect(texts(lists[1] as Element, ':scope > li')).toEqual(['first', 'second', 'third']);
    expect(texts(lists[2] as Element, ':scope > li > ul > li')).toEqual(['aa', 'ab']);
    expect(document.body.textContent).not.toContain('1.\t');
  });

  it('reads typed list markers (\\bullet\\tab, 1.\\tab with a hanging indent) as lists', async () => {
    const { document } = await read('kreuzberg-word_sample.rtf');
    expect(texts(document.body, 'ul > li')).toEqual(['You can relax and look around', 'Paddle about', 'Enjoy summer warmth']);
    expect(texts(document.body, 'ol > li')).toEqual(['Wear sunglasses', 'Don’t forget to drink water', 'Use sun cream', 'Leaves', 'Berries', 'Grain']);
    expect(texts(document.body, 'table tbody tr:nth-child(2) td')).toEqual(['Berries', 'Blueberry, Strawberry, Cranberry', '150']);
  });

  it('turns HYPERLINK fields into links', async () => {
    const { document } = await read('tika-testRTFHyperlink.rtf');
    const link = Array.from(document.body.querySelectorAll('a')).find((a) => a.textContent === 'frequently asked questions');
    expect(link?.getAttribute('href')).toBe('http://r.office.microsoft.com/r/rlidwelcomeFAQ?clid=1033');
  });

  it('puts headers and footers in page furniture and pictures as placeholders', async () => {
    const { document } = await read('tika-testRTF_npeFromWMFInTikaServer.rtf');
    const footer = document.body.querySelector('footer[data-furniture="footer"]');
    expect(texts(footer as Element, 'strong')).toEqual(['Example footer']);
    expect(footer?.querySelector('img')?.getAttribute('alt')).toBe('Image');
    expect(footer?.querySelector('img')?.hasAttribute('src')).toBe(false);
    const withImages = await readRtf(
      readInput('rtf', readCorpus('office', 'rtf', 'tika-testRTF_npeFromWMFInTikaServer.rtf'), { options: { removeBase64Images: false } }),
    );
    expect(withImages.warnings).toEqual(['The picture in this RTF document is shown as a placeholder: folio does not extract RTF picture data yet.']);
    const header = await read('tika-testRTFBoldPlain.rtf');
    expect(texts(header.document.body, 'header[data-furniture="header"] strong')).toEqual(['Animal Hospital', 'Hank']);
  });

  it('shows an embedded object’s \\result, and a placeholder for an object without one', async () => {
    const { document } = await readText(
      '{\\rtf1\\ansi A{\\object\\objemb{\\*\\objclass Excel}{\\*\\objdata 0102}}B{\\object\\objlink{\\*\\objdata 01}{\\result {\\b linked text}}}C\\par}',
    );
    expect(document.body.innerHTML).toBe('<p>A<img alt="Image">B<strong>linked text</strong>C</p>');
  });

  it('places a shape’s text box after its paragraph (its \\shprslt copy skipped) and a picture shape as a placeholder', async () => {
    const box = '{\\shp{\\*\\shpinst\\shpleft0{\\sp{\\sn shapeType}{\\sv 202}}{\\shptxt \\pard Box text\\par}}{\\shprslt{\\*\\do\\dobxcolumn{\\*\\dptxbxtext \\pard Box text\\par}}}}';
    const picture = '{\\shp{\\*\\shpinst{\\sp{\\sn pib}{\\sv {\\pict\\pngblip 0011}}}}{\\shprslt {\\pict 00}}}';
    const { document } = await readText(`{\\rtf1\\ansi \\pard Before ${box}after\\par${picture}\\par}`);
    expect(document.body.innerHTML).toBe('<p>Before after</p><p>Box text</p><p><img alt="Image"></p>');
  });

  it('leaves review comments (\\annotation) out with a warning, as the Word readers do', async () => {
    const { document, warnings } = await read('tika-testComment.rtf');
    expect(warnings).toEqual(['Comments in the document are left out of the output.']);
    const text = document.body.textContent ?? '';
    expect(text).not.toContain('Michael McCandless');
    const plain = await readText('{\\rtf1\\ansi Body text.\\par}');
    expect(plain.warnings).toEqual([]);
  });

  it('numbers footnotes and puts their text after a rule at the end', async () => {
    const { document } = await readText(
      '{\\rtf1\\ansi {\\fonttbl{\\f0 Arial;}}\\pard Body text{\\super\\chftn}{\\footnote\\pard {\\super\\chftn} The note.}. More\\par}',
    );
    const children = Array.from(document.body.children);
    expect(children.map((el) => el.tagName)).toEqual(['P', 'HR', 'P']);
    expect(children[0]?.textContent).toBe('Body text[1]. More');
    expect(children[2]?.textContent?.replace(/\s+/g, ' ')).toBe('[1] The note.');
  });

  it('turns merged cells into colspan and rowspan', async () => {
    const row1 = '\\trowd\\clmgf\\cellx1000\\clmrg\\cellx2000\\clvmgf\\cellx3000\\pard\\intbl A\\cell\\cell C\\cell\\row';
    const row2 = '\\trowd\\cellx1000\\cellx2000\\clvmrg\\cellx3000\\pard\\intbl D\\cell E\\cell\\cell\\row';
    const row3 = '\\trowd\\cellx1000\\cellx2000\\cellx3000\\pard\\intbl F\\cell G\\cell H\\cell\\row';
    const { document } = await readText(`{\\rtf1\\ansi ${row1}${row2}${row3}\\pard After\\par}`);
    const table = document.body.querySelector('table');
    // A header cell that spans rows into the body: no header row.
    expect(table?.querySelector('thead')).toBeNull();
    expect(table?.innerHTML).toBe(
      '<tbody><tr><td colspan="2">A</td><td rowspan="2">C</td></tr><tr><td>D</td><td>E</td></tr><tr><td>F</td><td>G</td><td>H</td></tr></tbody>',
    );
    expect(texts(document.body, 'p')).toEqual(['After']);
  });
});

describe('rtf reader: styles, nesting, cancellation', () => {
  it('finds headings by stylesheet name and flattens a nested table into its outer cell', async () => {
    const styles = '{\\stylesheet{\\s0 Normal;}{\\s2\\sbasedon0 heading 2;}{\\*\\cs5 heading 1 Char;}}';
    const nested = '\\pard\\intbl\\itap2 inner 1\\nestcell inner 2\\nestcell{\\*\\nesttableprops\\trowd\\cellx500\\cellx900\\nestrow}';
    const { document } = await readText(
      `{\\rtf1\\ansi ${styles}\\pard\\s2 Styled\\par\\trowd\\cellx1000\\cellx2000\\pard\\intbl outer\\cell ${nested}\\pard\\intbl\\itap1 after\\cell\\row\\pard Done\\par}`,
    );
    expect(texts(document.body, 'h2')).toEqual(['Styled']);
    expect(document.body.querySelector('table')?.innerHTML).toBe('<tbody><tr><td>outer</td><td>inner 1<br>inner 2<br>after</td></tr></tbody>');
    expect(texts(document.body, 'p')).toEqual(['Done']);
  });

  it('reads a .doc whose bytes are RTF through parse()', async () => {
    const bytes = readCorpus('office', 'rtf', 'tika-testRTFWindowsCodepage1250.rtf');
    const data = await parse({ bytes, filename: 'letter.doc' }, parseOptions({}));
    expect(data.markdown).toContain('zażółć gęślą jaźń');
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const input = readInput('rtf', readCorpus('office', 'rtf', 'tika-testRTF.rtf'), { signal: controller.signal });
    await expect(readRtf(input)).rejects.toThrow();
  });
});

describe('rtf reader: metadata', () => {
  it('reads \\info title, author, dates and the default language', async () => {
    const { metadata } = await read('tika-testRTF.rtf');
    expect(metadata.title).toBe('Test d’indexation Word');
    expect(metadata.language).toBe('fr-FR');
    expect(metadata.extra).toMatchObject({ author: 'Bibliotheque', company: 'Universite Laval', created: '2006-05-18T12:19:00.000Z' });
    const ignored = await read('tika-testRTFIgnoredControlWord.rtf');
    expect(ignored.metadata.description).toBe('tests');
  });
});

describe('rtf through parse()', () => {
  it('writes markdown with headings, a GFM table and list items', async () => {
    const file = 'kreuzberg-extraction_test.rtf';
    const data = await parse({ bytes: readCorpus('office', 'rtf', file), filename: file }, parseOptions({}));
    const markdown = data.markdown ?? '';
    expect(markdown).toContain('# Comprehensive Extraction Test Document');
    expect(markdown).toMatch(/\| Header 1 \| Header 2 \| Header 3 \|/);
    expect(markdown).toMatch(/\| Cell 1A \| Cell 1B \| Cell 1C \|/);
  });
});
