/**
 * The whole .doc corpus: every file reads or fails with a ServiceError, quickly; the main text
 * agrees word for word with word-extractor's expected outputs (its own test snapshots); and a
 * seeded fuzz loop (truncations and bit flips of real files) only ever gives content or a
 * ServiceError, each variant within a time bound.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.ts';
import type { ReadResult } from '../../src/parse/document.ts';
import { readDoc } from '../../src/parse/readers/doc/index.ts';
import { corpusFiles, corpusPath, readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';
import { mulberry32 as generator } from '../helpers/prng.ts';

const PER_FILE_MS = 3_000;

function read(file: string): Promise<ReadResult> {
  const format = file === 'tika-testWORDML_tableInsideParagraph.doc' ? 'wordml' : 'doc';
  return readDoc(readInput('doc', readCorpus('office', 'doc', file), { filename: file, format }));
}

/** word-extractor's getBody() filter: curly quotes, dashes and wide spaces as ASCII. */
function ascii(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/[\u2012-\u2014]/g, '-').replace(/[\u2002\u2003]/g, ' ');
}

function words(text: string): string[] {
  return ascii(text).split(/[\s\u00a0]+/).filter(Boolean);
}

/** The main text's words: blocks outside page furniture and before the notes' rule, note marks left out. */
function mainWords(body: Element): string[] {
  const clone = body.cloneNode(true) as Element;
  for (const el of Array.from(clone.querySelectorAll('[data-furniture], sup'))) el.remove();
  for (const br of Array.from(clone.querySelectorAll('br'))) br.replaceWith(' ');
  const rule = clone.querySelector(':scope > hr');
  while (rule?.nextSibling) rule.nextSibling.remove();
  const blocks = Array.from(clone.querySelectorAll('p, h1, h2, h3, h4, h5, h6, th, td, li'));
  // A list item's own text: its nested lists are items of their own.
  const ownText = (el: Element): string =>
    Array.from(el.childNodes)
      .filter((n) => n.nodeName !== 'UL' && n.nodeName !== 'OL')
      .map((n) => n.textContent ?? '')
      .join('');
  return blocks.flatMap((b) => words(ownText(b)));
}

interface ExpectedCase {
  file: string;
  body: string;
  footnotes: string | null;
  endnotes: string | null;
  textboxes: string | null;
}

const expected = JSON.parse(fs.readFileSync(corpusPath('office', 'doc', 'word-extractor-expected.json'), 'utf8')) as { cases: ExpectedCase[] };

describe('every corpus .doc', () => {
  const files = corpusFiles('office/doc', /\.doc$/).map((p) => p.split('/').pop() as string);

  it('reads, or fails with a ServiceError, each within the time bound', async () => {
    expect(files.length).toBe(37);
    const outcomes: Record<string, string> = {};
    for (const file of files) {
      const started = performance.now();
      try {
        const result = await read(file);
        outcomes[file] = result.document.body.textContent?.trim() ? 'read' : 'empty';
      } catch (err) {
        if (!isServiceError(err)) throw new Error(`${file}: ${String(err)}`);
        outcomes[file] = err.code;
      }
      const elapsed = performance.now() - started;
      expect(elapsed, `${file} took ${Math.round(elapsed)} ms`).toBeLessThan(PER_FILE_MS);
    }
    expect(Object.entries(outcomes).filter(([, o]) => o !== 'read')).toEqual([
      // An OLE-linked PowerPoint slide, a single EQ field without a displayed result, properties only,
      // embedded objects only: no text of their own.
      ['tika-testDocumentLink.doc', 'empty'],
      ['tika-testWORD_multi_authors.doc', 'empty'],
      ['tika-testWORD_phonetic.doc', 'empty'],
      ['tika-testWPSAttachment.doc', 'empty'],
      ['word-extractor-badfile-01-bad-header.doc', 'CORRUPT_FILE'],
    ]);
  }, 60_000);

  for (const testCase of expected.cases) {
    it(`${testCase.file}: main text word for word as word-extractor's snapshot`, async () => {
      const { document } = await read(testCase.file);
      const want = [...words(testCase.body), ...words(testCase.textboxes ?? '')];
      expect(mainWords(document.body)).toEqual(want);
      const notes = [...words(testCase.footnotes ?? ''), ...words(testCase.endnotes ?? '')];
      const rule = document.body.querySelector(':scope > hr');
      const items = rule ? Array.from(rule.nextElementSibling?.querySelectorAll('li') ?? []) : [];
      const got = items.flatMap((li) => words(li.textContent ?? ''));
      expect(got).toEqual(notes);
    });
  }
});

