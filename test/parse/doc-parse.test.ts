/**
 * .doc through the whole pipeline (`parse()`: detect → read → clean → write): markdown with a
 * table, headings and links; page furniture kept or dropped with onlyMainContent; Word 2003 XML
 * named .doc; a damaged container refused by detect().
 */
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.ts';
import { parse, type ParseData } from '../../src/parse/index.ts';
import { parseOptions, type ParseOptionsInput } from '../../src/parse/options.ts';
import { readCorpus } from '../helpers/corpus.ts';

function parseDoc(file: string, options: ParseOptionsInput = {}): Promise<ParseData> {
  return parse({ bytes: readCorpus('office', 'doc', file), filename: file }, parseOptions(options));
}

describe('doc through parse()', () => {
  it('writes headings and a GFM table with its header row', async () => {
    const { markdown } = await parseDoc('docling-legacy_sample.doc');
    expect(markdown).toMatch(/^# Swimming in the lake$/m);
    expect(markdown).toMatch(/^## Let’s eat$/m);
    expect(markdown).toMatch(/^Duck\n\n!\[Image\]\n\nFigure 1: This is a cute duckling$/m);
    expect(markdown).toContain('- You can relax and look around\n- Paddle about\n- Enjoy summer warmth');
    expect(markdown).toContain('1. Wear sunglasses\n2. Don’t forget to drink water\n3. Use sun cream');
    expect(markdown).toMatch(/^\| *\| Food \| Calories per portion \|$/m);
    expect(markdown).toMatch(/^\| \*\*Berries\*\* \| Blueberry, Strawberry, Cranberry \| 150 \|$/m);
  });

  it('writes links from HYPERLINK fields and reports the document title', async () => {
    const data = await parseDoc('word-extractor-test03.doc', { formats: ['markdown', 'links'] });
    expect(data.markdown).toContain('[**MIT (X11)**](http://www.opensource.org/licenses/mit-license.php)');
    expect(data.markdown).toMatch(/^\| \*\*Attribution\?\*\* \| Must be included in your source code and distribution\. \|/m);
    expect(data.links).toContain('http://www.opensource.org/licenses/apache2.0.php');
    expect(data.metadata.title).toBe('GPL Compatible License List');
  });

  it('keeps headers and footers with onlyMainContent false and drops them with true', async () => {
    const full = await parseDoc('word-extractor-test15.doc', { onlyMainContent: false });
    expect(full.markdown).toContain('Section 2 – odd page header');
    expect(full.markdown).toContain('Section 3 – first page footer');
    expect(full.markdown).toMatch(/^# Header test file$/m);
    const main = await parseDoc('word-extractor-test15.doc', { onlyMainContent: true });
    expect(main.markdown).not.toContain('page header');
    expect(main.markdown).not.toContain('page footer');
    expect(main.markdown).toMatch(/^# Header test file$/m);
  });

  it('writes footnotes after a rule', async () => {
    const markdown = (await parseDoc('word-extractor-test13.doc')).markdown ?? '';
    expect(markdown).toMatch(/^Paragraph 1\\?\[1\\?\]$/m);
    expect(markdown).toMatch(/^---$/m);
    expect(markdown.indexOf('This is a footnote')).toBeGreaterThan(markdown.indexOf('Paragraph 2'));
    expect(markdown).toMatch(/^1\. This is a footnote$/m);
    expect(markdown).toMatch(/^2\. This is an endnote$/m);
  });

  it('reads Word 2003 XML named .doc', async () => {
    const { markdown } = await parseDoc('tika-testWORDML_tableInsideParagraph.doc');
    expect(markdown).toMatch(/^\| First Page \| +\| +\|$/m);
    expect(markdown).toMatch(/^\| Some Data \| Second column \| Third \|$/m);
  });

  it('refuses the damaged OLE header with CORRUPT_FILE', async () => {
    try {
      await parseDoc('word-extractor-badfile-01-bad-header.doc');
      throw new Error('expected a failure');
    } catch (err) {
      expect(isServiceError(err) && err.code).toBe('CORRUPT_FILE');
    }
  });
});
