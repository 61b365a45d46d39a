/**
 * Word 6.0 and Word 95 `.doc` files (the FIB before Word 97), built by test/helpers/word6.ts:
 * paragraphs and headings, a fast-saved file read through its piece table, cp1252 and Cyrillic
 * text (from the FIB's language or the font's charset), tables from cell and row marks, fields,
 * bold runs and footnotes; damaged, encrypted and Word 2.0 files refused with a 400 that names
 * the version, never a crash.
 */
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.ts';
import { detect } from '../../src/parse/detect.ts';
import type { ReadResult } from '../../src/parse/document.ts';
import { readDoc } from '../../src/parse/readers/doc/index.ts';
import { mulberry32 } from '../helpers/prng.ts';
import { readInput, serviceFailure } from '../helpers/read-input.ts';
import { buildWord6Doc, oleFile, word6Stream, type Word6Block, type Word6Options } from '../helpers/word6.ts';

function read(bytes: Buffer): Promise<ReadResult> {
  return readDoc(readInput('doc', bytes, { filename: 'old.doc' }));
}

function blocksOf(root: Element): string[] {
  return Array.from(root.children).map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').replace(/\s+/g, ' ').trim()}`);
}

function grid(table: Element): string[][] {
  return Array.from(table.querySelectorAll('tr')).map((tr) => Array.from(tr.children).map((cell) => (cell.textContent ?? '').trim()));
}

const REPORT: Word6Block[] = [
  { heading: 1, text: 'Quarterly report' },
  'The first paragraph of the report.',
  { heading: 2, text: 'Costs' },
  'Prices rose – “sharply” – to 12 € per café crème; naïve façades, Œuvre, ß and ÿ.',
  'A closing paragraph.',
];

const EXPECTED = [
  'h1: Quarterly report',
  'p: The first paragraph of the report.',
  'h2: Costs',
  'p: Prices rose – “sharply” – to 12 € per café crème; naïve façades, Œuvre, ß and ÿ.',
  'p: A closing paragraph.',
];

describe('Word 6.0 / Word 95 .doc: text and paragraphs', () => {
  for (const version of ['word6', 'word95'] as const) {
    it(`reads ${version === 'word6' ? 'Word 6.0 (nFib 101)' : 'Word 95 (nFib 104)'}: paragraphs, headings from the style sheet, cp1252 characters`, async () => {
      const { document, warnings } = await read(buildWord6Doc(REPORT, { version }));
      expect(blocksOf(document.body)).toEqual(EXPECTED);
      expect(warnings).toEqual([]);
    });
  }

  it('reads a fast-saved file through its piece table (text stored out of order) to the same document', async () => {
    const plain = await read(buildWord6Doc(REPORT, { version: 'word95' }));
    const fast = await read(buildWord6Doc(REPORT, { version: 'word95', fastSaved: true }));
    expect(blocksOf(fast.document.body)).toEqual(EXPECTED);
    expect(fast.document.body.innerHTML).toBe(plain.document.body.innerHTML);
  });

  it('reads a file that was not fast-saved from fcMin when its piece table does not hold up', async () => {
    const stream = word6Stream(REPORT, { version: 'word95' });
    stream.writeUInt32LE(0x300, 0x160); // fcClx: the text itself, which is no CLX
    stream.writeUInt32LE(40, 0x164);
    const { document } = await read(oleFile({ WordDocument: stream }));
    expect(blocksOf(document.body)).toEqual(EXPECTED);
  });

  it('decodes Cyrillic text from the FIB language (Russian, cp1251) and from a Cyrillic font on an English FIB', async () => {
    const blocks = ['Съешь же ещё этих мягких французских булок, да выпей чаю.'];
    const options: Word6Options = { codePage: 1251 };
    for (const extra of [{ lid: 0x0419 }, { lid: 0x0409, fontCharset: 204 }]) {
      const { document } = await read(buildWord6Doc(blocks, { ...options, ...extra }));
      expect(blocksOf(document.body)).toEqual([`p: ${blocks[0]}`]);
    }
    // Without either, the same bytes are Windows-1252: the code page really comes from them.
    const { document } = await read(buildWord6Doc(blocks, { ...options, lid: 0x0409 }));
    expect(document.body.textContent).not.toContain('Съешь');
  });

  it('decodes each paragraph in its font\'s code page: the Normal style\'s font, and runs in Greek and Cyrillic fonts', async () => {
    // Most fonts in the table are ANSI: only the Normal style's font (ftc 1, Cyrillic) says cp1251.
    const russian = 'Съешь же ещё этих мягких французских булок.';
    const byStyle = await read(buildWord6Doc([russian], { codePage: 1251, lid: 0x0409, moreFonts: [204, 0, 0], normalFont: 1 }));
    expect(blocksOf(byStyle.document.body)).toEqual([`p: ${russian}`]);
    const mixed: Word6Block[] = ['Café crème – “quoted”.', { text: 'Καλημέρα κόσμε.', font: 1, codePage: 1253 }, { text: 'Привет, мир.', font: 2, codePage: 1251 }, 'Naïve façade.'];
    for (const fastSaved of [false, true]) {
      const { document } = await read(buildWord6Doc(mixed, { version: 'word95', fastSaved, moreFonts: [161, 204] }));
      expect(blocksOf(document.body)).toEqual(['p: Café crème – “quoted”.', 'p: Καλημέρα κόσμε.', 'p: Привет, мир.', 'p: Naïve façade.']);
    }
  });
});

