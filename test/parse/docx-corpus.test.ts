/**
 * The whole .docx corpus: every file either reads or fails with a ServiceError, quickly; and
 * the reader agrees with the expected outputs shipped with the corpus (mammoth's own HTML for
 * its test files, word-extractor's text for its twins).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.ts';
import type { ReadResult } from '../../src/parse/document.ts';
import type { ParseOptionsInput } from '../../src/parse/options.ts';
import { readDocx } from '../../src/parse/readers/docx/index.ts';
import { corpusFiles, corpusPath, readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';

const PER_FILE_MS = 5_000;

function read(file: string, options: ParseOptionsInput = {}): Promise<ReadResult> {
  return readDocx(readInput('docx', readCorpus('office', 'docx', file), { filename: file, options }));
}

describe('every corpus .docx', () => {
  const files = corpusFiles('office/docx', /\.docx$/).map((p) => p.split('/').pop() as string);

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(100);
  });

  it('reads, or fails with a ServiceError, each within the time bound', async () => {
    const outcomes: Record<string, string> = {};
    for (const file of files) {
      const started = performance.now();
      try {
        const result = await read(file);
        outcomes[file] = result.document.body.textContent?.trim() || result.document.body.querySelector('img, table') ? 'read' : 'empty';
      } catch (err) {
        if (!isServiceError(err)) throw new Error(`${file}: ${String(err)}`);
        outcomes[file] = err.code;
      }
      const elapsed = performance.now() - started;
      expect(elapsed, `${file} took ${Math.round(elapsed)} ms`).toBeLessThan(PER_FILE_MS);
    }
    // The two password-protected files are OLE containers, not zips: detect() stops them before
    // this reader; read directly they are damaged zips.
    expect(outcomes['tika-protected_upper_case.docx']).toBe('CORRUPT_FILE');
    expect(outcomes['tika-testWORD_protected_passtika.docx']).toBe('CORRUPT_FILE');
    const failed = Object.entries(outcomes).filter(([, o]) => o !== 'read' && o !== 'empty');
    expect(failed.map(([f]) => f).sort()).toEqual(['tika-protected_upper_case.docx', 'tika-testWORD_protected_passtika.docx']);
    // Empty: mammoth's empty document, and Tika's author-list test (properties only).
    expect(Object.entries(outcomes).filter(([, o]) => o === 'empty').map(([f]) => f).sort()).toEqual([
      'mammoth-empty.docx',
      'tika-testWORD_multi_authors.docx',
    ]);
  }, 120_000);
});

interface MammothCase {
  file: string;
  call: string;
  options: Record<string, unknown>;
  value: string;
}

describe("mammoth's expected HTML", () => {
  const cases = (JSON.parse(fs.readFileSync(corpusPath('office', 'docx', 'mammoth-expected.json'), 'utf8')) as { cases: MammothCase[] }).cases;
  // Cases with default options. Notes and external pictures are rendered differently on purpose
  // (see notes.ts and the rlink test); those are asserted in docx-reader.test.ts.
  const plain = cases.filter(
    (c) => c.call === 'convertToHtml' && Object.keys(c.options).length === 0 && !/external-picture/.test(c.file),
  );

  it('covers the plain cases', () => {
    expect(plain.map((c) => c.file)).toEqual([
      'mammoth-single-paragraph.docx',
      'mammoth-utf8-bom.docx',
      'mammoth-empty.docx',
      'mammoth-embedded-style-map.docx',
      'mammoth-tiny-picture.docx',
      'mammoth-tiny-picture-target-base-relative.docx',
      'mammoth-simple-list.docx',
      'mammoth-tables.docx',
      'mammoth-text-box.docx',
      'mammoth-underline.docx',
      'mammoth-strikethrough.docx',
      'mammoth-strict-format.docx',
    ]);
  });

  for (const c of plain) {
    it(`${c.file} gives mammoth's HTML`, async () => {
      const result = await read(c.file, { removeBase64Images: false });
      expect(result.document.body.innerHTML).toBe(c.value.replace(/ \/>/g, '>'));
    });
  }
});

interface ExtractorCase {
  file: string;
  body: string;
  footnotes: string;
}

/** Dashes, quotes and white space as one form, for comparing a .docx with its .doc twin's text. */
function normal(text: string): string {
  return text
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

describe("word-extractor's expected text", () => {
  const cases = (JSON.parse(fs.readFileSync(corpusPath('office', 'docx', 'word-extractor-expected.json'), 'utf8')) as { cases: ExtractorCase[] }).cases;

  for (const c of cases) {
    it(`${c.file}: every paragraph and cell of the body and footnotes is in the output`, async () => {
      const result = await read(c.file, { removeBase64Images: true });
      // Note marks ([1]) and checkbox glyphs are this reader's additions; the .doc snapshot has neither.
      const text = normal((result.document.body.textContent ?? '').replace(/\[\d+\]|[☐☒]/g, ''));
      const fragments = `${c.body}\n${c.footnotes}`
        .split(/[\n\t]/)
        .map(normal)
        .filter((f) => f !== '');
      const missing = fragments.filter((f) => !text.includes(f));
      expect(missing).toEqual([]);
    });
  }
});