describe('hostile .doc input', () => {
  it('survives the byte changes that made word-extractor’s own OLE reader loop on a sector chain until the process died', async () => {
    // Found by fuzzing test19.doc: word-extractor followed a looped FAT chain, growing an array to
    // 169 M entries (a fatal V8 error, not an exception). folio reads the streams through SheetJS CFB.
    const bytes = Buffer.from(readCorpus('office', 'doc', 'word-extractor-test19.doc'));
    const changes: [number, number][] = [
      [28407, 127], [69424, 138], [208522, 85], [258639, 68], [374813, 142], [444021, 88], [459787, 71],
      [461174, 100], [570342, 200], [594902, 123], [615592, 69], [868867, 121], [949032, 8], [957485, 18],
    ];
    for (const [at, value] of changes) bytes[at] = value;
    const started = performance.now();
    try {
      const result = await readDoc(readInput('doc', bytes));
      expect(result.document.body.textContent).toContain('Lorem ipsum');
    } catch (err) {
      expect(isServiceError(err) && err.code).toBe('CORRUPT_FILE');
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  const FILES = [
    ['word-extractor-test03.doc', 'doc'],
    ['word-extractor-test07.doc', 'doc'],
    ['word-extractor-test13.doc', 'doc'],
    ['word-extractor-test15.doc', 'doc'],
    ['docling-legacy_sample.doc', 'doc'],
    ['tika-testWORD_2006ml.doc', 'doc'],
    ['tika-testWORDML_tableInsideParagraph.doc', 'wordml'],
  ] as const;
  const VARIANTS_PER_FILE = 50;
  const PER_VARIANT_MS = 1_500;

  it(`truncated and bit-flipped variants give content or a ServiceError, each under ${PER_VARIANT_MS} ms`, async () => {
    const random = generator(0x0d0c);
    const codes = new Map<string, number>();
    for (const [file, format] of FILES) {
      const original = readCorpus('office', 'doc', file);
      for (let v = 0; v < VARIANTS_PER_FILE; v++) {
        const bytes = Buffer.from(original);
        let variant: Buffer = bytes;
        const kind = v % 3;
        if (kind === 0) variant = bytes.subarray(0, Math.floor(random() * bytes.length));
        else {
          const flips = kind === 1 ? 1 + Math.floor(random() * 8) : 1 + Math.floor(random() * 64);
          for (let i = 0; i < flips; i++) {
            const at = Math.floor(random() * bytes.length);
            bytes[at] = kind === 1 ? (bytes[at] as number) ^ (1 << Math.floor(random() * 8)) : Math.floor(random() * 256);
          }
        }
        const started = performance.now();
        let outcome: string;
        try {
          const result = await readDoc(readInput('doc', variant, { filename: file, format }));
          expect(result.document.body).toBeDefined();
          outcome = 'read';
        } catch (err) {
          if (!isServiceError(err)) throw new Error(`${file} variant ${v}: ${String(err)}`);
          outcome = err.code;
        }
        codes.set(outcome, (codes.get(outcome) ?? 0) + 1);
        const elapsed = performance.now() - started;
        expect(elapsed, `${file} variant ${v} took ${Math.round(elapsed)} ms`).toBeLessThan(PER_VARIANT_MS);
      }
    }
    expect([...codes.keys()].every((code) => code === 'read' || code === 'CORRUPT_FILE')).toBe(true);
    // Truncation alone damages a third of the variants: some must be refused.
    expect(codes.get('CORRUPT_FILE') ?? 0).toBeGreaterThan(FILES.length * 5);
  }, 60_000);
});
