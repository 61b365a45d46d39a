/**
 * The .docx reader's text-level helpers on small WordprocessingML snippets: the edge cases the
 * corpus does not hold (gridAfter, tracked row changes, odd style IDs, sections without
 * references, OMML constructs).
 */
import { describe, expect, it } from 'vitest';
import { sectionReferences } from '../../src/parse/readers/docx/furniture.ts';
import { numberHeadings, readNumbering } from '../../src/parse/readers/docx/numbering.ts';
import { ommlToTex } from '../../src/parse/readers/docx/omml.ts';
import { readStyleFacts, styleMapIdentifier } from '../../src/parse/readers/docx/styles.ts';
import { fillSkippedGridColumns } from '../../src/parse/readers/docx/tables.ts';
import { decodeXmlEntities, parseXml, resolvePartName } from '../../src/parse/readers/docx/xml.ts';

const CELL = (span: number) => `<w:tc><w:tcPr><w:gridSpan w:val="${span}"/></w:tcPr><w:p/></w:tc>`;

describe('fillSkippedGridColumns', () => {
  it('adds spanning empty cells for gridBefore and gridAfter, nested rows included', () => {
    const xml =
      '<w:tbl><w:tr><w:trPr><w:gridBefore w:val="2"/><w:gridAfter w:val="1"/></w:trPr><w:tc><w:p/>' +
      '<w:tbl><w:tr><w:trPr><w:gridAfter w:val="3"/></w:trPr><w:tc/></w:tr></w:tbl></w:tc></w:tr></w:tbl>';
    expect(fillSkippedGridColumns(xml)).toBe(
      `<w:tbl><w:tr><w:trPr><w:gridBefore w:val="2"/><w:gridAfter w:val="1"/></w:trPr>${CELL(2)}<w:tc><w:p/>` +
        `<w:tbl><w:tr><w:trPr><w:gridAfter w:val="3"/></w:trPr><w:tc/>${CELL(3)}</w:tr></w:tbl></w:tc>${CELL(1)}</w:tr></w:tbl>`,
    );
  });

  it('leaves documents without skipped columns, and rows with tracked property changes, untouched', () => {
    const plain = '<w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl>';
    expect(fillSkippedGridColumns(plain)).toBe(plain);
    const tracked = '<w:tr><w:trPr><w:trPrChange><w:trPr><w:gridBefore w:val="1"/></w:trPr></w:trPrChange></w:trPr><w:tc/></w:tr>';
    expect(fillSkippedGridColumns(tracked)).toBe(tracked);
  });
});

describe('readStyleFacts', () => {
  const styles =
    '<w:styles xmlns:w="x"><w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="de-DE" w:eastAsia="zh-CN"/></w:rPr></w:rPrDefault></w:docDefaults>' +
    '<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="Überschrift 1"/><w:pPr><w:keepNext/></w:pPr><w:rPr><w:b/></w:rPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="ChapterSub"><w:name w:val="Chapter Sub"/><w:basedOn w:val="Chapter"/></w:style>' +
    '<w:style w:type="paragraph" w:styleId="BodyText"><w:name w:val="Body &amp; Text"/><w:pPr><w:outlineLvl w:val="9"/></w:pPr></w:style>' +
    '<w:style w:type="table" w:styleId="Grid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders/></w:tblPr></w:style>' +
    '</w:styles>';
  const used = ['berschrift1', 'Chapter', 'ChapterSub', 'BodyText', 'Titre1', '1'].map((id) => `<w:pStyle w:val="${id}"/>`).join('');

  it('maps used styles by localized name, outline level (inherited), and Word-style IDs of undefined styles', () => {
    const facts = readStyleFacts(styles, used);
    expect(facts.styleMap).toEqual(['p.berschrift1 => h1:fresh', 'p.Chapter => h2:fresh', 'p.ChapterSub => h2:fresh', 'p.Titre1 => h1:fresh']);
    expect(facts.language).toBe('de-DE');
  });

  it('serves mammoth a slim styles part: type, id, name only', () => {
    const { slimStylesXml } = readStyleFacts(styles, used);
    expect(slimStylesXml).toContain('<w:style w:type="table" w:styleId="Grid"><w:name w:val="Table Grid"/></w:style>');
    expect(slimStylesXml).not.toContain('tblBorders');
    expect(slimStylesXml?.startsWith('<w:styles xmlns:w="x">')).toBe(true);
  });

  it('escapes style IDs for mammoth style-map selectors', () => {
    expect(styleMapIdentifier('1')).toBe('\\1');
    expect(styleMapIdentifier('Heading 1')).toBe('Heading\\ 1');
    expect(styleMapIdentifier('a3')).toBe('a3');
  });
});

