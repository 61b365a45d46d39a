/**
 * DOCX fidelity on real corpus files: tracked changes (the accepted text), text boxes once at
 * their anchor (VML copy, DrawingML-only, choice without fallback), comments left out, fields
 * as their displayed result (simple, complex, nested; never the code), content controls, and
 * bidirectional wrappers. Variants are corpus files with one part rewritten the way other
 * producers write the same content.
 */
import { strToU8, strFromU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { elementRanges, replaceRanges } from '../../src/parse/readers/docx/markup-scan.ts';
import { corpusFiles, readCorpus } from '../helpers/corpus.ts';

const options = parseOptions({ formats: ['markdown'] });

async function markdownOf(bytes: Uint8Array, name: string): Promise<string> {
  const data = await parse({ bytes: Buffer.from(bytes), filename: name }, options);
  return data.markdown ?? '';
}

function corpusMarkdown(file: string): Promise<string> {
  return markdownOf(readCorpus('office', 'docx', file), file);
}

/** The corpus file with word/document.xml rewritten. */
function variant(file: string, rewrite: (xml: string) => string): Uint8Array {
  const parts: Zippable = { ...unzipSync(readCorpus('office', 'docx', file)) };
  const xml = strFromU8(parts['word/document.xml'] as Uint8Array);
  const rewritten = rewrite(xml);
  expect(rewritten).not.toBe(xml);
  parts['word/document.xml'] = strToU8(rewritten);
  return zipSync(parts);
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Each outermost element `name` replaced by what `keep` returns from its inner XML. */
function rewriteOutermost(xml: string, name: string, keep: (inner: string) => string): string {
  const ranges = elementRanges(xml, name).filter((r) => r.depth === 0);
  return replaceRanges(xml, ranges, (r) => keep(xml.slice(r.openEnd, r.closeStart)));
}

/** The inner XML of the first outermost `name` element in `xml`, or ''. */
function firstInner(xml: string, name: string): string {
  const range = elementRanges(xml, name).find((r) => r.depth === 0);
  return range ? xml.slice(range.openEnd, range.closeStart) : '';
}

describe('tracked changes: the accepted text', () => {
  it('keeps insertions and the moved text once, drops deletions (tika-testWORD_features)', async () => {
    const md = await corpusMarkdown('tika-testWORD_features.docx');
    expect(md).toContain('Maecenas eget elit insert this fringilla, est eu, volutpat urna.');
    expect(md).toContain('While euismod posuere rhoncus.');
    expect(md).not.toContain('bibendum');
    expect(md).not.toContain('Donec');
    // moveFrom (after "sociosqu") is dropped, moveTo (after "urna.") kept: once.
    expect(count(md, 'ad litora')).toBe(1);
    expect(md).toContain('sociosqutorquent inceptos');
  });

  it('drops a deleted paragraph and keeps an inserted one (word-extractor-test14)', async () => {
    const md = await corpusMarkdown('word-extractor-test14.docx');
    expect(md).toContain('This text has been inserted, and should be included');
    expect(md).not.toContain('deleted');
  });
});

const TEXT_BOXES = [
  'First text box, regular',
  'A shape with text inside',
  'Second text box, copied and pasted from the first. The anchor point is the same',
  'This is in a third text box, but it’s linked to the same text from the second.',
  'Vertical text box added too',
];

function expectTextBoxesOnceAtAnchors(md: string): void {
  for (const text of TEXT_BOXES) expect(count(md, text), text).toBe(1);
  const at = (text: string): number => md.indexOf(text);
  expect(at('Paragraph 1')).toBeLessThan(at('First text box, regular'));
  expect(at('First text box, regular')).toBeLessThan(at('Paragraph 2'));
  expect(at('Paragraph 2')).toBeLessThan(at('A shape with text inside'));
  expect(at('A shape with text inside')).toBeLessThan(at('Paragraph 3'));
}

describe('text boxes and shapes: once, at their anchor', () => {
  const FILE = 'word-extractor-test16.docx';

  it('reads the VML copy of each DrawingML text box, never both branches', async () => {
    expectTextBoxesOnceAtAnchors(await corpusMarkdown(FILE));
  });

  it('reads the choice when a producer wrote no fallback', async () => {
    const bytes = variant(FILE, (xml) => rewriteOutermost(xml, 'mc:AlternateContent', (inner) => `<mc:AlternateContent><mc:Choice Requires="wps">${firstInner(inner, 'mc:Choice')}</mc:Choice></mc:AlternateContent>`));
    expectTextBoxesOnceAtAnchors(await markdownOf(bytes, FILE));
  });

  it('reads DrawingML text boxes written without markup compatibility (no VML copy)', async () => {
    const bytes = variant(FILE, (xml) => rewriteOutermost(xml, 'mc:AlternateContent', (inner) => firstInner(inner, 'mc:Choice')));
    const md = await markdownOf(bytes, FILE);
    expectTextBoxesOnceAtAnchors(md);
  });

  it('keeps the text of grouped and floating shapes (docling-textbox)', async () => {
    const md = await corpusMarkdown('docling-textbox.docx');
    expect(count(md, 'Whether the epidemic has eased.')).toBe(1);
    expect(md).toContain('Collaborate with the Health Bureau in conducting epidemiological investigations');
  });
});

describe('comments: left out of the body', () => {
  it('drops comment text and keeps the commented sentences whole (docling-docx_comments)', async () => {
    const md = await corpusMarkdown('docling-docx_comments.docx');
    expect(md).toContain('This is the first paragraph that has a comment attached to it.');
    expect(md).toContain('This paragraph has an anonymous comment.');
    expect(md).not.toContain('sample reviewer comment');
    expect(md).not.toContain('Anonymous feedback');
  });

  it('keeps a sentence whole around a comment range (tika-testWORD_features)', async () => {
    const md = await corpusMarkdown('tika-testWORD_features.docx');
    expect(md).toContain('Integer tincidunt pretium dapibus. Fusce quis dolor dui.');
  });

  it('says comments were left out, as the .doc, Word 2003 XML and RTF readers do; a file without any says nothing', async () => {
    const warningOf = async (file: string): Promise<string | undefined> =>
      (await parse({ bytes: readCorpus('office', 'docx', file), filename: file }, parseOptions({ formats: ['markdown'] }))).warning ?? undefined;
    expect(await warningOf('docling-docx_comments.docx')).toBe('Comments in the document are left out of the output.');
    expect(await warningOf('tika-testWORD_features.docx')).toContain('Comments in the document are left out of the output.');
    expect(await warningOf('docling-word_sample.docx')).toBeUndefined();
  });
});

describe('fields: the displayed result, never the code', () => {
  const FILE = 'docling-word_sample.docx';
  const SIMPLE =
    '<w:fldSimple w:instr=" HYPERLINK &quot;https://example.org/report&quot; "><w:r><w:t>the annual report</w:t></w:r></w:fldSimple>' +
    '<w:r><w:t xml:space="preserve">, dated </w:t></w:r>' +
    '<w:fldSimple w:instr=" DATE \\@ &quot;d MMMM yyyy&quot; "><w:r><w:t>12 May 2024</w:t></w:r></w:fldSimple>' +
    '<w:r><w:t xml:space="preserve">, see page </w:t></w:r>' +
    '<w:fldSimple w:instr=" PAGEREF _Toc123456 \\h "><w:fldSimple w:instr=" QUOTE 7 "><w:r><w:t>7</w:t></w:r></w:fldSimple></w:fldSimple>' +
    '<w:fldSimple w:instr=" NUMPAGES "/>';

  function withParagraph(paragraph: string): Uint8Array {
    return variant(FILE, (xml) => xml.replace('<w:body>', `<w:body><w:p>${paragraph}</w:p>`));
  }

  it('shows simple fields (w:fldSimple) as their results, links as links, nested too', async () => {
    const md = await markdownOf(withParagraph(`<w:r><w:t xml:space="preserve">Read </w:t></w:r>${SIMPLE}`), FILE);
    expect(md).toContain('Read [the annual report](https://example.org/report), dated 12 May 2024, see page 7');
    expect(md).not.toMatch(/HYPERLINK|PAGEREF|_Toc|MMMM|NUMPAGES|QUOTE/);
  });

  it('shows a table of contents as its entries (complex fields with nested PAGEREF)', async () => {
    const field = (type: string): string => `<w:r><w:fldChar w:fldCharType="${type}"/></w:r>`;
    const entry = (title: string, page: string, bookmark: string): string =>
      `<w:p><w:hyperlink w:anchor="${bookmark}"><w:r><w:t>${title}</w:t></w:r><w:r><w:tab/></w:r>${field('begin')}<w:r><w:instrText xml:space="preserve"> PAGEREF ${bookmark} \\h </w:instrText></w:r>${field('separate')}<w:r><w:t>${page}</w:t></w:r>${field('end')}</w:hyperlink></w:p>`;
    const toc =
      `<w:p>${field('begin')}<w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h \\z \\u </w:instrText></w:r>${field('separate')}</w:p>` +
      entry('Introduction', '1', '_Toc100') +
      entry('Methods and materials', '4', '_Toc101') +
      `<w:p>${field('end')}</w:p>`;
    const bytes = variant(FILE, (xml) => xml.replace('<w:body>', `<w:body>${toc}`));
    const md = await markdownOf(bytes, FILE);
    expect(md).toMatch(/Introduction\s+1/);
    expect(md).toMatch(/Methods and materials\s+4/);
    expect(md).not.toMatch(/PAGEREF|_Toc10|TOC \\o/);
  });

  it('never leaks a field code anywhere in the corpus', async () => {
    const files = corpusFiles('office/docx', /\.docx$/)
      .map((p) => p.split('/').pop() as string)
      .filter((f) => !/protected/.test(f));
    // (tika-testExternalRefs names its field types in its body text: its codes are checked below.)
    const CODE = /\b(?:PAGEREF|MERGEFORMAT|MERGEFORMATINET|INCLUDEPICTURE "|INCLUDETEXT "|FORMCHECKBOX|FORMTEXT|FORMDROPDOWN|NUMPAGES)\b|\bSEQ Figure\b|\\\* ARABIC/;
    const leaks: string[] = [];
    for (const file of files) {
      const md = await corpusMarkdown(file);
      if (CODE.test(md)) leaks.push(`${file}: ${CODE.exec(md)?.[0]}`);
    }
    expect(leaks).toEqual([]);
  }, 60_000);

  it('shows external-content fields as their cached result, not their targets (tika-testExternalRefs)', async () => {
    const md = await corpusMarkdown('tika-testExternalRefs.docx');
    expect(md).toContain('Testing INCLUDETEXT: \\[Text placeholder\\]');
    expect(md).toContain('Testing LINK: \\[Link placeholder\\]');
    expect(md).not.toMatch(/example\.(?:com|org|net)|test\.invalid|Word\.Document/);
  });

  it('drops the results of fields nested inside another field\'s code (IF { MERGEFIELD })', async () => {
    const field = (type: string): string => `<w:r><w:fldChar w:fldCharType="${type}"/></w:r>`;
    const code = (text: string): string => `<w:r><w:instrText xml:space="preserve">${text}</w:instrText></w:r>`;
    const text = (value: string): string => `<w:r><w:t xml:space="preserve">${value}</w:t></w:r>`;
    const paragraph =
      text('Dear ') +
      field('begin') + code(' IF ') +
      field('begin') + code(' MERGEFIELD Title ') + field('separate') + text('«Title»') + field('end') +
      code(' = "" "customer" ') + field('separate') + text('Dr Smith') + field('end') +
      text(', welcome.');
    const bytes = variant(FILE, (xml) => xml.replace('<w:body>', `<w:body><w:p>${paragraph}</w:p>`));
    const md = await markdownOf(bytes, FILE);
    expect(md).toContain('Dear Dr Smith, welcome.');
    expect(md).not.toMatch(/Title|customer|MERGEFIELD/);
  });

  it('shows a drop-down form field as its selected entry (word-extractor-test07)', async () => {
    const md = await corpusMarkdown('word-extractor-test07.docx');
    expect(md).toContain('| 2.Dr S Watt | School of Computing | Co-applicant |');
    // A table with merged cells is an HTML table (docs/parsing.md "Markdown"): the drop-down's entry is its cell.
    expect(md).toContain('<tr><td>RGU Status:</td><td>Co-ordinator</td><td>If Other, please state</td></tr>');
    expect(md).toContain('| 3. |  | Choose from list |');
  });

  it('keeps the figure number and page number results (docling-word_sample)', async () => {
    const md = await corpusMarkdown(FILE);
    expect(md).toMatch(/Figure 1/);
  });
});

describe('content controls and bidirectional wrappers keep their text', () => {
  it('keeps the text inside w:sdt (tika-testWORD_template)', async () => {
    const md = await corpusMarkdown('tika-testWORD_template.docx');
    expect(md).toContain('James Hetfield');
    expect(md).toContain('867-5309');
  });

  it('keeps runs inside w:dir and w:bdo', async () => {
    const FILE = 'docling-word_sample.docx';
    const bytes = variant(FILE, (xml) =>
      xml.replace('<w:body>', '<w:body><w:p><w:r><w:t xml:space="preserve">Before </w:t></w:r><w:dir w:val="rtl"><w:r><w:t>שלום עולם</w:t></w:r></w:dir><w:bdo w:val="ltr"><w:r><w:t xml:space="preserve"> and after</w:t></w:r></w:bdo></w:p>'),
    );
    expect(await markdownOf(bytes, FILE)).toContain('Before שלום עולם and after');
  });
});