describe('Word 6.0 / Word 95 .doc: structure', () => {
  it('rebuilds a table from cell marks and row-end paragraphs, header row first', async () => {
    const blocks: Word6Block[] = ['Before the table.', { table: [['Name', 'Amount'], ['Apples', '3'], ['Pears', '']] }, 'After the table.'];
    for (const fastSaved of [false, true]) {
      const { document } = await read(buildWord6Doc(blocks, { version: 'word6', fastSaved }));
      const table = document.body.querySelector('table') as Element;
      expect(grid(table)).toEqual([
        ['Name', 'Amount'],
        ['Apples', '3'],
        ['Pears', ''],
      ]);
      expect(table.previousElementSibling?.textContent).toBe('Before the table.');
      expect(table.nextElementSibling?.textContent).toBe('After the table.');
    }
  });

  it('reads Word 6 auto-numbered paragraphs (nLvlAnm 10) as lists: bullets (ANLD nfc 23) and numbers', async () => {
    const blocks: Word6Block[] = ['Shopping:', { item: 'Apples', bullet: true }, { item: 'Pears', bullet: true }, 'Steps:', { item: 'Wash', bullet: false }, { item: 'Cut', bullet: false }, 'Done.'];
    const { document } = await read(buildWord6Doc(blocks, { version: 'word6' }));
    expect(blocksOf(document.body)).toEqual(['p: Shopping:', 'ul: ApplesPears', 'p: Steps:', 'ol: WashCut', 'p: Done.']);
  });

  it('tells running headers from footers by the sections\' grpfIhdt, skipping the note separator story', async () => {
    for (const fastSaved of [false, true]) {
      const { document } = await read(buildWord6Doc(['Body\x02 text.'], { version: 'word95', fastSaved, header: 'Company confidential', footer: 'Page footer', footnotes: ['A note.'] }));
      expect(Array.from(document.body.querySelectorAll('[data-furniture]'), (el) => `${el.tagName.toLowerCase()}: ${el.textContent}`)).toEqual(['header: Company confidential', 'footer: Page footer']);
      expect(document.body.firstElementChild?.tagName).toBe('HEADER');
      expect(document.body.lastElementChild?.tagName).toBe('FOOTER');
    }
    const footerOnly = await read(buildWord6Doc(['Body.'], { footer: 'Only a footer' }));
    expect(Array.from(footerOnly.document.body.querySelectorAll('[data-furniture]'), (el) => el.tagName.toLowerCase())).toEqual(['footer']);
  });

  it('keeps a field result and drops its instructions; a HYPERLINK field becomes a link', async () => {
    const blocks = ['Page \x13 PAGE \\* MERGEFORMAT \x143\x15 of the \x13HYPERLINK "http://example.com/report"\x14online report\x15.'];
    const { document } = await read(buildWord6Doc(blocks, { version: 'word95' }));
    expect(document.body.textContent?.trim()).toBe('Page 3 of the online report.');
    expect(document.body.querySelector('a')?.getAttribute('href')).toBe('http://example.com/report');
  });

  it('reads bold runs and footnotes (numbered after a rule, references labelled)', async () => {
    const blocks: Word6Block[] = ['Claim\x02 made here.', { bold: 'An important line.' }, 'Another\x02 claim.'];
    for (const fastSaved of [false, true]) {
      const { document } = await read(buildWord6Doc(blocks, { version: 'word95', fastSaved, footnotes: ['First source.', 'Second source.'] }));
      expect(document.body.querySelector('strong')?.textContent).toBe('An important line.');
      expect(Array.from(document.body.querySelectorAll('sup'), (s) => s.textContent)).toEqual(['[1]', '[2]']);
      expect(Array.from(document.body.querySelectorAll('ol > li'), (li) => li.textContent)).toEqual(['First source.', 'Second source.']);
    }
  });
});