describe('numberHeadings', () => {
  const numberingXml =
    '<w:numbering><w:abstractNum w:abstractNumId="7">' +
    '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/></w:lvl>' +
    '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1.%2)"/></w:lvl>' +
    '<w:lvl w:ilvl="2"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl>' +
    '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="7"/></w:num>' +
    '<w:num w:numId="2"><w:abstractNumId w:val="7"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="4"/></w:lvlOverride></w:num></w:numbering>';
  const styles = { headings: new Set(['H1', 'H2']), numbering: new Map([['H1', { numId: '1', level: 0 }], ['H2', { numId: '1', level: 1 }]]) };
  const p = (style: string, text: string, numPr = '') => `<w:p><w:pPr><w:pStyle w:val="${style}"/>${numPr}</w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
  const labels = (xml: string) => Array.from(xml.matchAll(/<w:t xml:space="preserve">([^<]*) <\/w:t>/g)).map((m) => m[1]);

  it('formats each level and restarts deeper levels under a new item; list paragraphs count but get no text', () => {
    const xml = p('H1', 'A') + p('H2', 'a') + p('List', 'item', '<w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr>') + p('H2', 'c') + p('H1', 'B') + p('H2', 'a');
    expect(labels(numberHeadings(xml, readNumbering(numberingXml), styles))).toEqual(['I.', 'I.a)', 'I.c)', 'II.', 'II.a)']);
  });

  it('applies a start override the first time its instance is used, and leaves bullets and unnumbered styles alone', () => {
    const xml = p('H1', 'A') + p('H1', 'D', '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr>') + p('Body', 'text') + p('H2', 'x', '<w:numPr><w:numId w:val="0"/></w:numPr>');
    expect(labels(numberHeadings(xml, readNumbering(numberingXml), styles))).toEqual(['I.', 'IV.']);
  });
});

describe('sectionReferences', () => {
  it('reads references, types and w:titlePg per section; a section without references has none', () => {
    const xml =
      '<w:p><w:pPr><w:sectPr><w:headerReference r:id="rId1" w:type="default"/><w:titlePg w:val="0"/></w:sectPr></w:pPr></w:p>' +
      '<w:sectPr><w:footerReference w:type="first" r:id="rId2"/><w:titlePg/></w:sectPr>';
    const sections = sectionReferences(xml);
    expect(sections.map((s) => ({ header: [...s.header], footer: [...s.footer], titlePage: s.titlePage }))).toEqual([
      { header: [['default', 'rId1']], footer: [], titlePage: false },
      { header: [], footer: [['first', 'rId2']], titlePage: true },
    ]);
  });
});

describe('ommlToTex', () => {
  const tex = (inner: string) => ommlToTex(parseXml(`<m:oMath>${inner}</m:oMath>`).documentElement as Element);
  const r = (t: string) => `<m:r><m:t>${t}</m:t></m:r>`;

  it('converts radicals with a degree, n-ary operators with hidden limits, matrices and accents', () => {
    expect(tex(`<m:rad><m:deg>${r('3')}</m:deg><m:e>${r('x')}</m:e></m:rad>`)).toBe('\\sqrt[3]{x}');
    expect(tex(`<m:nary><m:naryPr><m:chr m:val="∑"/><m:supHide/></m:naryPr><m:sub>${r('i')}</m:sub><m:sup>${r('n')}</m:sup><m:e>${r('a')}</m:e></m:nary>`)).toBe('\\sum_{i}a');
    expect(tex(`<m:m><m:mr><m:e>${r('a')}</m:e><m:e>${r('b')}</m:e></m:mr><m:mr><m:e>${r('c')}</m:e><m:e>${r('d')}</m:e></m:mr></m:m>`)).toBe(
      '\\begin{matrix}a & b \\\\ c & d\\end{matrix}',
    );
    expect(tex(`<m:acc><m:accPr><m:chr m:val="\u20d7"/></m:accPr><m:e>${r('v')}</m:e></m:acc>`)).toBe('\\vec{v}');
  });

  it('escapes normal text, maps symbols, and drops invisible operators', () => {
    expect(tex(`<m:r><m:rPr><m:nor/></m:rPr><m:t>50% &amp; more</m:t></m:r>`)).toBe('\\text{50\\% \\& more}');
    expect(tex(r('α≤β\u2062γ'))).toBe('\\alpha\\leq\\beta\\gamma');
    expect(tex(`<m:d><m:dPr><m:begChr m:val="{"/><m:endChr m:val=""/></m:dPr><m:e>${r('x')}</m:e></m:d>`)).toBe('\\left\\{x\\right.');
  });
});

describe('xml helpers', () => {
  it('resolves relationship targets and decodes entities', () => {
    expect(resolvePartName('word/document.xml', '../customXml/item1.xml')).toBe('customXml/item1.xml');
    expect(resolvePartName('word/document.xml', '/word/media/a.png')).toBe('word/media/a.png');
    expect(resolvePartName('word/document.xml', 'media/./a.png')).toBe('word/media/a.png');
    expect(decodeXmlEntities('Q&amp;A &#x263A; &#65; &bogus;')).toBe('Q&A ☺ A &bogus;');
  });
});
