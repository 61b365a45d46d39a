/**
 * ODF markup the corpus files do not use, in small packages built here: cached heading numbers,
 * spaces and tabs, a paragraph style whose parent is a Heading style, tracked deletions and
 * comments (left out), repeated rows and cells, endnotes, and a header from styles.xml.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import { readOdt } from '../../src/parse/readers/odt/index.ts';
import { readInput } from '../helpers/read-input.ts';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';

function odt(body: string, automaticStyles = '', stylesXml?: string): Promise<ReadResult> {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles>${automaticStyles}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`;
  const files: Record<string, Uint8Array> = { 'content.xml': strToU8(content) };
  if (stylesXml) files['styles.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS}>${stylesXml}</office:document-styles>`);
  return readOdt(readInput('odt', zipSync(files)));
}

describe('odt markup', () => {
  it('keeps a heading cached number, drops a list item one, and turns text:s and text:tab into spaces', async () => {
    const { document } = await odt(
      '<text:h text:outline-level="2"><text:number>2.1</text:number>Scope</text:h>' +
        '<text:list><text:list-item><text:p><text:number>a)</text:number>first<text:s text:c="3"/>word<text:tab/>tabbed<text:line-break/>next line</text:p></text:list-item></text:list>',
    );
    expect(document.body.querySelector('h2')?.textContent).toBe('2.1 Scope');
    expect(document.body.querySelector('li')?.innerHTML).toBe('first   word\ttabbed<br>next line');
  });

  it('makes a paragraph whose style inherits from Heading 2 an h2, and bolds a bold paragraph style except a span that turns bold off', async () => {
    const styles =
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Heading_20_2"/>' +
      '<style:style style:name="P2" style:family="paragraph"><style:text-properties fo:font-weight="bold"/></style:style>' +
      '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>' +
      '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-weight="normal"/></style:style>';
    const { document } = await odt('<text:p text:style-name="P1">Styled heading</text:p><text:p text:style-name="P2">All bold <text:span text:style-name="T1">and italic</text:span> <text:span text:style-name="T2">not bold</text:span></text:p>', styles);
    expect(document.body.querySelector('h2')?.textContent).toBe('Styled heading');
    expect(document.body.querySelector('p')?.innerHTML).toBe('<strong>All bold <em>and italic</em></strong> not bold');
  });

  it('leaves out tracked deletions and comments, and numbers footnotes and endnotes in one sequence', async () => {
    const { document } = await odt(
      '<text:tracked-changes><text:changed-region text:id="c1"><text:deletion><text:p>deleted words</text:p></text:deletion></text:changed-region></text:tracked-changes>' +
        '<text:p>Kept<text:change text:change-id="c1"/> text<office:annotation><dc:creator>A</dc:creator><text:p>a comment</text:p></office:annotation>' +
        '<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Foot</text:p></text:note-body></text:note>' +
        ' and<text:note text:note-class="endnote"><text:note-citation>i</text:note-citation><text:note-body><text:p>End</text:p></text:note-body></text:note></text:p>',
    );
    const html = document.body.innerHTML;
    expect(html).not.toContain('deleted words');
    expect(html).not.toContain('a comment');
    expect(document.body.querySelector('p')?.textContent).toBe('Kept text[1] and[2]');
    expect(Array.from(document.querySelectorAll('hr + ol > li')).map((li) => li.textContent)).toEqual(['Foot', 'End']);
  });

  it('writes repeated cells and rows out, but an empty row repeated a million times once', async () => {
    const { document } = await odt(
      '<table:table><table:table-header-rows><table:table-row><table:table-cell table:number-columns-repeated="2"><text:p>H</text:p></table:table-cell></table:table-row></table:table-header-rows>' +
        '<table:table-row table:number-rows-repeated="2"><table:table-cell><text:p>x</text:p></table:table-cell><table:covered-table-cell/></table:table-row>' +
        '<table:table-row table:number-rows-repeated="1000000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>',
    );
    const rows = Array.from(document.querySelectorAll('tr')).map((tr) => Array.from(tr.children).map((c) => `${c.tagName}:${c.textContent}`));
    expect(rows).toEqual([['TH:H', 'TH:H'], ['TD:x'], ['TD:x'], ['TD:']]);
  });

  it('reads a header from the master page with the automatic styles of styles.xml', async () => {
    const styles =
      '<office:automatic-styles><style:style style:name="MP1" style:family="paragraph"><style:text-properties fo:font-style="italic"/></style:style></office:automatic-styles>' +
      '<office:master-styles><style:master-page style:name="Standard"><style:header><text:p text:style-name="MP1">Running head</text:p></style:header>' +
      '<style:footer style:display="false"><text:p>Hidden foot</text:p></style:footer></style:master-page></office:master-styles>';
    const { document } = await odt('<text:p>Body</text:p>', '', styles);
    expect(document.body.firstElementChild?.outerHTML).toBe('<header data-furniture="header"><p><em>Running head</em></p></header>');
    expect(document.body.innerHTML).not.toContain('Hidden foot');
  });
});