describe('Word 6.0 / Word 95 .doc: refused with a clear 400', () => {
  it('an encrypted file is ENCRYPTED_FILE naming Word 6.0/95', async () => {
    const failure = await serviceFailure(read(buildWord6Doc(REPORT, { encrypted: true })));
    expect(failure.code).toBe('ENCRYPTED_FILE');
    expect(failure.message).toContain('Word 6.0/95');
  });

  it('a truncated FIB, a piece table past the stream, text past the stream are CORRUPT_FILE', async () => {
    const stream = word6Stream(REPORT, { fastSaved: true });
    const truncated = stream.subarray(0, 0x100);
    const badClx = Buffer.from(stream);
    badClx.writeUInt32LE(badClx.length + 100, 0x160);
    const badPiece = Buffer.from(stream);
    const clxAt = badPiece.readUInt32LE(0x160);
    badPiece.writeUInt32LE(0x7fff_0000, clxAt + 5 + 3 * 4 + 2);
    const plain = word6Stream(REPORT);
    const longText = Buffer.from(plain);
    longText.writeUInt32LE(10_000_000, 0x34);
    for (const [damaged, reason] of [
      [truncated, 'truncated'],
      [badClx, 'piece table'],
      [badPiece, 'outside'],
      [longText, 'outside'],
    ] as const) {
      const failure = await serviceFailure(read(oleFile({ WordDocument: damaged })));
      expect(failure.code).toBe('CORRUPT_FILE');
      expect(failure.message).toContain('Word 6.0/95');
      expect(failure.message).toContain(reason);
    }
  });

  it('a Word 2.0 FIB is UNSUPPORTED_FILE_TYPE naming the version', async () => {
    const stream = word6Stream(REPORT);
    stream.writeUInt16LE(45, 2);
    const failure = await serviceFailure(read(oleFile({ WordDocument: stream })));
    expect(failure.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(failure.message).toContain('Word 2.0');
  });

  it('a bare Word for Windows 2.0 file (not OLE, FIB ident 0xA5DB) is UNSUPPORTED_FILE_TYPE naming the version, not "binary data"', () => {
    const word2 = Buffer.alloc(1024);
    word2.writeUInt16LE(0xa5db, 0);
    word2.writeUInt16LE(45, 2);
    let caught: unknown;
    try {
      detect(word2, 'old.doc');
    } catch (err) {
      caught = err;
    }
    expect(isServiceError(caught) && caught.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(String((caught as Error).message)).toContain('Word for Windows 2.0');
    expect(String((caught as Error).message)).not.toContain('binary data');
  });

  it('300 byte-flipped and truncated Word 6/95 files: each is read or refused with a ServiceError, none throws anything else', async () => {
    const random = mulberry32(16_0695);
    const streams = [word6Stream(REPORT, { version: 'word6' }), word6Stream(REPORT, { version: 'word95', fastSaved: true, footnotes: [] }), word6Stream(['a\x02b', { table: [['x', 'y']] }], { footnotes: ['n'] })];
    let read200 = 0;
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      const stream = Buffer.from(streams[i % streams.length] as Buffer);
      const flips = 1 + Math.floor(random() * 24);
      // Flip bytes in the FIB and the structures (the first 0x200 bytes and the tail), where damage bites.
      for (let f = 0; f < flips; f++) {
        const at = random() < 0.5 ? Math.floor(random() * 0x1e2) : Math.floor(random() * stream.length);
        stream[at] = (stream[at] as number) ^ (1 + Math.floor(random() * 255));
      }
      const bytes = random() < 0.2 ? stream.subarray(0, Math.floor(random() * stream.length)) : stream;
      try {
        await read(oleFile({ WordDocument: bytes }));
        read200++;
      } catch (err) {
        const failure = await serviceFailure(Promise.reject(err));
        expect(['CORRUPT_FILE', 'ENCRYPTED_FILE', 'UNSUPPORTED_FILE_TYPE']).toContain(failure.code);
        refused++;
      }
    }
    expect(read200 + refused).toBe(300);
    expect(read200).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 60_000);
});
