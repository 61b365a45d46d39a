/**
 * .docx through the whole pipeline (`parse()`: detect → read → clean → write): markdown,
 * page furniture with onlyMainContent, pictures, response metadata and warnings, and
 * markitdown's test vectors.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, type ParseData } from '../../src/parse/index.ts';
import { parseOptions, type ParseOptionsInput } from '../../src/parse/options.ts';
import { corpusPath, readCorpus } from '../helpers/corpus.ts';

function parseDocx(file: string, options: ParseOptionsInput = {}): Promise<ParseData> {
  return parse({ bytes: readCorpus('office', 'docx', file), filename: file }, parseOptions(options));
}

interface Vector {
  file: string;
  mode: string;
  must_include: string[];
  must_not_include: string[];
}

const vectors = (JSON.parse(fs.readFileSync(corpusPath('office', 'docx', 'markitdown-vectors.json'), 'utf8')) as { cases: Vector[] }).cases;

function vector(file: string, mode: string): Vector {
  const found = vectors.find((v) => v.file === file && v.mode.startsWith(mode));
  if (!found) throw new Error(`no vector ${file} ${mode}`);
  return found;
}

describe('docx through parse()', () => {
  it('writes headings, lists and tables as markdown', async () => {
    const { markdown } = await parseDocx('docling-word_tables.docx');
    expect(markdown).toMatch(/^# Test with tables$/m);
    expect(markdown).toMatch(/^\| Header 0\.0 \| Header 0\.1 \| Header 0\.2 \|$/m);
    expect(markdown).toContain('Merged Cell 1.1 2.1');
    const lists = await parseDocx('kreuzberg-unit_test_lists.docx');
    expect(lists.markdown).toMatch(/^1\. List item a$/m);
    expect(lists.markdown).toMatch(/^\s+- List item 1\.1\.1$/m);
  });

  it('keeps running headers and footers only when onlyMainContent is false', async () => {
    const main = await parseDocx('docling-unit_test_formatting.docx');
    expect(main.markdown).not.toContain('This is a header');
    expect(main.markdown).not.toContain('This is a footer');
    expect(main.markdown).toContain('[hyperlink](https://github.com/DS4SD/docling)');

    const full = await parseDocx('docling-unit_test_formatting.docx', { onlyMainContent: false });
    expect(full.markdown?.startsWith('This is a header')).toBe(true);
    expect(full.markdown?.trimEnd().endsWith('3 paragraphs and a picture ![Owner avatar]')).toBe(true);
  });

  it('writes notes after a rule and equations as $…$ / $$…$$', async () => {
    const notes = await parseDocx('mammoth-footnotes.docx');
    expect(notes.markdown).toMatch(/---\n\n1\. A tachyon walks into a bar\.\n2\. Fin\./);
    const maths = await parseDocx('markitdown-equations.docx');
    expect(maths.markdown).toContain('For $m=1$,');
    expect(maths.markdown).toMatch(/\$\$\n\\sin\\theta=\\frac\{m\\lambda\}\{a\}=[^\n]+\n\$\$/);
  });

  it('answers metadata, links and the warnings', async () => {
    const result = await parseDocx('tika-testWORD_various.docx', { formats: ['markdown', 'links'] });
    expect(result.links).toEqual(['http://tika.apache.org/']);
    expect(result.metadata).toMatchObject({
      description: 'Subject is here',
      keywords: 'Keyword1 Keyword2',
      language: 'en-GB',
      author: 'Michael McCandless',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const titled = await parseDocx('tika-testWORD_custom_props.docx');
    expect(titled.metadata.title).toBe('My Title');
    const sub = await parseDocx('tika-testSubdocument.docx');
    expect(sub.warning).toBe('The document is a master document: 1 subdocument is stored in separate files and not included.');
  });
});

describe("markitdown's vectors", () => {
  it('markitdown-test.docx: planted strings and headings; pictures as placeholders by default', async () => {
    const v = vector('markitdown-test.docx', 'default');
    const { markdown = '' } = await parseDocx(v.file);
    // markitdown's own placeholder text is not ours: ours is the alt-text placeholder.
    for (const s of v.must_include.filter((s) => s !== 'data:image/png;base64...')) expect(markdown).toContain(s);
    for (const s of v.must_not_include) expect(markdown).not.toContain(s);
    expect(markdown).not.toContain('data:image');
    expect(markdown).toMatch(/!\[[^\]]+\](?!\()/);
  });

  it('markitdown-test.docx with pictures kept as data URIs', async () => {
    const v = vector('markitdown-test.docx', 'keep_data_uris');
    const { markdown = '' } = await parseDocx(v.file, { removeBase64Images: false });
    for (const s of v.must_include) expect(markdown).toContain(s);
    for (const s of v.must_not_include) expect(markdown).not.toContain(s);
  });

  it('markitdown-test_with_comment.docx: the text, without the review comments', async () => {
    const v = vector('markitdown-test_with_comment.docx', 'default');
    const { markdown = '' } = await parseDocx(v.file);
    const comments = ['This is a test comment. 12df-321a', 'Yet another comment in the doc. 55yiyi-asd09'];
    for (const s of v.must_include.filter((s) => !comments.includes(s))) expect(markdown).toContain(s);
    // Comments are reviewers' annotations, not the document: left out on purpose.
    for (const s of comments) expect(markdown).not.toContain(s);
  });

  it('markitdown-rlink.docx: the externally linked file is never read', async () => {
    const v = vector('markitdown-rlink.docx', 'keep_data_uris');
    const result = await parseDocx(v.file, { removeBase64Images: false, formats: ['markdown', 'rawHtml', 'images'] });
    for (const s of v.must_not_include) {
      expect(result.markdown).not.toContain(s);
      expect(result.rawHtml).not.toContain(s);
    }
    expect(result.markdown).toContain('Testing Linked Images');
  });
});
